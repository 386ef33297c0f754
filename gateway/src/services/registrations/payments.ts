import {
  NOT_PLACED_MESSAGES,
  type PaymentStatus,
  paymentsClosedMessage,
  phaseTakesPayments,
  REFERENCE_CHANGED,
  TOURNAMENT_NOT_FOUND,
} from '@custom-room/contract';
import { isUniqueViolation, type Trx } from '../../db/index.js';
import { enqueueEvent } from '../../db/outbox.js';
import {
  findForeignRegistrations,
  findLiveTournament,
  findPaymentsForUpdate,
  findRegistrationById,
  findRegistrationsByIds,
  findUserRegistration,
  isReferenceTaken,
  setPayment,
  setPayments,
  submitPayment,
  UTR_TAKEN_CONSTRAINT,
} from '../../db/registrations.js';
import { getTournament, phaseOf } from '../../db/tournaments.js';
import { isoAt } from '../../lib/clock.js';
import { badRequest, conflict, type FieldErrors, notFound } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';
import { lockLiveTournamentOr404 } from '../live-tournament.js';
import { settleTournament } from '../places/settle.js';
import { sweepDeadlines } from '../places/sweep.js';
import { registrationAnswer } from './answers.js';
import { ALREADY_VERIFIED, NO_TEAM, REGISTRATION_NOT_FOUND, utrTaken } from './refusals.js';

/** A team's payment: the player's UPI reference, and the organiser's verdict on it (decisions 029, 043, 051). */

/** Verifying or rejecting is a judgement of one reference: the caller must say which one it saw (decision 029). */
const JUDGED_STATUSES: readonly PaymentStatus[] = ['verified', 'rejected'];
const REFERENCE_MISSING = 'Send the UPI reference you checked (expectedUpiReference) to verify or reject a payment.';

/**
 * Whether a status change may go ahead for a registration whose stored reference is `stored`:
 * 'missing' when the caller did not say which reference it saw although it must, 'changed' when the
 * reference is no longer the one it saw.
 */
function referenceCheck(stored: string, expected: string | undefined, status: PaymentStatus): 'missing' | 'changed' | undefined {
  if (expected === undefined) return JUDGED_STATUSES.includes(status) && stored !== '' ? 'missing' : undefined;
  return expected === stored ? undefined : 'changed';
}

const notPlaced = (place: string) => conflict(NOT_PLACED_MESSAGES[place as keyof typeof NOT_PLACED_MESSAGES]);

/** The player's UPI reference for the team (a normalised UTR); the registration's answer. */
export async function submitTeamPayment({ store, clock }: ServiceDeps, tournamentId: number, userId: number, utr: string) {
  const tournament = await getTournament(store.db, tournamentId);
  if (!tournament) throw notFound(TOURNAMENT_NOT_FOUND);
  // Decision 051: a Completed or Cancelled tournament takes no payment.
  const phase = phaseOf(tournament, clock.now());
  if (!phaseTakesPayments(phase)) throw conflict(paymentsClosedMessage(phase));
  // A payment sent after the deadline does not save the place: the team is released first (decision 043).
  await sweepDeadlines(store, clock.now(), [tournamentId]);
  const existing = await findUserRegistration(store.db, tournamentId, userId);
  if (!existing) throw notFound(NO_TEAM);
  if (existing.payment_status === 'verified') throw conflict(ALREADY_VERIFIED);
  if (existing.place !== 'placed') throw notPlaced(existing.place);
  try {
    const row = await store.writeTransaction(async (trx) => {
      // The friendly check (older duplicates included); the unique payment_utr decides between two submits at once.
      if (await isReferenceTaken(trx, utr, existing.id)) throw utrTaken();
      return submitPayment(trx, existing.id, utr, clock.now());
    });
    if (!row) {
      await sweepDeadlines(store, clock.now(), [tournamentId]); // its deadline passed since the read above
      const current = await findRegistrationById(store.db, existing.id);
      if (current && current.place !== 'placed') throw notPlaced(current.place);
      throw conflict(ALREADY_VERIFIED);
    }
    return await registrationAnswer(store.db, row);
  } catch (err) {
    if (isUniqueViolation(err, UTR_TAKEN_CONSTRAINT)) throw utrTaken();
    throw err;
  }
}

/** payment-verified / payment-rejected for the team, in the write's transaction (issue 19). */
async function paymentEvent(trx: Trx, row: { id: number; tournament_id: number; team_name: string }, status: PaymentStatus, nowMs: number) {
  if (status !== 'verified' && status !== 'rejected') return;
  await enqueueEvent(
    trx,
    {
      kind: status === 'verified' ? 'payment-verified' : 'payment-rejected',
      tournamentId: row.tournament_id,
      audience: { registrations: [row.id] },
      data: { teamName: row.team_name },
    },
    nowMs,
  );
}

/** 400 when rids names a team of another tournament: nothing is changed. */
async function refuseForeign(trx: Trx, tournamentId: number, rids: number[]) {
  const foreign = await findForeignRegistrations(trx, tournamentId, rids);
  if (foreign.length === 0) return;
  const message =
    foreign.length === 1
      ? `Registration ${foreign[0]} is not a team of this tournament.`
      : `Registrations ${foreign.join(', ')} are not teams of this tournament.`;
  throw badRequest(`${message} Nothing was changed.`, { rids: message });
}

/** 400 or 409 when a judged reference was not named or has changed since the organiser saw it: nothing is changed. */
function refuseUnchecked(
  current: { id: number; team_name: string; payment_reference: string }[],
  expected: Record<string, string>,
  status: PaymentStatus,
) {
  const missing: FieldErrors = {};
  const changed: FieldErrors = {};
  const changedNames: string[] = [];
  for (const row of current) {
    const check = referenceCheck(row.payment_reference, expected[String(row.id)], status);
    if (check === 'missing') missing[`expectedUpiReferences.${row.id}`] = `Send the UPI reference you checked for ${row.team_name}.`;
    if (check === 'changed') {
      changed[`expectedUpiReferences.${row.id}`] = REFERENCE_CHANGED;
      changedNames.push(row.team_name);
    }
  }
  if (Object.keys(missing).length > 0) throw badRequest(`${REFERENCE_MISSING} Nothing was changed.`, missing);
  if (changedNames.length === 0) return;
  const who =
    changedNames.length === 1 ? `${changedNames[0]} changed its UPI reference` : `${changedNames.join(', ')} changed their UPI references`;
  throw conflict(`${who}; check ${changedNames.length === 1 ? 'it' : 'them'} again. Nothing was changed.`, changed);
}

/** The organiser sets the payment status of several teams of one tournament; their answers. */
export async function setPaymentStatuses(
  { store, clock }: ServiceDeps,
  change: { tournamentId: number; paymentStatus: PaymentStatus; rids: number[]; expectedUpiReferences?: Record<string, string> },
) {
  const { tournamentId, paymentStatus } = change;
  const rids = [...new Set(change.rids)];
  const rows = await store.writeTransaction(async (trx) => {
    await lockLiveTournamentOr404(store, trx, tournamentId);
    await refuseForeign(trx, tournamentId, rids);
    const current = await findPaymentsForUpdate(trx, rids, store.dialect === 'postgres');
    refuseUnchecked(current, change.expectedUpiReferences ?? {}, paymentStatus);
    await setPayments(trx, tournamentId, rids, paymentStatus, isoAt(clock.now()));
    for (const row of current) {
      if (row.payment_status !== paymentStatus) await paymentEvent(trx, row, paymentStatus, clock.now());
    }
    // Rejected (or set back to pending) after the deadline: released at once, its place filled (decision 043).
    await settleTournament(trx, tournamentId, clock.now());
    return findRegistrationsByIds(trx, tournamentId, rids);
  });
  const tournament = await findLiveTournament(store.db, tournamentId);
  return Promise.all(rows.map((row) => registrationAnswer(store.db, row, Number(tournament?.entry_fee ?? 0))));
}

/** The organiser sets one team's payment status; its answer. */
export async function setPaymentStatus(
  { store, clock }: ServiceDeps,
  rid: number,
  change: { paymentStatus: PaymentStatus; expectedUpiReference?: string },
) {
  const { paymentStatus } = change;
  const found = await findRegistrationById(store.db, rid);
  if (!found) throw notFound(REGISTRATION_NOT_FOUND);
  const row = await store.writeTransaction(async (trx) => {
    // The tournament first, as every place change locks it: a rejection after the deadline releases the team.
    const locked = await store.lockTournament(trx, found.tournament_id);
    const [current] = await findPaymentsForUpdate(trx, [rid], store.dialect === 'postgres');
    if (!current || !locked) throw notFound(REGISTRATION_NOT_FOUND);
    const check = referenceCheck(current.payment_reference, change.expectedUpiReference, paymentStatus);
    if (check === 'missing') throw badRequest(REFERENCE_MISSING, { expectedUpiReference: REFERENCE_MISSING });
    if (check === 'changed') throw conflict(REFERENCE_CHANGED, { expectedUpiReference: REFERENCE_CHANGED });
    const updated = await setPayment(trx, rid, paymentStatus, isoAt(clock.now()));
    if (updated && current.payment_status !== paymentStatus) await paymentEvent(trx, updated, paymentStatus, clock.now());
    await settleTournament(trx, current.tournament_id, clock.now());
    return findRegistrationById(trx, rid);
  });
  if (!row) throw notFound(REGISTRATION_NOT_FOUND);
  return registrationAnswer(store.db, row);
}
