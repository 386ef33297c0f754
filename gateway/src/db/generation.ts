import { sql } from 'kysely';
import type { Trx } from './index.js';

/**
 * The cache generation (decision 023): `${epoch}.${sum of the shard counters}`. Every write that
 * can change a public answer bumps one shard inside its own transaction, so a generation read that
 * starts after the write committed differs from every one read before it.
 */
export const GENERATION_SHARDS = 16;

/** The shard a tournament's writes bump: writes to one tournament already queue on its row lock, others need not queue on one counter. */
export const generationShard = (tournamentId?: number) => (tournamentId === undefined ? 0 : Math.abs(tournamentId) % GENERATION_SHARDS);

/** Call inside the write transaction, last (on PostgreSQL the row stays locked until commit). */
export async function bumpGeneration(trx: Trx, tournamentId?: number): Promise<void> {
  await sql`update cache_generation set value = value + 1 where shard = ${generationShard(tournamentId)}`.execute(trx);
}

export const GENERATION_SQL = 'select min(epoch) as epoch, sum(value) as value from cache_generation';

export const formatGeneration = (epoch: unknown, value: unknown) => `${String(epoch)}.${String(value ?? 0)}`;

/**
 * Shares one run of `query` among callers, strictly: a caller gets the result of a run that
 * STARTED after it called, never of one already under way. Callers arriving while a run is under
 * way all wait for the next one, so under load it is one round trip per batch of callers.
 */
export function coalesce<T>(query: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  let queued: Promise<T> | undefined;
  const start = () => {
    const run = query();
    running = run;
    const done = () => {
      if (running === run) running = undefined;
    };
    run.then(done, done);
    return run;
  };
  return () => {
    if (queued) return queued;
    if (!running) return start();
    const after = running;
    queued = after.then(
      () => undefined,
      () => undefined,
    ).then(() => {
      queued = undefined;
      return start();
    });
    return queued;
  };
}
