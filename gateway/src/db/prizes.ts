import type { Trx } from './types.js';

/** Decision 084: a tournament's prize table. */

/** The table's lines in order; a special prize with the team it was awarded to (decision 085), if any. */
export async function prizeRows(db: Trx, tournamentId: number) {
  const rows = await db
    .selectFrom('prizes as p')
    .leftJoin('prize_awards as a', (join) => join.onRef('a.tournament_id', '=', 'p.tournament_id').onRef('a.label', '=', 'p.label'))
    .leftJoin('registrations as r', 'r.id', 'a.registration_id')
    .select(['p.rank', 'p.label', 'p.amount_paise', 'a.registration_id', 'r.team_name'])
    .where('p.tournament_id', '=', tournamentId)
    .orderBy('p.sort')
    .execute();
  return rows.map((r) => ({
    rank: r.rank == null ? null : Number(r.rank),
    label: r.label,
    amountPaise: Number(r.amount_paise),
    // Awards are named by a special prize's label; a rank's line (label '') has none.
    awardedTo: r.rank == null && r.registration_id != null ? Number(r.registration_id) : null,
    winner: r.rank == null ? (r.team_name ?? null) : null,
  }));
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
