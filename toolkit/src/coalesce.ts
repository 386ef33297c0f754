export interface CoalesceOptions {
  /**
   * Schedules the start of a run that no caller is waiting behind yet (e.g. `setImmediate`). Every
   * caller until then shares that run: for a cheap synchronous read, one run per turn of the event
   * loop instead of one per caller. Without it such a run starts at once, inside the first call.
   */
  defer?: (start: () => void) => void;
}

/**
 * Shares one run of `run` among callers, strictly: every caller gets the outcome of a run that
 * STARTED after it called, never of one already under way (which might have read the data before a
 * write that this caller already saw). A caller arriving while a run is under way waits for the next
 * run, which starts as soon as that one settles and is shared by everyone who arrived meanwhile: under
 * load, one run per run-time, however many callers. A run that fails rejects each of its callers.
 *
 * The returned promise of a run that started for a caller is the run's own promise, so by the time any
 * caller resumes the run is no longer "under way": a caller arriving then starts the next run at once.
 */
export function coalesce<T>(run: () => T | PromiseLike<T>, options: CoalesceOptions = {}): () => Promise<T> {
  const { defer } = options;
  /** The run started and not yet settled. */
  let running: Promise<T> | undefined;
  /** Callers waiting for a run that has not started yet. */
  let waiting: { promise: Promise<T>; resolve: (run: Promise<T>) => void } | undefined;

  const start = (): Promise<T> => {
    let result: Promise<T>;
    try {
      result = Promise.resolve(run());
    } catch (err) {
      result = Promise.reject(err);
    }
    running = result;
    // Registered before any caller's handler: the run is over for everyone who sees its outcome.
    const settled = () => {
      if (running === result) running = undefined;
      startWaiting();
    };
    result.then(settled, settled);
    return result;
  };

  const startWaiting = () => {
    const next = waiting;
    if (!next || running) return;
    waiting = undefined;
    next.resolve(start());
  };

  return () => {
    if (waiting) return waiting.promise;
    if (!running && !defer) return start();
    let resolve!: (run: Promise<T>) => void;
    const promise = new Promise<T>((r) => (resolve = r));
    waiting = { promise, resolve };
    // Under way: the settling run starts this one. Otherwise it starts when the scheduler says.
    if (!running) defer!(startWaiting);
    return promise;
  };
}
