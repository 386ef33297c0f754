/**
 * Loads shared by key while they are under way: a caller asking for a key whose load is running gets
 * that load; once it settles, the next caller starts a new one. Nothing is kept after that (keep
 * results in a cache of their own, e.g. lru-cache).
 *
 * Unlike `coalesce`, a caller may get a load that started BEFORE it asked. So use it only where the
 * answer cannot be older than what the caller may already know: content-addressed data (an image by
 * its hash), or a key that names the version it is loaded under (a cache generation read after the
 * caller arrived: equal generations mean nothing changed in between).
 */
export class InFlight<K, V> {
  readonly #loads = new Map<K, Promise<V>>();

  /** The load under way for key, or a new one started with load(). */
  run(key: K, load: () => V | PromiseLike<V>): Promise<V> {
    const pending = this.#loads.get(key);
    if (pending) return pending;
    let promise: Promise<V>;
    try {
      promise = Promise.resolve(load());
    } catch (err) {
      promise = Promise.reject(err);
    }
    this.#loads.set(key, promise);
    // Registered before any caller's handler: a caller that resumes and asks again starts a new load.
    const forget = () => {
      if (this.#loads.get(key) === promise) this.#loads.delete(key);
    };
    promise.then(forget, forget);
    return promise;
  }

  /** A load for key is under way. */
  has(key: K): boolean {
    return this.#loads.has(key);
  }

  /** How many loads are under way. */
  get size(): number {
    return this.#loads.size;
  }
}
