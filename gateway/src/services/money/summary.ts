import { type MoneySummary, type PaymentStatus, type Place, type StatementCredit, TOURNAMENT_NOT_FOUND } from '@custom-room/contract';
import { payeesOf, payoutsOf } from '../../db/payouts.js';
import { statementCredits, listStatements, teamsForMatching } from '../../db/statements.js';
import { notFound } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';
import { matchStatement, type MatchTeam } from './match.js';

/**
 * Decision 083: the tournament's money in one answer, for the organiser and its accountant: what the placed
 * teams owe, what the statements show received (each team's credit counted once, by decision 081's
 * matching), what is verified, what was refunded, the prizes paid (decision 085); and one line per team that is placed, paid, refunded or paid a prize.
 */
export async function moneySummary({ store }: ServiceDeps, tournamentId: number): Promise<MoneySummary> {
  const db = store.db;
  const tournament = await db
    .selectFrom('tournaments')
    .select('entry_fee')
    .where('id', '=', tournamentId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!tournament) throw notFound(TOURNAMENT_NOT_FOUND);
  const feePaise = Number(tournament.entry_fee) * 100;
  const [statements, rows, refunds, payouts, payees] = await Promise.all([
    listStatements(db, tournamentId),
    teamsForMatching(db, tournamentId),
    db.selectFrom('refunds').select(['registration_id', 'amount_paise', 'utr']).where('tournament_id', '=', tournamentId).execute(),
    payoutsOf(db, tournamentId),
    payeesOf(db, tournamentId),
  ]);
  const teams: MatchTeam[] = rows.map((r) => ({
    registrationId: Number(r.id),
    teamName: r.team_name,
    place: r.place as Place,
    paymentStatus: r.payment_status as PaymentStatus,
    upiReference: r.payment_reference,
  }));
  // Each team's first credit on any statement, oldest statement first.
  const received = new Map<number, StatementCredit>();
  for (const statement of [...statements].reverse()) {
    if (statement.state !== 'read') continue;
    const m = matchStatement(await statementCredits(db, Number(statement.id)), teams, feePaise);
    for (const row of [...m.matched, ...m.alreadyVerified, ...m.amountDiffers]) {
      if (!received.has(row.registrationId)) received.set(row.registrationId, row.credit);
    }
    // A team that left after paying: its credit is "no team" to verify, but it was received all the same.
    for (const { team, ...credit } of m.noTeam) {
      if (team && !received.has(team.registrationId)) received.set(team.registrationId, credit);
    }
  }
  const refundOf = new Map(refunds.map((r) => [Number(r.registration_id), { paise: Number(r.amount_paise), utr: r.utr }]));
  const lines = teams
    .filter(
      (t) =>
        t.place === 'placed' ||
        t.paymentStatus === 'verified' ||
        received.has(t.registrationId) ||
        refundOf.has(t.registrationId) ||
        payouts.has(t.registrationId),
    )
    .map((t) => {
      const credit = received.get(t.registrationId);
      const refund = refundOf.get(t.registrationId);
      const payout = payouts.get(t.registrationId);
      return {
        ...t,
        receivedPaise: credit?.amountPaise ?? null,
        payerName: credit?.payerName ?? '',
        payerVpa: credit?.payerVpa ?? null,
        refundPaise: refund?.paise ?? null,
        refundUtr: refund?.utr ?? null,
        // Decision 085: the prize paid, the TDS withheld, where it went, and the PAN given for it.
        prizeGrossPaise: payout?.grossPaise ?? null,
        prizeTdsPaise: payout?.tdsPaise ?? null,
        prizeUtr: payout?.utr ?? null,
        prizeUpiId: payout?.upiId ?? null,
        prizePan: payout ? (payees.get(t.registrationId)?.pan ?? null) : null,
      };
    });
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return {
    feePaise,
    expectedPaise: feePaise * teams.filter((t) => t.place === 'placed').length,
    receivedPaise: sum([...received.values()].map((c) => c.amountPaise)),
    verifiedPaise: feePaise * teams.filter((t) => t.paymentStatus === 'verified').length,
    refundedPaise: sum([...refundOf.values()].map((r) => r.paise)),
    prizesPaidPaise: sum([...payouts.values()].map((p) => p.grossPaise)),
    prizesTdsPaise: sum([...payouts.values()].map((p) => p.tdsPaise)),
    statements: statements.length,
    teams: lines,
  };
}
