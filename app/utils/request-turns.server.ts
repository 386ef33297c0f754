/**
 * The request slots of the web server (server/request-limits.ts; decisions 026, 031): at most maxActive requests inside Remix at once,
 * and at most perClient of them from one client address. A free slot goes to the waiting address that
 * holds fewest, round-robin among equals (in arrival order within one address), so a client sending
 * hundreds of requests at once holds its share of the slots and waits behind itself, while everyone
 * else's requests keep moving.
 */
export interface RequestTurns {
  /**
   * A slot for a request of this client: true at once, or a promise of true when its turn comes, or of
   * false when `abandoned` fires first (the client went away: it never held a slot). Each true is
   * followed by exactly one `leave(client)`.
   */
  enter(client: string, abandoned?: AbortSignal): true | Promise<boolean>;
  leave(client: string): void;
  stats(): { active: number; waiting: number; clients: number };
}

export function defaultPerClient(maxActive: number): number {
  return Math.max(1, Math.floor(maxActive / 4));
}

export function createRequestTurns(maxActive: number, perClient = defaultPerClient(maxActive)): RequestTurns {
  let active = 0;
  let waitingCount = 0;
  const activeBy = new Map<string, number>();
  /** Waiting requests by client; the map's order is the round-robin order (a client served goes last). */
  const waiting = new Map<string, Array<(granted: boolean) => void>>();

  const held = (client: string) => activeBy.get(client) ?? 0;
  const take = (client: string) => {
    active++;
    activeBy.set(client, held(client) + 1);
  };

  /**
   * Hands free slots to waiting clients under their share: the one holding fewest slots first, in
   * round-robin order among equals. The scan stops at the first client holding none, so it passes at
   * most the clients that hold slots (≤ maxActive), however many are waiting.
   */
  function dispatch() {
    while (active < maxActive) {
      let chosen: string | undefined;
      let fewest = perClient;
      for (const client of waiting.keys()) {
        const count = held(client);
        if (count < fewest) {
          chosen = client;
          fewest = count;
          if (count === 0) break;
        }
      }
      if (chosen === undefined) return;
      const queue = waiting.get(chosen)!;
      const next = queue.shift()!;
      waitingCount--;
      waiting.delete(chosen);
      if (queue.length) waiting.set(chosen, queue);
      take(chosen);
      next(true);
    }
  }

  return {
    enter(client, abandoned) {
      if (active < maxActive && held(client) < perClient && !waiting.has(client)) {
        take(client);
        return true;
      }
      if (abandoned?.aborted) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => {
        const onAbandon = () => {
          const queue = waiting.get(client);
          const index = queue?.indexOf(granted) ?? -1;
          if (index < 0) return;
          queue!.splice(index, 1);
          waitingCount--;
          if (queue!.length === 0) waiting.delete(client);
          resolve(false);
        };
        const granted = (ok: boolean) => {
          abandoned?.removeEventListener('abort', onAbandon);
          resolve(ok);
        };
        abandoned?.addEventListener('abort', onAbandon, { once: true });
        const queue = waiting.get(client);
        if (queue) queue.push(granted);
        else waiting.set(client, [granted]);
        waitingCount++;
      });
    },
    leave(client) {
      const count = held(client) - 1;
      if (count > 0) activeBy.set(client, count);
      else activeBy.delete(client);
      active--;
      dispatch();
    },
    stats: () => ({ active, waiting: waitingCount, clients: activeBy.size }),
  };
}
