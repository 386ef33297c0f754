import type { Trx } from './types.js';

/** Decision 085: prize payouts: the final standings, the special prizes' winners, where to pay, and what was paid. */

/** The last stage's ranks of its placed teams, when it is completed (null: not completed, or no stages). */
export async function lastStageRanks(db: Trx, tournamentId: number) {
  const last = await db
    .selectFrom('stages')
    .select(['id', 'state'])
    .where('tournament_id', '=', tournamentId)
    .orderBy('ord', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!last || last.state !== 'completed') return null;
  const rows = await db
    .selectFrom('stage_results as sr')
    .innerJoin('registrations as r', 'r.id', 'sr.registration_id')
    .select(['r.id', 'r.team_name', 'sr.stage_rank'])
    .where('sr.stage_id', '=', Number(last.id))
    .where('r.place', '=', 'placed')
    .orderBy('sr.stage_rank')
    .execute();
  return rows.map((r) => ({ registrationId: Number(r.id), teamName: r.team_name, rank: Number(r.stage_rank) }));
}

/** The tournament's placed teams by id (a table without stages lists teams that left too). */
export async function placedTeams(db: Trx, tournamentId: number) {
  const rows = await db
    .selectFrom('registrations')
    .select(['id', 'team_name'])
    .where('tournament_id', '=', tournamentId)
    .where('place', '=', 'placed')
    .orderBy('team_name')
    .execute();
  return rows.map((r) => ({ registrationId: Number(r.id), teamName: r.team_name }));
}

export async function askPanOf(db: Trx, tournamentId: number): Promise<boolean> {
  const row = await db.selectFrom('prize_options').select('ask_pan').where('tournament_id', '=', tournamentId).executeTakeFirst();
  return Number(row?.ask_pan ?? 0) === 1;
}

export async function setAskPan(trx: Trx, tournamentId: number, askPan: boolean): Promise<void> {
  await trx
    .insertInto('prize_options')
    .values({ tournament_id: tournamentId, ask_pan: askPan ? 1 : 0 })
    .onConflict((oc) => oc.column('tournament_id').doUpdateSet({ ask_pan: askPan ? 1 : 0 }))
    .execute();
}

export async function replaceAwards(trx: Trx, tournamentId: number, awards: readonly { label: string; registrationId: number }[]) {
  await trx.deleteFrom('prize_awards').where('tournament_id', '=', tournamentId).execute();
  if (awards.length === 0) return;
  await trx
    .insertInto('prize_awards')
    .values(awards.map((a) => ({ tournament_id: tournamentId, label: a.label, registration_id: a.registrationId })))
    .execute();
}

export async function payeesOf(db: Trx, tournamentId: number) {
  const rows = await db
    .selectFrom('prize_payees')
    .select(['registration_id', 'upi_id', 'pan', 'given_at'])
    .where('tournament_id', '=', tournamentId)
    .execute();
  return new Map(rows.map((r) => [Number(r.registration_id), { upiId: r.upi_id, pan: r.pan, at: r.given_at }]));
}

/** Sets (or changes) where a team's prize goes. */
export async function upsertPayee(
  trx: Trx,
  row: { registrationId: number; tournamentId: number; upiId: string; pan: string | null },
  at: string,
): Promise<void> {
  await trx
    .insertInto('prize_payees')
    .values({ registration_id: row.registrationId, tournament_id: row.tournamentId, upi_id: row.upiId, pan: row.pan, given_at: at })
    .onConflict((oc) => oc.column('registration_id').doUpdateSet({ upi_id: row.upiId, pan: row.pan, given_at: at }))
    .execute();
}

export async function payoutsOf(db: Trx, tournamentId: number) {
  const rows = await db
    .selectFrom('prize_payouts')
    .select(['registration_id', 'gross_paise', 'tds_paise', 'upi_id', 'utr', 'recorded_at', 'recorded_by_name'])
    .where('tournament_id', '=', tournamentId)
    .execute();
  return new Map(
    rows.map((r) => {
      const [grossPaise, tdsPaise] = [Number(r.gross_paise), Number(r.tds_paise)];
      return [
        Number(r.registration_id),
        { grossPaise, tdsPaise, netPaise: grossPaise - tdsPaise, upiId: r.upi_id, utr: r.utr, at: r.recorded_at, by: r.recorded_by_name },
      ];
    }),
  );
}

export async function anyPayout(db: Trx, tournamentId: number): Promise<boolean> {
  const row = await db
    .selectFrom('prize_payouts')
    .select('registration_id')
    .where('tournament_id', '=', tournamentId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Records a payout; false when the team already has one (the first stands). */
export async function insertPayout(
  trx: Trx,
  row: {
    registrationId: number;
    tournamentId: number;
    grossPaise: number;
    tdsPaise: number;
    upiId: string;
    utr: string;
    by: number;
    byName: string;
  },
  at: string,
): Promise<boolean> {
  const result = await trx
    .insertInto('prize_payouts')
    .values({
      registration_id: row.registrationId,
      tournament_id: row.tournamentId,
      gross_paise: row.grossPaise,
      tds_paise: row.tdsPaise,
      upi_id: row.upiId,
      utr: row.utr,
      recorded_by: row.by,
      recorded_by_name: row.byName,
      recorded_at: at,
    })
    .onConflict((oc) => oc.column('registration_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}
