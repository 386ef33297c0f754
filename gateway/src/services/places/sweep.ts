import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/index.js';
import { tournamentsWithOverdue } from '../../db/places.js';
import { isoAt, type Clock } from '../../lib/clock.js';
import { settleTournament } from './settle.js';

/**
 * The deadline sweep (decision 043): releases every overdue team and promotes waitlisted teams into the
 * freed places, one transaction per tournament, the tournament locked. Safe to run in several processes
 * at once: inside the lock the overdue teams are read again, so a team is released once. Returns how
 * many teams were released. Also called lazily, for the tournaments a read is about (ids).
 */
export async function sweepDeadlines(store: DatabaseHandle, nowMs: number, ids?: readonly number[]): Promise<number> {
  let released = 0;
  for (const tournamentId of await tournamentsWithOverdue(store.db, isoAt(nowMs), ids)) {
    released += await store.writeTransaction(async (trx) => {
      await store.lockTournament(trx, tournamentId);
      return (await settleTournament(trx, tournamentId, nowMs)).released;
    });
  }
  return released;
}

/**
 * The app starts one sweeper (buildApp) and stops it when it closes: it runs sweepDeadlines at the
 * clock's time every intervalMs, never two at once in this process; stop() ends it and waits for a
 * sweep under way.
 */
export function startDeadlineSweeper(store: DatabaseHandle, clock: Clock, intervalMs: number, log: FastifyBaseLogger) {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = sweepDeadlines(store, clock.now())
      .catch((err) => log.warn({ err }, 'payment deadline sweep failed'))
      .finally(() => (running = undefined));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
