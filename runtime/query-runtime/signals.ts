/** A caller's abort signal joined with the one TanStack Query gives a query function. */

/** A signal of a request, and what to call once the request has settled. */
export interface JoinedSignal {
  signal: AbortSignal;
  release(): void;
}

/**
 * A signal that aborts when either does, with the reason of the first to
 * abort; needed only when the caller gives a signal too. `AbortSignal.any`
 * where the platform has it (Node 20.3, browsers since 2024); elsewhere
 * (Node 18, older browsers) a controller that listeners on both signals
 * abort, listeners that `release` removes, so that a long-lived signal of
 * the caller does not keep one per query it was given to.
 */
export function joinSignals(mine: AbortSignal | undefined, theirs: AbortSignal): JoinedSignal {
  if (mine === undefined || mine === theirs) return { signal: theirs, release: nothing };
  if (typeof AbortSignal.any === 'function') return { signal: AbortSignal.any([mine, theirs]), release: nothing };
  const controller = new AbortController();
  const signals = [mine, theirs];
  const release = (): void => signals.forEach((signal) => signal.removeEventListener('abort', abort));
  const abort = (event: Event): void => {
    release();
    controller.abort((event.target as AbortSignal).reason);
  };
  const first = signals.find((signal) => signal.aborted);
  if (first !== undefined) controller.abort(first.reason);
  else signals.forEach((signal) => signal.addEventListener('abort', abort));
  return { signal: controller.signal, release };
}

function nothing(): void {}
