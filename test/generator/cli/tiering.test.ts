/**
 * The V8 flags `bin/teamchat.js` sets before a command's modules load
 * (generator/cli/tiering.ts): a one-shot `generate` holds TurboFan back;
 * every other command, and a run with no command, keeps V8's defaults.
 */
import { expect, it } from 'vitest';
import { ONE_SHOT_INTERRUPT_BUDGET, tieringFlags } from '../../../generator/cli/tiering.js';

const HELD_BACK = `--interrupt-budget=${ONE_SHOT_INTERRUPT_BUDGET}`;

it.each<[string, { given: string[]; want: string | undefined }]>([
  ['generate', { given: ['generate'], want: HELD_BACK }],
  ['generate with options', { given: ['generate', '--only', 'types,client', '--check'], want: HELD_BACK }],
  ['an option before the command', { given: ['--config=teamchat.config.json', 'generate'], want: HELD_BACK }],
  ['serve', { given: ['serve', '--port', '9991'], want: undefined }],
  ['serve --mock', { given: ['serve', '--mock'], want: undefined }],
  ['conformance', { given: ['conformance', 'http://127.0.0.1:9991'], want: undefined }],
  ['diff', { given: ['diff', 'a.yaml', 'b.yaml'], want: undefined }],
  ['no command', { given: ['--help'], want: undefined }],
  ['nothing', { given: [], want: undefined }],
])('%s', (_name, { given, want }) => {
  expect(tieringFlags(given)).toBe(want);
});
