import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isUniqueViolation, type Trx } from '../../db/index.js';
import { bumpGeneration } from '../../db/generation.js';
import {
  IGN_TAKEN,
  ONE_TEAM_PER_USER,
  TEAM_NAME_TAKEN,
  UTR_TAKEN_CONSTRAINT,
  findIgnClashes,
  findForeignRegistrations,
  findLiveTournament,
  findPaymentsForUpdate,
  findRegistrationById,
  findRegistrationsByIds,
  findUserRegistration,
  findBarredClashes,
  isConfirmedTeam,
  hasRegistration,
  insertRegistration,
  isReferenceTaken,
  isTeamNameTaken,
  listTournamentRegistrations,
  listUserRegistrations,
  setPayment,
  setPayments,
  submitPayment,
  toRegistration,
  updateRegistrationTeam,
} from '../../db/registrations.js';
import {
  countTaken,
  drawPublished,
  fillPlaces,
  findPlaceRules,
  leavePlace,
  payByFor,
  releaseTeam,
  settlePlaces,
  sweepDeadlines,
  waitlistPosition,
  withdrawalRefusal,
} from '../../db/places.js';
import { enqueueEvent } from '../../db/outbox.js';
import { isoAt } from '../../lib/clock.js';
import { badRequest, conflict, notFound, type FieldErrors, type HttpError } from '../../lib/errors.js';
import {
  endpoints,
  type IgnField,
  type PaymentStatus,
  NOT_PLACED_MESSAGES,
  REFERENCE_CHANGED,
  REGISTRATION_CLOSED_AFTER_DRAW,
  paymentsClosedMessage,
  phaseTakesPayments,
  REGISTRATION_OPEN_STATUS,
  type TeamWithIds,
  TOURNAMENT_NOT_FOUND,
  type TeamPlacement,
  UTR_TAKEN,
} from '@custom-room/contract';
import { teamCheckIns, teamPlacements, type TeamCheckIn } from '../../db/stages.js';
import { captainContacts, CHARACTER_ID_TAKEN, findCharacterIdClashes, saveCharacterIds, withCharacterIds } from '../../db/identity.js';
import { characterIdRefusal, characterIdTaken } from './identity.js';
import { currentUser } from '../../plugins/auth.js';
import { getTournament, phaseOf } from '../../db/tournaments.js';

/** Decision 041: the team's group and slot per published stage; the field is left out when there are none. */
const withPlacements = <T extends object>(registration: T, placements: TeamPlacement[] | undefined): T =>
  placements && placements.length > 0 ? { ...registration, placements } : registration;

/** Decision 043: the team's check-in per stage with a window; the field is left out when there are none. */
const withCheckIns = <T extends object>(registration: T, checkIns: TeamCheckIn[] | undefined): T =>
  checkIns && checkIns.length > 0 ? { ...registration, checkIns } : registration;

const NO_TEAM = 'You have not registered a team for this tournament.';
/** Once a tournament is in one of these states its teams are frozen. */
const TEAM_LOCKED_MESSAGES: Record<string, string> = {
  Ongoing: 'The team can no longer be changed: the tournament has started.',
  Completed: 'The team can no longer be changed: the tournament is over.',
  Cancelled: 'The team can no longer be changed: the tournament was cancelled.',
};

const alreadyRegistered = () => conflict('You have already registered a team for this tournament.');
const teamNameTaken = () => {
  const message = 'A team with this name is already registered.';
  return conflict(message, { teamName: message });
};
function ignTaken(clashes: { field: IgnField; ign: string }[]): HttpError {
  if (clashes.length === 0) return conflict('A player of this team is already playing for another team in this tournament.');
  const errors: FieldErrors = {};
  for (const { field, ign } of clashes) errors[field] = `${ign} is already playing for another team in this tournament.`;
  return conflict(errors[clashes[0].field], errors);
}

const FULL = 'Registration is full.';

const ALREADY_VERIFIED = 'Your payment has already been verified.';
const utrTaken = () => conflict(UTR_TAKEN, { upiReference: UTR_TAKEN });

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

type Verdict = { refusal: HttpError; place?: undefined } | { refusal?: undefined; place: 'placed' | 'waitlist' };

/**
 * Decision 007's checks, in its order, for a live tournament at nowMs: the refusal to answer, or the
 * place the team gets. A full tournament puts the team on its waitlist when it asked (decision 043).
 */
async function registrationVerdict(
  db: Trx,
  tournament: { id: number; status: string; max_teams: number; registration_open: string; registration_close: string },
  userId: number,
  team: TeamWithIds,
  nowMs: number,
  waitlist: boolean,
): Promise<Verdict> {
  if (tournament.status !== REGISTRATION_OPEN_STATUS)
    return { refusal: conflict(`Registration is closed for this tournament (status: ${tournament.status}).`) };
  if (nowMs < Date.parse(tournament.registration_open)) return { refusal: conflict('Registration has not opened yet.') };
  if (nowMs > Date.parse(tournament.registration_close)) return { refusal: conflict('Registration has closed.') };
  if (await drawPublished(db, tournament.id)) return { refusal: conflict(REGISTRATION_CLOSED_AFTER_DRAW) };
  if (await hasRegistration(db, tournament.id, userId)) return { refusal: alreadyRegistered() };
  const barred = barredRefusal(await findBarredClashes(db, tournament.id, team, userId));
  if (barred) return { refusal: barred };
  if (await isTeamNameTaken(db, tournament.id, team.teamName)) return { refusal: teamNameTaken() };
  const clashes = await findIgnClashes(db, tournament.id, team);
  if (clashes.length > 0) return { refusal: ignTaken(clashes) };
  const idClashes = await findCharacterIdClashes(db, tournament.id, team);
  if (idClashes.length > 0) return { refusal: characterIdTaken(idClashes) };
  if ((await countTaken(db, tournament.id, nowMs)) >= tournament.max_teams)
    return waitlist ? { place: 'waitlist' } : { refusal: conflict(FULL) };
  return { place: 'placed' };
}

const REGISTRATION_NOT_FOUND = 'Registration not found.';

/** Decision 052: a removed team does not come back (its account, name, IGNs or character IDs) unless the organiser allows it. */
function barredRefusal(clashes: Awaited<ReturnType<typeof findBarredClashes>>): HttpError | undefined {
  const [first] = clashes;
  if (!first) return undefined;
  const message = `${first.teamName} was removed from this tournament by the organiser: it cannot register again unless the organiser allows it.`;
  const errors: FieldErrors = {};
  for (const clash of clashes) for (const field of clash.fields) errors[field] ??= message;
  return conflict(message, Object.keys(errors).length > 0 ? errors : undefined);
}

const routes: FastifyPluginAsyncZod = async (app) => {
  /**
   * Two requests can pass the checks at once only where the tournament lock does not serialise them;
   * the unique constraints then stop the second one, and its violation becomes the same 409 as the check.
   */
  async function asTeamConflict(err: unknown, tournamentId: number, team: TeamWithIds, exceptRegistrationId?: number): Promise<unknown> {
    if (isUniqueViolation(err, ONE_TEAM_PER_USER)) return alreadyRegistered();
    if (isUniqueViolation(err, TEAM_NAME_TAKEN)) return teamNameTaken();
    if (isUniqueViolation(err, IGN_TAKEN)) return ignTaken(await findIgnClashes(app.store.db, tournamentId, team, exceptRegistrationId));
    if (isUniqueViolation(err, CHARACTER_ID_TAKEN)) {
      return characterIdTaken(await findCharacterIdClashes(app.store.db, tournamentId, team, exceptRegistrationId));
    }
    return err;
  }

  const now = () => app.clock.now();
  /** The registration's answer: its row, the tournament's fee and (waitlisted) its position. */
  async function registrationAnswer(db: Trx, row: NonNullable<Awaited<ReturnType<typeof findRegistrationById>>>, entryFee?: number) {
    const fee = entryFee ?? Number((await findLiveTournament(db, row.tournament_id))?.entry_fee ?? 0);
    const [answer] = await withCharacterIds(db, [
      toRegistration(row, { entryFee: fee, waitlistPosition: await waitlistPosition(db, row) }),
    ]);
    return answer!;
  }

  /** Tournaments this process saw full: only a hint to stop waiting for a turn; the answer always comes from a read. */
  const knownFull = new Set<number>();
  const turns = new Map<number, Promise<unknown>>();
  /** Runs fn after the registrations of this tournament queued before it in this process. */
  function inTurn<T>(tournamentId: number, fn: () => Promise<T>): Promise<T> {
    const run = (turns.get(tournamentId) ?? Promise.resolve()).then(fn, fn);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    turns.set(tournamentId, settled);
    void settled.then(() => turns.get(tournamentId) === settled && turns.delete(tournamentId));
    return run;
  }
  /**
   * When the tournament is full: 007's refusal from plain reads (no transaction, no lock); else undefined.
   * Full counts the waitlist too (it gets freed places first) and not the overdue teams (decision 043).
   */
  async function refusalIfFull(tournamentId: number, userId: number, team: TeamWithIds): Promise<HttpError | undefined> {
    const seen = await findLiveTournament(app.store.db, tournamentId);
    if (!seen || (await countTaken(app.store.db, tournamentId, now())) < seen.max_teams) {
      knownFull.delete(tournamentId); // an admin may have raised maxTeams, a team may have left
      return undefined;
    }
    return (await registrationVerdict(app.store.db, seen, userId, team, now(), false)).refusal;
  }

  app.post(
    endpoints.registerTeam.url,
    {
      schema: endpoints.registerTeam.schema,
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { tournamentId } = request.params;
      const { waitlist = false, ...team } = request.body;
      const badIds = await characterIdRefusal(app.store.db, tournamentId, team);
      if (badIds) throw badIds;
      try {
        // A rush (decision 026): the crowd behind the last slot is answered from plain reads, never
        // queueing for the tournament's lock (a team that leaves frees its place for the waitlist first).
        // Registrations of one tournament also take turns in this process before asking the database
        // for that lock: PostgreSQL's lock queue would otherwise hold every pooled connection, and
        // every other call (token checks, pages) would wait behind it.
        type Row = Awaited<ReturnType<typeof insertRegistration>>;
        let row: Row | null = null;
        for (let attempt = 0; !row; attempt++) {
          const refusal = waitlist ? undefined : await refusalIfFull(tournamentId, user.id, team);
          if (refusal) throw refusal;
          row = await inTurn<Row | null>(tournamentId, () =>
            // Filled while this one waited: leave the queue, the reads above answer.
            attempt === 0 && !waitlist && knownFull.has(tournamentId)
              ? Promise.resolve(null)
              : app.store.writeTransaction(async (trx) => {
                  // The lock serialises registrations per tournament, so the count below cannot go stale before the insert.
                  const tournament = await app.store.lockTournament(trx, tournamentId);
                  const rules = tournament && !tournament.deleted_at && (await findPlaceRules(trx, tournamentId));
                  if (!tournament || !rules) throw notFound(TOURNAMENT_NOT_FOUND);
                  const at = now();
                  await settlePlaces(trx, rules, at); // overdue teams leave, the waitlist moves up first
                  const verdict = await registrationVerdict(trx, tournament, user.id, team, at, waitlist);
                  if (verdict.refusal?.message === FULL || verdict.place === 'waitlist') knownFull.add(tournamentId);
                  if (verdict.refusal) throw verdict.refusal;
                  const inserted = await insertRegistration(trx, tournamentId, user.id, team, {
                    place: verdict.place,
                    payBy: payByFor(rules, at, { registering: true }),
                    now: isoAt(at),
                  });
                  await saveCharacterIds(trx, tournamentId, inserted.id, team);
                  if (verdict.place === 'placed') await bumpGeneration(trx, tournamentId); // registeredTeams
                  return inserted;
                }),
          );
        }
        return reply.status(201).send(await registrationAnswer(app.store.db, row));
      } catch (err) {
        throw await asTeamConflict(err, tournamentId, team);
      }
    },
  );

  app.get(
    endpoints.myRegistrations.url,
    {
      schema: endpoints.myRegistrations.schema,
    },
    async (request, reply) => {
      const user = currentUser(request);
      reply.header('cache-control', 'private, no-store');
      const own = await app.store.db
        .selectFrom('registrations')
        .select('tournament_id')
        .where('user_id', '=', user.id)
        .where('place', 'in', ['placed', 'waitlist']) // a waitlisted team may be promoted into an overdue place
        .execute();
      await sweepDeadlines(
        app.store,
        now(),
        own.map((r) => r.tournament_id),
      ); // a read never shows an overdue team as placed
      const rows = await listUserRegistrations(app.store.db, user.id, app.clock.now());
      const placements = await teamPlacements(
        app.store.db,
        rows.map((r) => r.rid),
      );
      const checkIns = await teamCheckIns(
        app.store.db,
        rows.map((r) => ({ id: r.rid, tournament_id: r.tid, place: r.place })),
        new Map(rows.map((r) => [r.tid, r.tournament.entryFee])),
        now(),
      );
      return (await withCharacterIds(app.store.db, rows)).map((r) =>
        withCheckIns(withPlacements(r, placements.get(r.rid)), checkIns.get(r.rid)),
      );
    },
  );

  app.get(
    endpoints.tournamentRegistrations.url,
    {
      schema: endpoints.tournamentRegistrations.schema,
    },
    async (request, reply) => {
      const { tournamentId } = request.params;
      const tournament = await findLiveTournament(app.store.db, tournamentId);
      if (!tournament) throw notFound(TOURNAMENT_NOT_FOUND);
      reply.header('cache-control', 'private, no-store');
      await sweepDeadlines(app.store, now(), [tournamentId]);
      const [rows, contacts] = await Promise.all([
        listTournamentRegistrations(app.store.db, tournamentId, Number(tournament.entry_fee)),
        captainContacts(app.store.db, tournamentId),
      ]);
      const checkIns = await teamCheckIns(
        app.store.db,
        rows.map((r) => ({ id: r.rid, tournament_id: r.tid, place: r.place })),
        new Map([[tournamentId, Number(tournament.entry_fee)]]),
        now(),
      );
      return (await withCharacterIds(app.store.db, rows)).map((r) => withCheckIns({ ...r, ...contacts.get(r.rid) }, checkIns.get(r.rid)));
    },
  );

  app.get(
    endpoints.myTeam.url,
    {
      schema: endpoints.myTeam.schema,
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { tournamentId } = request.params;
      const tournament = await findLiveTournament(app.store.db, tournamentId);
      if (!tournament) throw notFound(TOURNAMENT_NOT_FOUND);
      await sweepDeadlines(app.store, now(), [tournamentId]);
      const row = await findUserRegistration(app.store.db, tournamentId, user.id);
      if (!row) throw notFound(NO_TEAM);
      reply.header('cache-control', 'private, no-store');
      const placements = await teamPlacements(app.store.db, [row.id]);
      const checkIns = await teamCheckIns(app.store.db, [row], new Map([[tournamentId, Number(tournament.entry_fee)]]), now());
      return withCheckIns(
        withPlacements(await registrationAnswer(app.store.db, row, Number(tournament.entry_fee)), placements.get(row.id)),
        checkIns.get(row.id),
      );
    },
  );

  app.put(
    endpoints.updateTeam.url,
    {
      schema: endpoints.updateTeam.schema,
    },
    async (request) => {
      const user = currentUser(request);
      const { tournamentId } = request.params;
      const team = request.body;
      const badIds = await characterIdRefusal(app.store.db, tournamentId, team);
      if (badIds) throw badIds;
      let registrationId: number | undefined;
      try {
        const row = await app.store.writeTransaction(async (trx) => {
          const locked = await app.store.lockTournament(trx, tournamentId);
          const tournament = locked && (await findLiveTournament(trx, tournamentId));
          const rules = tournament && (await findPlaceRules(trx, tournamentId));
          if (!tournament || !rules) throw notFound(TOURNAMENT_NOT_FOUND);
          const at = now();
          await settlePlaces(trx, rules, at); // an overdue team is released before it can edit
          const existing = await findUserRegistration(trx, tournamentId, user.id);
          if (!existing) throw notFound(NO_TEAM);
          if (existing.place === 'released' || existing.place === 'withdrawn') throw conflict(NOT_PLACED_MESSAGES[existing.place]);
          registrationId = existing.id;
          const frozen =
            TEAM_LOCKED_MESSAGES[tournament.status] ?? (at >= Date.parse(tournament.start_date) ? TEAM_LOCKED_MESSAGES.Ongoing : undefined);
          if (frozen) throw conflict(frozen);
          if (await isTeamNameTaken(trx, tournamentId, team.teamName, existing.id)) throw teamNameTaken();
          const clashes = await findIgnClashes(trx, tournamentId, team, existing.id);
          if (clashes.length > 0) throw ignTaken(clashes);
          const idClashes = await findCharacterIdClashes(trx, tournamentId, team, existing.id);
          if (idClashes.length > 0) throw characterIdTaken(idClashes);
          const barred = barredRefusal(await findBarredClashes(trx, tournamentId, team));
          if (barred) throw barred; // a removed team's players do not come back through another team's edit
          const updated = await updateRegistrationTeam(trx, existing.id, tournamentId, team);
          await saveCharacterIds(trx, tournamentId, existing.id, team);
          if (updated.team_name !== existing.team_name) await bumpGeneration(trx, tournamentId); // points tables show team names
          return updated;
        });
        return await registrationAnswer(app.store.db, row);
      } catch (err) {
        throw await asTeamConflict(err, tournamentId, team, registrationId);
      }
    },
  );

  app.post(
    endpoints.submitPayment.url,
    {
      schema: endpoints.submitPayment.schema,
    },
    async (request) => {
      const user = currentUser(request);
      const { tournamentId } = request.params;
      const tournament = await getTournament(app.store.db, tournamentId);
      if (!tournament) throw notFound(TOURNAMENT_NOT_FOUND);
      // Decision 051: a Completed or Cancelled tournament takes no payment.
      const phase = phaseOf(tournament, now());
      if (!phaseTakesPayments(phase)) throw conflict(paymentsClosedMessage(phase));
      // A payment sent after the deadline does not save the place: the team is released first (decision 043).
      await sweepDeadlines(app.store, now(), [tournamentId]);
      const existing = await findUserRegistration(app.store.db, tournamentId, user.id);
      if (!existing) throw notFound(NO_TEAM);
      const utr = request.body.upiReference;
      if (existing.payment_status === 'verified') throw conflict(ALREADY_VERIFIED);
      if (existing.place !== 'placed') throw conflict(NOT_PLACED_MESSAGES[existing.place as keyof typeof NOT_PLACED_MESSAGES]);
      try {
        const row = await app.store.writeTransaction(async (trx) => {
          // The friendly check (older duplicates included); the unique payment_utr decides between two submits at once.
          if (await isReferenceTaken(trx, utr, existing.id)) throw utrTaken();
          return submitPayment(trx, existing.id, utr, now());
        });
        if (!row) {
          await sweepDeadlines(app.store, now(), [tournamentId]); // its deadline passed since the read above
          const current = await findRegistrationById(app.store.db, existing.id);
          if (current && current.place !== 'placed') throw conflict(NOT_PLACED_MESSAGES[current.place as keyof typeof NOT_PLACED_MESSAGES]);
          throw conflict(ALREADY_VERIFIED);
        }
        return await registrationAnswer(app.store.db, row);
      } catch (err) {
        if (isUniqueViolation(err, UTR_TAKEN_CONSTRAINT)) throw utrTaken();
        throw err;
      }
    },
  );

  app.put(
    endpoints.setPaymentStatuses.url,
    {
      // Before body validation, so an anonymous caller learns nothing about the payload rules.
      schema: endpoints.setPaymentStatuses.schema,
    },
    async (request) => {
      const { tournamentId, paymentStatus } = request.body;
      const expected = request.body.expectedUpiReferences ?? {};
      const rids = [...new Set(request.body.rids)];
      const rows = await app.store.writeTransaction(async (trx) => {
        const tournament = await app.store.lockTournament(trx, tournamentId);
        if (!tournament || tournament.deleted_at) throw notFound(TOURNAMENT_NOT_FOUND);
        const foreign = await findForeignRegistrations(trx, tournamentId, rids);
        if (foreign.length > 0) {
          const message =
            foreign.length === 1
              ? `Registration ${foreign[0]} is not a team of this tournament.`
              : `Registrations ${foreign.join(', ')} are not teams of this tournament.`;
          throw badRequest(`${message} Nothing was changed.`, { rids: message });
        }
        const current = await findPaymentsForUpdate(trx, rids, app.store.dialect === 'postgres');
        const missing: FieldErrors = {};
        const changed: FieldErrors = {};
        const changedNames: string[] = [];
        for (const row of current) {
          const check = referenceCheck(row.payment_reference, expected[String(row.id)], paymentStatus);
          if (check === 'missing') missing[`expectedUpiReferences.${row.id}`] = `Send the UPI reference you checked for ${row.team_name}.`;
          if (check === 'changed') {
            changed[`expectedUpiReferences.${row.id}`] = REFERENCE_CHANGED;
            changedNames.push(row.team_name);
          }
        }
        if (Object.keys(missing).length > 0) throw badRequest(`${REFERENCE_MISSING} Nothing was changed.`, missing);
        if (changedNames.length > 0) {
          const who =
            changedNames.length === 1
              ? `${changedNames[0]} changed its UPI reference`
              : `${changedNames.join(', ')} changed their UPI references`;
          throw conflict(`${who}; check ${changedNames.length === 1 ? 'it' : 'them'} again. Nothing was changed.`, changed);
        }
        await setPayments(trx, tournamentId, rids, paymentStatus);
        for (const row of current) {
          if (row.payment_status !== paymentStatus) await paymentEvent(trx, row, paymentStatus);
        }
        // Rejected (or set back to pending) after the deadline: released at once, its place filled (decision 043).
        const rules = await findPlaceRules(trx, tournamentId);
        if (rules) await settlePlaces(trx, rules, now());
        return findRegistrationsByIds(trx, tournamentId, rids);
      });
      const tournament = await findLiveTournament(app.store.db, tournamentId);
      return Promise.all(rows.map((row) => registrationAnswer(app.store.db, row, Number(tournament?.entry_fee ?? 0))));
    },
  );

  app.put(
    endpoints.setPaymentStatus.url,
    {
      schema: endpoints.setPaymentStatus.schema,
    },
    async (request) => {
      const { rid } = request.params;
      const { paymentStatus, expectedUpiReference } = request.body;
      const found = await findRegistrationById(app.store.db, rid);
      if (!found) throw notFound(REGISTRATION_NOT_FOUND);
      const row = await app.store.writeTransaction(async (trx) => {
        // The tournament first, as every place change locks it: a rejection after the deadline releases the team.
        const locked = await app.store.lockTournament(trx, found.tournament_id);
        const [current] = await findPaymentsForUpdate(trx, [rid], app.store.dialect === 'postgres');
        if (!current || !locked) throw notFound(REGISTRATION_NOT_FOUND);
        const check = referenceCheck(current.payment_reference, expectedUpiReference, paymentStatus);
        if (check === 'missing') throw badRequest(REFERENCE_MISSING, { expectedUpiReference: REFERENCE_MISSING });
        if (check === 'changed') throw conflict(REFERENCE_CHANGED, { expectedUpiReference: REFERENCE_CHANGED });
        const updated = await setPayment(trx, rid, paymentStatus);
        if (updated && current.payment_status !== paymentStatus) await paymentEvent(trx, updated, paymentStatus);
        const rules = await findPlaceRules(trx, current.tournament_id);
        if (rules) await settlePlaces(trx, rules, now());
        return findRegistrationById(trx, rid);
      });
      if (!row) throw notFound(REGISTRATION_NOT_FOUND);
      return registrationAnswer(app.store.db, row);
    },
  );

  /** payment-verified / payment-rejected for the team, in the write's transaction (issue 19). */
  async function paymentEvent(trx: Trx, row: { id: number; tournament_id: number; team_name: string }, status: PaymentStatus) {
    if (status !== 'verified' && status !== 'rejected') return;
    await enqueueEvent(
      trx,
      {
        kind: status === 'verified' ? 'payment-verified' : 'payment-rejected',
        tournamentId: row.tournament_id,
        audience: { registrations: [row.id] },
        data: { teamName: row.team_name },
      },
      now(),
    );
  }

  app.post(endpoints.withdrawTeam.url, { schema: endpoints.withdrawTeam.schema }, async (request) => {
    const user = currentUser(request);
    const { tournamentId } = request.params;
    return app.store.writeTransaction(async (trx) => {
      const locked = await app.store.lockTournament(trx, tournamentId);
      const rules = locked && (await findPlaceRules(trx, tournamentId));
      const tournament = rules && (await findLiveTournament(trx, tournamentId));
      if (!rules || !tournament) throw notFound(TOURNAMENT_NOT_FOUND);
      const at = now();
      await settlePlaces(trx, rules, at);
      const existing = await findUserRegistration(trx, tournamentId, user.id);
      if (!existing) throw notFound(NO_TEAM);
      if (existing.place === 'released' || existing.place === 'withdrawn') throw conflict(NOT_PLACED_MESSAGES[existing.place]);
      const refusal = withdrawalRefusal(existing.place, tournament, at);
      if (refusal) throw conflict(refusal);
      await leavePlace(trx, existing.id, { place: 'withdrawn' }, at);
      // Only a placed team frees a place; a waitlisted one (possibly after registration closed) frees none.
      if (existing.place === 'placed') await fillPlaces(trx, rules, at);
      await bumpGeneration(trx, tournamentId); // registeredTeams
      const row = await findRegistrationById(trx, existing.id);
      if (!row) throw notFound(NO_TEAM);
      const answer = toRegistration(row, { entryFee: Number(rules.entry_fee), waitlistPosition: null });
      return { ...answer, paid: existing.payment_status === 'verified' };
    });
  });

  /** The organiser takes a team out (decision 043): release (unpaid, placed) or remove (any team still in). */
  async function organiserTakesOut(rid: number, how: 'release' | 'remove') {
    const found = await findRegistrationById(app.store.db, rid);
    if (!found) throw notFound(REGISTRATION_NOT_FOUND);
    return app.store.writeTransaction(async (trx) => {
      const locked = await app.store.lockTournament(trx, found.tournament_id);
      const rules = locked && (await findPlaceRules(trx, found.tournament_id));
      if (!rules) throw notFound(TOURNAMENT_NOT_FOUND);
      const at = now();
      await settlePlaces(trx, rules, at);
      const team = await findRegistrationById(trx, rid);
      if (!team) throw notFound(REGISTRATION_NOT_FOUND);
      if (team.place === 'released' || team.place === 'withdrawn') {
        throw conflict(`${team.team_name} has already ${team.place === 'released' ? 'been released' : 'withdrawn'}.`);
      }
      let reason: 'payment-rejected' | 'removed' = 'removed';
      if (how === 'release') {
        if (team.place !== 'placed') throw conflict(`${team.team_name} is on the waitlist: remove it instead.`);
        if (isConfirmedTeam(team, rules.entry_fee)) throw conflict(`${team.team_name} is confirmed: remove the team instead.`);
        if (team.payment_status === 'rejected') reason = 'payment-rejected';
      }
      await releaseTeam(trx, team, reason, at);
      if (how === 'remove') await trx.updateTable('registrations').set({ rejoin: 'barred' }).where('id', '=', rid).execute();
      await fillPlaces(trx, rules, at);
      await bumpGeneration(trx, found.tournament_id); // registeredTeams
      const row = await findRegistrationById(trx, rid);
      return toRegistration(row!, { entryFee: Number(rules.entry_fee), waitlistPosition: null });
    });
  }

  app.post(endpoints.releaseTeam.url, { schema: endpoints.releaseTeam.schema }, (request) =>
    organiserTakesOut(request.params.rid, 'release'),
  );
  app.post(endpoints.removeTeam.url, { schema: endpoints.removeTeam.schema }, (request) =>
    organiserTakesOut(request.params.rid, 'remove'),
  );

  app.post(endpoints.allowReturn.url, { schema: endpoints.allowReturn.schema }, async (request) => {
    const { rid } = request.params;
    const found = await findRegistrationById(app.store.db, rid);
    if (!found) throw notFound(REGISTRATION_NOT_FOUND);
    const tournament = await findLiveTournament(app.store.db, found.tournament_id);
    if (!tournament) throw notFound(TOURNAMENT_NOT_FOUND);
    const updated = await app.store.db
      .updateTable('registrations')
      .set({ rejoin: 'allowed', updated_at: isoAt(now()) })
      .where('id', '=', rid)
      .where('rejoin', '=', 'barred')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) throw conflict(`${found.team_name} was not removed by the organiser: nothing to allow.`);
    const row = await findRegistrationById(app.store.db, rid);
    return toRegistration(row!, { entryFee: Number(tournament.entry_fee), waitlistPosition: null });
  });
};

export default routes;
