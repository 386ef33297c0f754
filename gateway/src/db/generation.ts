import { sql } from 'kysely';
import type { Trx } from './types.js';

/**
 * The cache generation (decision 023): `${epoch}.${sum of the shard counters}`. Every write that
 * can change a public answer bumps one shard inside its own transaction, so a generation read that
 * starts after the write committed differs from every one read before it.
 */
export const GENERATION_SHARDS = 16;

/** The shard a tournament's writes bump: writes to one tournament already queue on its row lock, others need not queue on one counter. */
export const generationShard = (tournamentId?: number) => (tournamentId === undefined ? 0 : Math.abs(tournamentId) % GENERATION_SHARDS);

/**
 * Call inside the write transaction, last (on PostgreSQL the row stays locked until commit). The
 * tournament whose answers the write changes; none for a write that can change any of them.
 */
export async function bumpGeneration(trx: Trx, tournamentId?: number): Promise<void> {
  bumpedIn.add(trx);
  if (tournamentId === undefined) await sql`update cache_generation set value = value + 1`.execute(trx);
  else await sql`update cache_generation set value = value + 1 where shard = ${generationShard(tournamentId)}`.execute(trx);
}

/** Transactions that bumped the generation: on PostgreSQL their answer waits out the lease (below). */
export const bumpedIn = new WeakSet<object>();

/**
 * PostgreSQL: how long one generation read stands for every request of this process. A request
 * may be answered from a read that STARTED at most this long before the request was taken up; in
 * exchange a write that bumped the generation sends its answer only this long after its commit.
 * So a request that arrives after a write's answer was sent (by any process) is answered from a read
 * started after that commit: as strict as a read per request, at one read per lease per process.
 */
export const GENERATION_LEASE_MS = 20;

export const GENERATION_SQL = 'select shard, value, epoch from cache_generation';

/** One reading of the counters. */
export class Generation {
  /** The whole generation: changes with every bump. */
  readonly value: string;
  readonly #shards: string[];

  constructor(rows: readonly { shard: number | string; value: number | string | bigint; epoch: string }[]) {
    const shards = new Array<string>(GENERATION_SHARDS).fill('0');
    let sum = 0;
    let epoch = '';
    for (const row of rows) {
      shards[Number(row.shard)] = String(row.value);
      sum += Number(row.value);
      epoch = row.epoch;
    }
    this.value = `${epoch}.${sum}`;
    this.#shards = shards.map((v, i) => `${epoch}.${i}.${v}`);
  }

  /** Changes with every bump that names this tournament (and with every bump that names none). */
  of(tournamentId: number): string {
    return this.#shards[generationShard(tournamentId)]!;
  }
}
