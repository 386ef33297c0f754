import type { RequestTurnsApi } from './build.js';

/**
 * At most maxActive requests inside Remix at once; the others wait their turn. A crowd arriving
 * together (a registration rush, decision 026) was otherwise interleaved stage by stage, so the first
 * to arrive were answered only when the last had been read. One client address holds at most
 * perClient of the slots, and waiting requests are served round-robin between addresses, in arrival
 * order within one (decision 031; the turns themselves are app/utils/request-turns.server.ts):
 * a client sending hundreds at once waits behind itself, not everyone.
 */
export interface RequestSlots {
  /** fn's answer once a slot was free; undefined if the client went away while waiting (nobody would read it). */
  run<T>(client: string, abandoned: AbortSignal, fn: () => Promise<T>): Promise<T | undefined>;
}

export function requestSlots(turns: RequestTurnsApi): RequestSlots {
  return {
    async run(client, abandoned, fn) {
      const granted = await turns.enter(client, abandoned);
      if (!granted) return undefined;
      try {
        return await fn();
      } finally {
        turns.leave(client);
      }
    },
  };
}
