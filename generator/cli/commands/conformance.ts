/**
 * `teamchat conformance <base-url>`: tests a running server against the
 * document (generator/conformance/). Exit 1 on any failure.
 */
import type { ArgumentsCamelCase, Argv, InferredOptionTypes } from 'yargs';
import { ConfigError, yargsOptions } from '../../config.js';
import { configFromArgs } from './generate.js';
import { wrap, type Output } from '../wrapper.js';

const conformanceOptions = {
  ...yargsOptions('config', 'spec'),
  auth: { type: 'string', array: true, default: [] as string[], describe: 'credentials as <scheme>=<value> (Basic: <scheme>=<user>:<password>); also TEAMCHAT_AUTH_<SCHEME>' },
  operations: { type: 'string', describe: 'comma-separated operationIds to test (default: all)' },
  tags: { type: 'string', describe: 'comma-separated tags: test only their operations' },
  seed: { type: 'number', describe: 'seed of the generated requests; the same seed repeats a run (default: random, printed)' },
  'max-requests': { type: 'number', default: 1000, describe: 'stop after this many requests' },
  'time-budget': { type: 'number', describe: 'stop starting requests after this many seconds' },
  'allow-writes': { type: 'boolean', default: false, describe: 'also send operations that change data (POST, PUT, PATCH, DELETE): only against a server you can throw away' },
  strict: { type: 'boolean', default: false, describe: 'also report response properties the schemas do not list' },
  report: { choices: ['text', 'json', 'junit'] as const, default: 'text' as const, describe: 'output: text for people, json or junit for CI (on stdout)' },
} as const;

type Args = ArgumentsCamelCase<InferredOptionTypes<typeof conformanceOptions>> & { baseUrl?: string | undefined };

export const conformanceCommand = {
  command: 'conformance <base-url>',
  describe: 'test a running server against the spec: generated requests, every answer checked',
  builder: (yargs: Argv) =>
    yargs.positional('base-url', { type: 'string', describe: 'the server (scheme, host, port; the spec\'s base path is added unless present)' }).options(conformanceOptions),
  handler: wrap('conformance', async (args: Args, output: Output) => {
    const baseUrl = checkedUrl(args.baseUrl ?? '');
    positive('max-requests', args.maxRequests);
    if (args.timeBudget !== undefined) positive('time-budget', args.timeBudget);
    if (args.seed !== undefined && !Number.isInteger(args.seed)) throw new ConfigError('--seed must be an integer');
    const config = await configFromArgs({ ...args, check: true, watch: false });
    const [{ loadDocument }, { runConformance }, { readCredentials }, { formatReport }] = await Promise.all([
      import('../../conformance/document.js'),
      import('../../conformance/run.js'),
      import('../../conformance/credentials.js'),
      import('../../conformance/report.js'),
    ]);
    const doc = await loadDocument(config);
    const credentials = readCredentials(doc.model.securitySchemes, args.auth.map(String), process.env);
    const seed = args.seed ?? (Math.random() * 2 ** 31) | 0;
    output.err(
      args.allowWrites
        ? `conformance: ${baseUrl}: writes allowed: POST, PUT, PATCH and DELETE requests will change data there (seed ${seed})`
        : `conformance: ${baseUrl}: safe methods only (GET, HEAD, OPTIONS, TRACE); --allow-writes sends the others (seed ${seed})`,
    );
    const line = progressLine(output);
    const result = await runConformance(doc, {
      baseUrl,
      ...(args.operations !== undefined && { operations: list(args.operations) }),
      ...(args.tags !== undefined && { tags: list(args.tags) }),
      seed,
      maxRequests: args.maxRequests,
      ...(args.timeBudget !== undefined && { timeBudgetMs: args.timeBudget * 1000 }),
      allowWrites: args.allowWrites,
      strict: args.strict,
      credentials,
      progress: line.update,
    });
    line.done();
    output.out(formatReport(result, args.report));
    return result.failures.length === 0 ? 0 : 1;
  }),
};

function checkedUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`the base URL must be an absolute http(s) URL, not ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`the base URL must be http or https, not ${url.protocol}`);
  if (url.search !== '' || url.hash !== '') throw new ConfigError('the base URL takes no query or fragment');
  return url.href.replace(/\/+$/, '');
}

function positive(name: string, value: number): void {
  if (!(value > 0)) throw new ConfigError(`--${name} must be a positive number`);
}

function list(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

interface Line {
  update(state: { requests: number; maxRequests: number; operationsDone: number; operations: number; failures: number; current?: string }): void;
  done(): void;
}

/** One line, redrawn on a terminal; on a pipe, a line per finished operation. */
function progressLine(output: Output): Line {
  const tty = process.stderr.isTTY === true && !process.env.CI;
  let lastDone = -1;
  let drawn = false;
  return {
    update(state) {
      const text = `conformance: ${state.requests}/${state.maxRequests} requests, ${state.operationsDone}/${state.operations} operations, ${state.failures} failures${state.current === undefined ? '' : ` (${state.current})`}`;
      if (tty) {
        process.stderr.write(`\r\x1b[2K${text.slice(0, (process.stderr.columns ?? 100) - 1)}`);
        drawn = true;
      } else if (state.operationsDone !== lastDone) {
        lastDone = state.operationsDone;
        output.err(text);
      }
    },
    done() {
      if (drawn) process.stderr.write('\r\x1b[2K');
    },
  };
}
