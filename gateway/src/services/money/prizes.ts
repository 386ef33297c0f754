import { type PrizeTable, TOURNAMENT_NOT_FOUND } from '@custom-room/contract';
import { bumpGeneration } from '../../db/generation.js';
import { anyPayout, askPanOf, setAskPan } from '../../db/payouts.js';
import { prizeRows, replacePrizes } from '../../db/prizes.js';
import { getTournament } from '../../db/tournaments.js';
import { conflict, notFound } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';
import { lockLiveTournamentOr404 } from '../live-tournament.js';

/** Decision 084: the prize table, an amount per final rank and special prizes (top fragger…), set by the organiser. */

async function tableOf(db: ServiceDeps['store']['db'], tournamentId: number): Promise<PrizeTable> {
  const [rows, askPan] = await Promise.all([prizeRows(db, tournamentId), askPanOf(db, tournamentId)]);
  const ranks = rows.filter((r) => r.rank !== null).map((r) => ({ rank: r.rank!, amountPaise: r.amountPaise }));
  // Decision 085: a special prize names its winner once the organiser has.
  const specials = rows.filter((r) => r.rank === null).map((r) => ({ label: r.label, amountPaise: r.amountPaise, winner: r.winner }));
  return { ranks, specials, totalPaise: rows.reduce((sum, r) => sum + r.amountPaise, 0), askPan };
}

export const PRIZES_LOCKED = 'Prize payouts are recorded: the prize table can no longer change.';

export async function prizesOf({ store }: ServiceDeps, tournamentId: number): Promise<PrizeTable> {
  if (!(await getTournament(store.db, tournamentId))) throw notFound(TOURNAMENT_NOT_FOUND);
  return tableOf(store.db, tournamentId);
}

const paise = (rupees: number) => Math.round(rupees * 100);

export async function setPrizes(
  { store }: ServiceDeps,
  tournamentId: number,
  body: { ranks: { rank: number; amount: number }[]; specials: { label: string; amount: number }[]; askPan?: boolean },
): Promise<PrizeTable> {
  const lines = [
    ...[...body.ranks].sort((a, b) => a.rank - b.rank).map((r) => ({ rank: r.rank, label: '', amountPaise: paise(r.amount) })),
    ...body.specials.map((s) => ({ rank: null, label: s.label, amountPaise: paise(s.amount) })),
  ];
  await store.writeTransaction(async (trx) => {
    await lockLiveTournamentOr404(store, trx, tournamentId);
    if (await anyPayout(trx, tournamentId)) throw conflict(PRIZES_LOCKED);
    await replacePrizes(trx, tournamentId, lines);
    if (body.askPan !== undefined) await setAskPan(trx, tournamentId, body.askPan);
    await bumpGeneration(trx, tournamentId); // the tournament page shows the table
  });
  return tableOf(store.db, tournamentId);
}
