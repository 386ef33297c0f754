import type { Trx } from './types.js';

/** Decision 084: a tournament's prize table. */

export async function prizeRows(db: Trx, tournamentId: number) {
  const rows = await db
    .selectFrom('prizes')
    .select(['rank', 'label', 'amount_paise'])
    .where('tournament_id', '=', tournamentId)
    .orderBy('sort')
    .execute();
  return rows.map((r) => ({ rank: r.rank == null ? null : Number(r.rank), label: r.label, amountPaise: Number(r.amount_paise) }));
}

/** Replaces the table: ranks first (by rank), then the special prizes in the organiser's order. */
export async function replacePrizes(
  trx: Trx,
  tournamentId: number,
  lines: readonly { rank: number | null; label: string; amountPaise: number }[],
): Promise<void> {
  await trx.deleteFrom('prizes').where('tournament_id', '=', tournamentId).execute();
  if (lines.length === 0) return;
  await trx
    .insertInto('prizes')
    .values(lines.map((l, sort) => ({ tournament_id: tournamentId, rank: l.rank, label: l.label, amount_paise: l.amountPaise, sort })))
    .execute();
}
