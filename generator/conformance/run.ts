/**
 * A conformance run: for each selected operation, positive, negative and
 * unauthenticated requests from fast-check properties, every answer checked;
 * a failing property is shrunk by fast-check to a minimal request (the
 * property then fails only on the rule it first failed on), reported once
 * per operation and rule; then the document's `links` are followed with the
 * values earlier answers gave.
 */
import fc from 'fast-check';
import type { Operation, SecuritySchemeModel } from '../model/types.js';
import { CaseArbitraries, classify, type Case, type CaseKind } from './cases.js';
import { checkAnswer, type Answer, type CheckContext, type Finding, type Rule } from './checks.js';
import { placement, usableAlternative, type Credentials } from './credentials.js';
import { curlCommand } from './curl.js';
import type { ConformanceDocument } from './document.js';
import { evaluate, readLinks, type Link } from './links.js';
import { Locator, formatPlace } from './locate.js';
import { ValueArbitraries } from './values.js';
import { operationSpec, wireRequest, type OperationSpec, type WireRequest } from './wire.js';

export const SAFE_METHODS = new Set(['get', 'head', 'options', 'trace']);

export interface RunOptions {
  /** Scheme, host, optional port and path prefix; the operation's base path is added unless the URL ends with it. */
  baseUrl: string;
  /** operationIds to test (default: all). */
  operations?: string[];
  tags?: string[];
  seed: number;
  maxRequests: number;
  /** Milliseconds; no new request starts after it. */
  timeBudgetMs?: number;
  allowWrites: boolean;
  /** Report properties the response schemas do not list. */
  strict: boolean;
  credentials: Credentials;
  /** Requests fast-check may send while shrinking one failure. */
  maxShrinkRequests?: number;
  /** Milliseconds one request may take. */
  requestTimeoutMs?: number;
  /** The transport (the bench measures the run without the network). */
  fetch?: (request: WireRequest) => Promise<Answer>;
  progress?: (state: Progress) => void;
}

export interface Progress {
  requests: number;
  maxRequests: number;
  operationsDone: number;
  operations: number;
  failures: number;
  current?: string;
}

export interface Failure {
  operationId: string;
  method: string;
  rule: Rule;
  /** JSON path of the offending value, `status`, `header <name>` or `parameter <name>`. */
  path: string;
  message: string;
  /** What the document says. */
  expected: string;
  /** `file:line` of the document where it says so. */
  specLocation: string;
  curl: string;
  kind: CaseKind;
  status: number;
  /** The link followed to reach this request, when one was. */
  via?: string;
  /** A negative case: the constraint broken. */
  broken?: string;
}

export interface Summary {
  seed: number;
  baseUrl: string;
  requests: number;
  operations: number;
  operationsTested: string[];
  /** Operations left out, each with the reason. */
  skipped: { operationId: string; reason: string }[];
  linksFollowed: number;
  failures: number;
  byRule: Record<string, number>;
  durationMs: number;
  /** Why the run stopped early, if it did. */
  stoppedBy?: 'max-requests' | 'time-budget';
  notes: string[];
}

export interface RunResult {
  failures: Failure[];
  summary: Summary;
}

/** The URL an operation's paths hang from: the given one, plus the base path unless it already ends with it. */
export function rootFor(baseUrl: string, operation: Operation): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return operation.basePath !== '' && trimmed.endsWith(operation.basePath) ? trimmed.slice(0, -operation.basePath.length) : trimmed;
}

export async function runConformance(doc: ConformanceDocument, options: RunOptions): Promise<RunResult> {
  return new Run(doc, options).run();
}

class Run {
  private readonly started = performance.now();
  private readonly locator: Locator;
  private readonly cases: CaseArbitraries;
  private readonly ctx: CheckContext;
  private readonly failures: Failure[] = [];
  private readonly found = new Map<string, Set<Rule>>();
  private readonly specs = new Map<Operation, OperationSpec>();
  private readonly linkSeeds = new Map<Link, Record<string, unknown>[]>();
  private readonly notes: string[] = [];
  private readonly send: (request: WireRequest) => Promise<Answer>;
  private requests = 0;
  private operationsDone = 0;
  private selected: Operation[] = [];
  private stoppedBy: Summary['stoppedBy'];

  constructor(
    private readonly doc: ConformanceDocument,
    private readonly options: RunOptions,
  ) {
    this.locator = new Locator(doc.document, doc.sources);
    this.cases = new CaseArbitraries(new ValueArbitraries(doc.model));
    this.ctx = { model: doc.model, validators: doc.validators, locator: this.locator, strict: options.strict };
    this.send = options.fetch ?? ((request) => httpSend(request, options.requestTimeoutMs ?? 10_000));
  }

  async run(): Promise<RunResult> {
    const { model } = this.doc;
    const skipped: Summary['skipped'] = [];
    const wanted = model.operations.filter(
      (operation) =>
        (this.options.operations === undefined || this.options.operations.includes(operation.id)) &&
        (this.options.tags === undefined || operation.tags.some((tag) => this.options.tags!.includes(tag))),
    );
    for (const name of this.options.operations ?? []) if (!model.operations.some((operation) => operation.id === name)) this.notes.push(`no operation \`${name}\` in the document`);
    for (const operation of wanted) {
      if (!this.options.allowWrites && !SAFE_METHODS.has(operation.method)) skipped.push({ operationId: operation.id, reason: `${operation.method.toUpperCase()} changes data: --allow-writes sends it` });
      else this.selected.push(operation);
    }
    const links = readLinks(this.doc.document, this.selected).filter((link) => this.selected.includes(link.to));
    const perOperation = Math.max(3, Math.floor(this.options.maxRequests / Math.max(1, this.selected.length + links.length / 2)));
    for (const operation of this.selected) {
      if (this.exhausted()) break;
      await this.operation(operation, perOperation, links.filter((link) => link.from === operation));
      this.operationsDone += 1;
      this.report();
    }
    let linksFollowed = 0;
    for (const link of links) {
      for (const fixed of this.linkSeeds.get(link) ?? []) {
        if (this.exhausted()) break;
        linksFollowed += 1;
        await this.follow(link, fixed, Math.max(2, Math.floor(perOperation / 4)));
      }
    }
    const byRule: Record<string, number> = {};
    for (const failure of this.failures) byRule[failure.rule] = (byRule[failure.rule] ?? 0) + 1;
    return {
      failures: this.failures,
      summary: {
        seed: this.options.seed,
        baseUrl: this.options.baseUrl,
        requests: this.requests,
        operations: this.selected.length,
        operationsTested: this.selected.map((operation) => operation.id),
        skipped,
        linksFollowed,
        failures: this.failures.length,
        byRule,
        durationMs: Math.round(performance.now() - this.started),
        ...(this.stoppedBy !== undefined && { stoppedBy: this.stoppedBy }),
        notes: this.notes,
      },
    };
  }

  private spec(operation: Operation): OperationSpec {
    let spec = this.specs.get(operation);
    if (spec === undefined) this.specs.set(operation, (spec = operationSpec(operation)));
    return spec;
  }

  private exhausted(): boolean {
    if (this.requests >= this.options.maxRequests) {
      this.stoppedBy ??= 'max-requests';
      return true;
    }
    if (this.options.timeBudgetMs !== undefined && performance.now() - this.started >= this.options.timeBudgetMs) {
      this.stoppedBy ??= 'time-budget';
      return true;
    }
    return false;
  }

  private report(current?: string): void {
    this.options.progress?.({
      requests: this.requests,
      maxRequests: this.options.maxRequests,
      operationsDone: this.operationsDone,
      operations: this.selected.length,
      failures: this.failures.length,
      ...(current !== undefined && { current }),
    });
  }

  private async operation(operation: Operation, budget: number, links: Link[]): Promise<void> {
    this.report(operation.id);
    const spec = this.spec(operation);
    const authenticated = !operation.auth || usableAlternative(operation, this.options.credentials) !== undefined;
    const unauthenticatedRuns = operation.auth ? Math.min(3, Math.max(1, Math.floor(budget / 8))) : 0;
    const rest = budget - unauthenticatedRuns;
    const positiveRuns = Math.max(1, Math.ceil(rest * 0.55));
    const negativeRuns = Math.max(1, rest - positiveRuns);
    const positive = this.cases.positive(operation).map((values): Case => ({ kind: 'positive', values }));
    const examples = this.cases.examples(operation).map((values): [Case] => [{ kind: 'positive', values }]);
    if (authenticated) {
      await this.explore(operation, 'positive', positive, positiveRuns, examples, links);
      const negative = this.cases.negative(operation, spec);
      if (negative !== undefined) await this.explore(operation, 'negative', negative, negativeRuns, []);
    } else {
      this.notes.push(`${operation.id}: no credentials for ${operation.security.map((alternative) => alternative.join(' + ')).join(' or ')} (--auth <scheme>=<value>): only unauthenticated requests sent`);
    }
    if (unauthenticatedRuns > 0) {
      const unauthenticated = positive.map((c): Case => ({ ...c, kind: 'unauthenticated' }));
      await this.explore(operation, 'unauthenticated', unauthenticated, unauthenticatedRuns, examples.map(([c]) => [{ ...c, kind: 'unauthenticated' }]));
    }
  }

  /** Requests to the target of a link, its parameters fixed by an earlier answer. */
  private async follow(link: Link, fixed: Record<string, unknown>, runs: number): Promise<void> {
    const positive = this.cases.positive(link.to).map((values): Case => ({ kind: 'positive', values: { ...values, ...fixed } }));
    await this.explore(link.to, 'positive', positive, runs, [[{ kind: 'positive', values: fixed }]], [], `${link.from.id} -> ${link.to.id} (link \`${link.name}\`)`);
  }

  /**
   * One property over `arbitrary`, run until it holds or a failure is found
   * and shrunk; repeated, excluding the rules already reported for the
   * operation, until it holds or the budget is spent.
   */
  private async explore(operation: Operation, kind: CaseKind, arbitrary: fc.Arbitrary<Case>, runs: number, examples: [Case][], links: Link[] = [], via?: string): Promise<void> {
    const found = this.found.get(operation.id) ?? new Set<Rule>();
    this.found.set(operation.id, found);
    let spent = 0;
    for (let round = 0; round < 4 && spent < runs && !this.exhausted(); round += 1) {
      let target: Rule | undefined;
      let last: { request: WireRequest; finding: Finding; status: number; case: Case } | undefined;
      let shrinkRequests = 0;
      const property = fc.asyncProperty(arbitrary, async (c) => {
        if (target !== undefined && ++shrinkRequests > (this.options.maxShrinkRequests ?? 40)) return true;
        if (target === undefined && (spent >= runs || this.exhausted())) return true;
        const request = await wireRequest(rootFor(this.options.baseUrl, operation), operation, c.spec ?? this.spec(operation), c.values);
        const verdict = await classify(this.doc.validators, operation, request);
        // Only requests the document itself calls valid (or, for a negative case, invalid) count.
        fc.pre(kind === 'negative' ? !verdict.ok : verdict.ok);
        if (target === undefined) spent += 1;
        const sent = kind === 'unauthenticated' ? request : this.withCredentials(operation, request);
        const answer = await this.exchange(sent);
        this.report(operation.id);
        const findings =
          answer === undefined
            ? [{ rule: 'request-failed' as const, path: 'status', message: 'no answer', expected: 'an answer', place: operation.source }]
            : checkAnswer(this.ctx, operation, c, answer).filter((finding) => !found.has(finding.rule));
        if (answer !== undefined && kind === 'positive' && answer.status >= 200 && answer.status < 300) this.seedLinks(links, operation, c, answer);
        const relevant = target === undefined ? findings : findings.filter((finding) => finding.rule === target);
        if (relevant.length === 0) return true;
        target ??= relevant[0]!.rule;
        last = { request, finding: relevant[0]!, status: answer?.status ?? 0, case: c };
        return false;
      });
      const seed = (this.options.seed ^ hash(`${operation.id}:${kind}:${round}:${via ?? ''}`)) | 0;
      const result = await fc.check(property, { seed, numRuns: runs * 4, examples: round === 0 ? examples : [], maxSkipsPerRun: 20 });
      if (!result.failed) return;
      if (last === undefined || target === undefined) {
        this.notes.push(`${operation.id}: too few ${kind} requests the document accepts as such were generated (${result.numSkips} left out)`);
        return;
      }
      found.add(target);
      this.record(operation, kind, last, via);
    }
  }

  private record(operation: Operation, kind: CaseKind, last: { request: WireRequest; finding: Finding; status: number; case: Case }, via: string | undefined): void {
    const schemes = kind === 'unauthenticated' ? [] : this.schemesOf(operation);
    const { finding } = last;
    this.failures.push({
      operationId: operation.id,
      method: `${operation.method.toUpperCase()} ${operation.basePath}${operation.path}`,
      rule: finding.rule,
      path: finding.path,
      message: finding.message,
      expected: finding.expected,
      specLocation: formatPlace(finding.place),
      curl: curlCommand(last.request, schemes),
      kind,
      status: last.status,
      ...(via !== undefined && { via }),
      ...(last.case.broken !== undefined && { broken: last.case.broken.description }),
    });
    this.report(operation.id);
  }

  private seedLinks(links: Link[], operation: Operation, c: Case, answer: Answer): void {
    if (links.length === 0) return;
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      body = undefined;
    }
    for (const link of links) {
      if (link.status !== String(answer.status) && link.status !== `${String(answer.status).charAt(0)}XX` && link.status !== 'default') continue;
      const seeds = this.linkSeeds.get(link) ?? [];
      if (seeds.length >= 2) continue;
      const fixed: Record<string, unknown> = {};
      for (const { parameter, expression } of link.parameters) fixed[parameter.key ?? parameter.name] = evaluate(expression, { values: c.values, operation, status: answer.status, headers: answer.headers, body });
      // An answer without what the link reads (a direct message has no channel) feeds nothing.
      if (Object.values(fixed).includes(undefined)) continue;
      const key = JSON.stringify(fixed);
      if (!seeds.some((seed) => JSON.stringify(seed) === key)) seeds.push(fixed);
      this.linkSeeds.set(link, seeds);
    }
  }

  private schemesOf(operation: Operation): SecuritySchemeModel[] {
    const alternative = usableAlternative(operation, this.options.credentials) ?? [];
    return alternative.flatMap((name) => this.doc.model.securitySchemes.filter((scheme) => scheme.name === name));
  }

  private withCredentials(operation: Operation, request: WireRequest): WireRequest {
    const schemes = this.schemesOf(operation);
    if (schemes.length === 0) return request;
    const headers = { ...request.headers };
    let url = request.url;
    for (const scheme of schemes) {
      const placed = placement(scheme, this.options.credentials.values.get(scheme.name)!);
      if (placed === undefined) continue;
      if (placed.kind === 'header') headers[placed.name] = placed.value;
      else if (placed.kind === 'cookie') headers['Cookie'] = [headers['Cookie'], `${encodeURIComponent(placed.name)}=${encodeURIComponent(placed.value)}`].filter(Boolean).join('; ');
      else url += `${url.includes('?') ? '&' : '?'}${encodeURIComponent(placed.name)}=${encodeURIComponent(placed.value)}`;
    }
    return { ...request, url, headers };
  }

  private async exchange(request: WireRequest): Promise<Answer | undefined> {
    this.requests += 1;
    try {
      return await this.send(request);
    } catch {
      return undefined;
    }
  }
}

/** One request over HTTP, redirects not followed (a run talks to the given URL only). */
async function httpSend(request: WireRequest, timeoutMs: number): Promise<Answer> {
  const response = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    ...(request.body !== undefined && { body: request.body }),
    redirect: 'manual',
    signal: AbortSignal.timeout(timeoutMs),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** FNV-1a, for per-property seeds derived from the run's seed. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
