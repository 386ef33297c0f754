import { type Place, type Refund, type RefundReason, TOURNAMENT_NOT_FOUND } from '@custom-room/contract';
import { enqueueEvent } from '../../db/outbox.js';
import { insertRefund, payersOf, refundOf, refundRows, type RefundRow } from '../../db/refunds.js';
import { findRegistrationsByIds, findUserRegistration } from '../../db/registrations.js';
import { getTournament, phaseOf } from '../../db/tournaments.js';
import { isoAt } from '../../lib/clock.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';
import { lockLiveTournamentOr404 } from '../live-tournament.js';
import { prizeOfTeam } from './payouts.js';

/**
 * Decision 082: a team that paid (its payment verified) and then withdrew, was removed or released, or
 * whose tournament was cancelled, is owed its fee. The organiser pays it back outside the site, to the
 * payer's UPI ID the statement names, and records the refund's UTR; the team is told and sees it.
 */

export const NOT_OWED = 'This team is not owed a refund: it is still playing, or its payment was never verified.';
export const ALREADY_REFUNDED = "This team's refund is already recorded.";
const TEAM_NOT_FOUND = 'Team not found in this tournament.';

async function tournamentOr404(deps: ServiceDeps, tournamentId: number) {
  const tournament = await getTournament(deps.store.db, tournamentId);
  if (!tournament) throw notFound(TOURNAMENT_NOT_FOUND);
  return { tournament, feePaise: Number(tournament.entry_fee) * 100, cancelled: phaseOf(tournament, deps.clock.now()) === 'cancelled' };
}

function reasonOf(row: Pick<RefundRow, 'place' | 'released_reason'>, cancelled: boolean): RefundReason {
  if (row.place === 'withdrawn') return 'withdrew';
  if (row.place === 'released') return row.released_reason === 'removed' ? 'removed' : 'released';
  return cancelled ? 'cancelled' : 'released';
}

async function answers(
  deps: ServiceDeps,
  tournamentId: number,
  rows: RefundRow[],
  feePaise: number,
  cancelled: boolean,
): Promise<Refund[]> {
  const payers = await payersOf(
    deps.store.db,
    tournamentId,
    rows.map((r) => ({ id: Number(r.id), reference: r.payment_reference })),
  );
  return rows.map((r) => {
    const payer = payers.get(Number(r.id));
    return {
      registrationId: Number(r.id),
      teamName: r.team_name,
      place: r.place as Place,
      reason: reasonOf(r, cancelled),
      leftAt: r.released_at,
      paidPaise: feePaise,
      paidUtr: r.payment_reference,
      payerName: payer?.payerName ?? '',
      payerVpa: payer?.payerVpa ?? null,
      refund:
        r.utr && r.recorded_at
          ? { amountPaise: Number(r.amount_paise), utr: r.utr, at: r.recorded_at, by: r.recorded_by_name ?? '' }
          : null,
    };
  });
}

/** The teams owed a refund (and those refunded): the paid teams that left, or every paid team of a cancelled tournament. */
export async function refundsOf(deps: ServiceDeps, tournamentId: number): Promise<Refund[]> {
  const { feePaise, cancelled } = await tournamentOr404(deps, tournamentId);
  const rows = await refundRows(deps.store.db, tournamentId, !cancelled);
  return answers(deps, tournamentId, rows, feePaise, cancelled);
}

/** Records a team's refund once, with its UTR; the team is told in the same transaction. */
export async function recordRefund(
  deps: ServiceDeps,
  tournamentId: number,
  rid: number,
  caller: { id: number; username: string },
  body: { upiReference: string; amount?: number },
): Promise<Refund> {
  const { store, clock } = deps;
  const { feePaise, cancelled } = await tournamentOr404(deps, tournamentId);
  const amountPaise = body.amount === undefined ? feePaise : Math.round(body.amount * 100);
  if (amountPaise > feePaise) {
    const message = `At most the entry fee, ₹${feePaise / 100}.`;
    throw badRequest(message, { amount: message });
  }
  await store.writeTransaction(async (trx) => {
    await lockLiveTournamentOr404(store, trx, tournamentId);
    const rows = await refundRows(trx, tournamentId, !cancelled);
    const row = rows.find((r) => Number(r.id) === rid);
    if (!row) {
      const [team] = await findRegistrationsByIds(trx, tournamentId, [rid]);
      throw team ? conflict(NOT_OWED) : notFound(TEAM_NOT_FOUND);
    }
    const inserted = await insertRefund(
      trx,
      { registrationId: rid, tournamentId, amountPaise, utr: body.upiReference, by: caller.id, byName: caller.username },
      isoAt(clock.now()),
    );
    if (!inserted) throw conflict(ALREADY_REFUNDED);
    await enqueueEvent(
      trx,
      {
        kind: 'refund-recorded',
        tournamentId,
        audience: { registrations: [rid] },
        data: { teamName: row.team_name, amountPaise, utr: body.upiReference },
      },
      clock.now(),
    );
  });
  const rows = await refundRows(store.db, tournamentId, !cancelled);
  const [answer] = await answers(
    deps,
    tournamentId,
    rows.filter((r) => Number(r.id) === rid),
    feePaise,
    cancelled,
  );
  return answer!;
}

/** The caller's team's refund and prize in the tournament (its latest registration there). */
export async function myMoney(deps: ServiceDeps, tournamentId: number, userId: number) {
  const { tournament } = await tournamentOr404(deps, tournamentId);
  const team = await findUserRegistration(deps.store.db, tournamentId, userId);
  if (!team) throw notFound('You have no team in this tournament.');
  const [refund, prize] = await Promise.all([refundOf(deps.store.db, team.id), prizeOfTeam(deps, tournament, team.id)]);
  return {
    refund: refund
      ? { amountPaise: Number(refund.amount_paise), utr: refund.utr, at: refund.recorded_at, by: refund.recorded_by_name }
      : null,
    prize,
  };
}
