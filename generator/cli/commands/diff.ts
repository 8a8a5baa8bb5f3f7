/** `teamchat diff <base> [<head>]`: what changed in the API between two specs or revisions, and what it breaks. */
import type { ArgumentsCamelCase, Argv, InferredOptionTypes } from 'yargs';
import { OPTIONS, yargsOptions } from '../../config.js';
import { loadUserConfig } from '../../config-file.js';
import { wrap, type Output } from '../wrapper.js';

const diffOptions = {
  format: { choices: ['text', 'markdown', 'json'] as const, default: 'text' as const, describe: 'output format' },
  'allow-breaking': { type: 'boolean', default: false, describe: 'exit 0 even when there are breaking changes' },
  'check-levels': {
    type: 'boolean',
    default: false,
    describe: 'fail, naming each offender, unless every change is noted at a feature level above the base\'s highest',
  },
  ...yargsOptions('config', 'spec'),
} as const;

type Args = ArgumentsCamelCase<InferredOptionTypes<typeof diffOptions> & { base: string | undefined; head: string | undefined }>;

const EPILOGUE = `Each side is a spec file or a git revision (main, HEAD~3, v1.2.0);
the head defaults to the working tree's spec.

Exit status: 0 no breaking change (or --allow-breaking) and, with
--check-levels, every change noted; 1 otherwise or a spec that does not
load; 2 bad arguments or an unknown revision.

--format json prints one object:
{
  "base": string, "head": string,
  "baseFeatureLevel": number, "headFeatureLevel": number,
  "breaking": number,
  "changes": [{
    "operationId": string | null,  (null: an error code's body)
    "location": "operation" | "path" | "query" | "body"
              | "response" | "error",
    "name": string,     (parameter or field path, error code, "")
    "kind": string,     (e.g. "parameter-removed", "enum-value-added")
    "breaking": boolean,
    "level": number | null,  (newest level noted at or around it)
    "message": string
  }],
  "levelProblems": [string]  (only with --check-levels)
}
Rules, kinds and levels: docs/diff.md.`;

export const diffCommand = {
  command: 'diff <base> [head]',
  describe: 'compare the API of two specs or git revisions: breaking changes, feature-level notes',
  builder: (yargs: Argv) =>
    yargs
      .positional('base', { type: 'string', describe: 'spec file or git revision clients were built from' })
      .positional('head', { type: 'string', describe: 'spec file or git revision to compare with it (default: the working tree)' })
      .options(diffOptions)
      .epilogue(EPILOGUE),
  handler: wrap('diff', async (args: Args, output: Output) => {
    const [{ readSide, readWorkingTree }, { diffModels }, { checkLevels }, { formatReport }] = await Promise.all([
      import('../../diff/source.js'),
      import('../../diff/index.js'),
      import('../../diff/levels.js'),
      import('../../diff/format.js'),
    ]);
    // Files named on the command line are relative to the current directory; the spec of a
    // revision or of the working tree is the configured one (teamchat.config.*, --spec).
    const cwd = process.cwd();
    const found = await loadUserConfig(args.config, cwd);
    const spec = args.spec ?? found.config.spec ?? OPTIONS.spec.default;
    const base = await readSide(args.base ?? '', cwd, found.root, spec);
    const head = args.head === undefined ? await readWorkingTree(found.root, spec) : await readSide(args.head, cwd, found.root, spec);
    const changes = diffModels(base.model, head.model);
    const levelProblems = args.checkLevels ? checkLevels(base.model, head.model, changes) : undefined;
    output.out(formatReport({ base, head, changes, ...(levelProblems ? { levelProblems } : {}) }, args.format).replace(/\n$/, ''));

    let code = 0;
    const breaking = changes.filter((c) => c.breaking).length;
    if (breaking > 0 && !args.allowBreaking) {
      output.err(`diff: ${breaking} breaking change${breaking === 1 ? '' : 's'} (pass --allow-breaking to accept them)`);
      code = 1;
    }
    if (levelProblems && levelProblems.length > 0) {
      output.err(`diff: --check-levels found ${levelProblems.length} problem${levelProblems.length === 1 ? '' : 's'} (listed in the report)`);
      code = 1;
    }
    return code;
  }),
};
