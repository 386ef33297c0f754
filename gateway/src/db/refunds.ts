import type { Trx } from './types.js';

/** Decision 082: refunds of paid teams that left (or whose tournament was cancelled), and who paid them. */

/**
 * The tournament's verified teams with their refund when recorded. `onlyLeft`: the teams that withdrew or
 * were released; otherwise every verified team (a cancelled tournament).
 */
export function refundRows(db: Trx, tournamentId: number, onlyLeft: boolean) {
  let q = db
    .selectFrom('registrations as r')
    .leftJoin('refunds as f', 'f.registration_id', 'r.id')
    .select([
      'r.id',
      'r.team_name',
      'r.place',
      'r.released_reason',
      'r.released_at',
      'r.payment_reference',
      'f.amount_paise',
      'f.utr',
      'f.recorded_at',
      'f.recorded_by_name',
    ])
    .where('r.tournament_id', '=', tournamentId)
    .where('r.payment_status', '=', 'verified');
  if (onlyLeft) q = q.where('r.place', 'in', ['withdrawn', 'released']);
  return q.orderBy('r.released_at', 'desc').orderBy('r.id').execute();
}

export interface Payer {
  payerName: string;
  payerVpa: string | null;
}

/**
 * Who paid each team, as the tournament's statements say: the credit that verified it (decision 081),
 * else a credit of the UTR it sent. By registration id; a team no statement names is left out.
 */
export async function payersOf(db: Trx, tournamentId: number, teams: readonly { id: number; reference: string }[]) {
  const payers = new Map<number, Payer>();
  if (teams.length === 0) return payers;
  const verified = await db
    .selectFrom('statement_verifications as v')
    .innerJoin('statement_credits as c', (join) => join.onRef('c.statement_id', '=', 'v.statement_id').onRef('c.line', '=', 'v.line'))
    .select(['v.registration_id', 'c.payer_name', 'c.payer_vpa'])
    .where('v.tournament_id', '=', tournamentId)
    .execute();
  for (const v of verified) payers.set(Number(v.registration_id), { payerName: v.payer_name, payerVpa: v.payer_vpa });
  const byReference = new Map(teams.filter((t) => t.reference && !payers.has(t.id)).map((t) => [t.reference, t.id]));
  if (byReference.size === 0) return payers;
  const credits = await db
    .selectFrom('statement_credits as c')
    .innerJoin('statements as s', 's.id', 'c.statement_id')
    .select(['c.utr', 'c.payer_name', 'c.payer_vpa'])
    .where('s.tournament_id', '=', tournamentId)
    .where('c.utr', 'in', [...byReference.keys()])
    .execute();
  for (const c of credits) {
    const id = c.utr ? byReference.get(c.utr) : undefined;
    if (id !== undefined && !payers.has(id)) payers.set(id, { payerName: c.payer_name, payerVpa: c.payer_vpa });
  }
  return payers;
}
export type RefundRow = Awaited<ReturnType<typeof refundRows>>[number];

/** The refund of a registration, if recorded. */
export function refundOf(db: Trx, registrationId: number) {
  return db
    .selectFrom('refunds')
    .select(['amount_paise', 'utr', 'recorded_at', 'recorded_by_name'])
    .where('registration_id', '=', registrationId)
    .executeTakeFirst();
}

/** Records a refund; false when the registration already has one (the first stands). */
export async function insertRefund(
  trx: Trx,
  row: { registrationId: number; tournamentId: number; amountPaise: number; utr: string; by: number; byName: string },
  at: string,
): Promise<boolean> {
  const result = await trx
    .insertInto('refunds')
    .values({
      registration_id: row.registrationId,
      tournament_id: row.tournamentId,
      amount_paise: row.amountPaise,
      utr: row.utr,
      recorded_by: row.by,
      recorded_by_name: row.byName,
      recorded_at: at,
    })
    .onConflict((oc) => oc.column('registration_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}
