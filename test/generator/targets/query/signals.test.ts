/**
 * `joinSignals` of the query runtime: the request's signal when the caller
 * gives one besides TanStack Query's, through `AbortSignal.any` where the
 * platform has it and through listeners where it does not (Node 18), run
 * here by taking `AbortSignal.any` away for the test.
 */
import { getEventListeners } from 'node:events';
import type { DataTag } from '@tanstack/query-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { joinSignals, operationQueryOptions } from '../../../../runtime/query-runtime/index.js';

const platformAny = AbortSignal.any;
const key = ['op', {}] as unknown as DataTag<readonly ['op', {}], string, Error>;

function withoutAny(): void {
  Reflect.deleteProperty(AbortSignal, 'any');
  expect(typeof AbortSignal.any).toBe('undefined');
}

afterEach(() => {
  Object.defineProperty(AbortSignal, 'any', { value: platformAny, writable: true, configurable: true, enumerable: true });
  vi.restoreAllMocks();
});

const paths: [string, () => void][] = [
  ['with AbortSignal.any', () => {}],
  ['without AbortSignal.any', withoutAny],
];

describe.each(paths)('joinSignals %s', (_, setUp) => {
  it("is TanStack Query's signal alone when the caller gives none, or the same one", () => {
    setUp();
    const theirs = new AbortController().signal;
    expect(joinSignals(undefined, theirs).signal).toBe(theirs);
    expect(joinSignals(theirs, theirs).signal).toBe(theirs);
  });

  it.each(['mine', 'theirs'] as const)('aborts when %s aborts, with its reason', (which) => {
    setUp();
    const mine = new AbortController();
    const theirs = new AbortController();
    const joined = joinSignals(mine.signal, theirs.signal);
    expect(joined.signal.aborted).toBe(false);
    const reason = new Error(`${which} gave up`);
    (which === 'mine' ? mine : theirs).abort(reason);
    expect(joined.signal.aborted).toBe(true);
    expect(joined.signal.reason).toBe(reason);
    // The other one aborting later changes nothing.
    (which === 'mine' ? theirs : mine).abort(new Error('later'));
    expect(joined.signal.reason).toBe(reason);
  });

  it('is aborted from the start when a signal already is', () => {
    setUp();
    const mine = new AbortController();
    mine.abort('before');
    const joined = joinSignals(mine.signal, new AbortController().signal);
    expect(joined.signal.aborted).toBe(true);
    expect(joined.signal.reason).toBe('before');
  });
});

describe('which way signals are joined', () => {
  it('calls AbortSignal.any where the platform has it', () => {
    const any = vi.spyOn(AbortSignal, 'any');
    joinSignals(new AbortController().signal, new AbortController().signal);
    expect(any).toHaveBeenCalledTimes(1);
  });

  it('without it, listens on both signals until released, and leaves none behind', () => {
    withoutAny();
    const mine = new AbortController();
    const theirs = new AbortController();
    const joined = joinSignals(mine.signal, theirs.signal);
    expect(getEventListeners(mine.signal, 'abort')).toHaveLength(1);
    expect(getEventListeners(theirs.signal, 'abort')).toHaveLength(1);
    joined.release();
    expect(getEventListeners(mine.signal, 'abort')).toHaveLength(0);
    expect(getEventListeners(theirs.signal, 'abort')).toHaveLength(0);
    mine.abort();
    expect(joined.signal.aborted).toBe(false);
  });

  it("without it, a query function's settled request leaves no listener on the caller's signal", async () => {
    withoutAny();
    const mine = new AbortController();
    const seen: AbortSignal[] = [];
    const options = operationQueryOptions(key, { signal: mine.signal }, async (o: { signal?: AbortSignal }) => {
      seen.push(o.signal!);
      expect(getEventListeners(mine.signal, 'abort')).toHaveLength(1);
      return 'done';
    });
    const theirs = new AbortController();
    await expect(options.queryFn({ signal: theirs.signal } as never)).resolves.toBe('done');
    expect(seen[0]).not.toBe(mine.signal);
    expect(getEventListeners(mine.signal, 'abort')).toHaveLength(0);
    await expect(
      operationQueryOptions(key, { signal: mine.signal }, async () => {
        throw new Error('failed');
      }).queryFn({ signal: theirs.signal } as never),
    ).rejects.toThrow('failed');
    expect(getEventListeners(mine.signal, 'abort')).toHaveLength(0);
  });
});
