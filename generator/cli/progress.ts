/**
 * Progress of a generate run on an interactive terminal: one status line on
 * stderr, rewritten per step and cleared at the end. Silent when stderr is
 * not a terminal or CI is set, so logs stay clean.
 */
import type { Progress } from './pipeline.js';

export interface ProgressLine {
  step: Progress;
  done(): void;
}

export function progressLine(stream: NodeJS.WriteStream = process.stderr, env: NodeJS.ProcessEnv = process.env): ProgressLine {
  if (!stream.isTTY || (env.CI !== undefined && env.CI !== '' && env.CI !== 'false')) return { step: () => {}, done: () => {} };
  let shown = false;
  return {
    step(name) {
      stream.write(`\r\x1b[K${name === 'load' ? 'loading the spec' : `generating ${name}`}...`);
      shown = true;
    },
    done() {
      if (shown) stream.write('\r\x1b[K');
      shown = false;
    },
  };
}
