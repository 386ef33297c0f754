import type { RequestTurnsApi, SessionLike } from './build.js';

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

/**
 * Whose share of the slots a request takes (decision 086): a signed-in request's account (its token verified),
 * else its client address. Indian mobile carriers put many players behind one public address: per address,
 * a room minute's crowd would queue as one client; per account, each player is one, while an anonymous
 * flood from one address is still held to that address's share.
 */
export function slotClient(session: SessionLike, address: string | undefined): string {
  return session.user ? `account:${session.user.id}` : `address:${address ?? ''}`;
}
