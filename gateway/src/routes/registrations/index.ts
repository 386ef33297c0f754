import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isUniqueViolation, type Trx } from '../../db/index.js';
import { bumpGeneration } from '../../db/generation.js';
import {
  IGN_TAKEN,
  ONE_TEAM_PER_USER,
  TEAM_NAME_TAKEN,
  UTR_TAKEN_CONSTRAINT,
  countRegistrations,
  findIgnClashes,
  findForeignRegistrations,
  findLiveTournament,
  findPaymentsForUpdate,
  findUserRegistration,
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
import { badRequest, conflict, notFound, type FieldErrors, type HttpError } from '../../lib/errors.js';
import {
  endpoints,
  type IgnField,
  type PaymentStatus,
  REFERENCE_CHANGED,
  REGISTRATION_OPEN_STATUS,
  type TeamWithIds,
  TOURNAMENT_NOT_FOUND,
  type TeamPlacement,
  UTR_TAKEN,
} from '@custom-room/contract';
import { teamPlacements } from '../../db/stages.js';
import { captainContacts, CHARACTER_ID_TAKEN, findCharacterIdClashes, saveCharacterIds, withCharacterIds } from '../../db/identity.js';
import { characterIdRefusal, characterIdTaken } from './identity.js';
import { currentUser, requireAdmin, requireUser } from '../../plugins/auth.js';

/** Decision 041: the team's group and slot per published stage; the field is left out when there are none. */
const withPlacements = <T extends object>(registration: T, placements: TeamPlacement[] | undefined): T =>
  placements && placements.length > 0 ? { ...registration, placements } : registration;

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

/** Decision 007's checks, in its order, for a live tournament; the refusal to answer, or undefined. */
async function registrationRefusal(
  db: Trx,
  tournament: { id: number; status: string; max_teams: number; registration_open: string; registration_close: string },
  userId: number,
  team: TeamWithIds,
): Promise<HttpError | undefined> {
  if (tournament.status !== REGISTRATION_OPEN_STATUS)
    return conflict(`Registration is closed for this tournament (status: ${tournament.status}).`);
  const now = Date.now();
  if (now < Date.parse(tournament.registration_open)) return conflict('Registration has not opened yet.');
  if (now > Date.parse(tournament.registration_close)) return conflict('Registration has closed.');
  if (await hasRegistration(db, tournament.id, userId)) return alreadyRegistered();
  if (await isTeamNameTaken(db, tournament.id, team.teamName)) return teamNameTaken();
  const clashes = await findIgnClashes(db, tournament.id, team);
  if (clashes.length > 0) return ignTaken(clashes);
  const idClashes = await findCharacterIdClashes(db, tournament.id, team);
  if (idClashes.length > 0) return characterIdTaken(idClashes);
  if ((await countRegistrations(db, tournament.id)) >= tournament.max_teams) return conflict(FULL);
  return undefined;
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
  /** When the tournament is full: 007's refusal from plain reads (no transaction, no lock); else undefined. */
  async function refusalIfFull(tournamentId: number, userId: number, team: TeamWithIds): Promise<HttpError | undefined> {
    const seen = await findLiveTournament(app.store.db, tournamentId);
    if (!seen || (await countRegistrations(app.store.db, tournamentId)) < seen.max_teams) {
      knownFull.delete(tournamentId); // an admin may have raised maxTeams
      return undefined;
    }
    return registrationRefusal(app.store.db, seen, userId, team);
  }

  app.post(
    endpoints.registerTeam.url,
    {
      preHandler: requireUser,
      schema: endpoints.registerTeam.schema,
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { tournamentId } = request.params;
      const team = request.body;
      const badIds = await characterIdRefusal(app.store.db, tournamentId, team);
      if (badIds) throw badIds;
      try {
        // A rush (decision 026): a full tournament stays full (no team is ever removed), so the crowd
        // behind the last slot is answered from plain reads, never queueing for the tournament's lock.
        // Registrations of one tournament also take turns in this process before asking the database
        // for that lock: PostgreSQL's lock queue would otherwise hold every pooled connection, and
        // every other call (token checks, pages) would wait behind it.
        type Row = Awaited<ReturnType<typeof insertRegistration>>;
        let row: Row | null = null;
        for (let attempt = 0; !row; attempt++) {
          const refusal = await refusalIfFull(tournamentId, user.id, team);
          if (refusal) throw refusal;
          row = await inTurn<Row | null>(tournamentId, () =>
            // Filled while this one waited: leave the queue, the reads above answer.
            attempt === 0 && knownFull.has(tournamentId)
              ? Promise.resolve(null)
              : app.store.writeTransaction(async (trx) => {
                  // The lock serialises registrations per tournament, so the count below cannot go stale before the insert.
                  const tournament = await app.store.lockTournament(trx, tournamentId);
                  if (!tournament || tournament.deleted_at) throw notFound(TOURNAMENT_NOT_FOUND);
                  const refused = await registrationRefusal(trx, tournament, user.id, team);
                  if (refused?.message === FULL) knownFull.add(tournamentId);
                  if (refused) throw refused;
                  const inserted = await insertRegistration(trx, tournamentId, user.id, team);
                  await saveCharacterIds(trx, tournamentId, inserted.id, team);
                  await bumpGeneration(trx, tournamentId); // registeredTeams
                  return inserted;
                }),
          );
        }
        const [answer] = await withCharacterIds(app.store.db, [toRegistration(row)]);
        return reply.status(201).send(answer);
      } catch (err) {
        throw await asTeamConflict(err, tournamentId, team);
      }
    },
  );

  app.get(
    endpoints.myRegistrations.url,
    {
      preHandler: requireUser,
      schema: endpoints.myRegistrations.schema,
    },
    async (request, reply) => {
      const user = currentUser(request);
      reply.header('cache-control', 'private, no-store');
      const rows = await listUserRegistrations(app.store.db, user.id);
      const placements = await teamPlacements(
        app.store.db,
        rows.map((r) => r.rid),
      );
      return (await withCharacterIds(app.store.db, rows)).map((r) => withPlacements(r, placements.get(r.rid)));
    },
  );

  app.get(
    endpoints.tournamentRegistrations.url,
    {
      preHandler: requireAdmin,
      schema: endpoints.tournamentRegistrations.schema,
    },
    async (request, reply) => {
      const { tournamentId } = request.params;
      if (!(await findLiveTournament(app.store.db, tournamentId))) throw notFound(TOURNAMENT_NOT_FOUND);
      reply.header('cache-control', 'private, no-store');
      const [rows, contacts] = await Promise.all([
        listTournamentRegistrations(app.store.db, tournamentId),
        captainContacts(app.store.db, tournamentId),
      ]);
      return (await withCharacterIds(app.store.db, rows)).map((r) => ({ ...r, ...contacts.get(r.rid) }));
    },
  );

  app.get(
    endpoints.myTeam.url,
    {
      preHandler: requireUser,
      schema: endpoints.myTeam.schema,
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { tournamentId } = request.params;
      if (!(await findLiveTournament(app.store.db, tournamentId))) throw notFound(TOURNAMENT_NOT_FOUND);
      const row = await findUserRegistration(app.store.db, tournamentId, user.id);
      if (!row) throw notFound(NO_TEAM);
      reply.header('cache-control', 'private, no-store');
      const placements = await teamPlacements(app.store.db, [row.id]);
      const [answer] = await withCharacterIds(app.store.db, [toRegistration(row)]);
      return withPlacements(answer!, placements.get(row.id));
    },
  );

  app.put(
    endpoints.updateTeam.url,
    {
      preHandler: requireUser,
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
          if (!tournament) throw notFound(TOURNAMENT_NOT_FOUND);
          const existing = await findUserRegistration(trx, tournamentId, user.id);
          if (!existing) throw notFound(NO_TEAM);
          registrationId = existing.id;
          const frozen =
            TEAM_LOCKED_MESSAGES[tournament.status] ??
            (Date.now() >= Date.parse(tournament.start_date) ? TEAM_LOCKED_MESSAGES.Ongoing : undefined);
          if (frozen) throw conflict(frozen);
          if (await isTeamNameTaken(trx, tournamentId, team.teamName, existing.id)) throw teamNameTaken();
          const clashes = await findIgnClashes(trx, tournamentId, team, existing.id);
          if (clashes.length > 0) throw ignTaken(clashes);
          const idClashes = await findCharacterIdClashes(trx, tournamentId, team, existing.id);
          if (idClashes.length > 0) throw characterIdTaken(idClashes);
          const updated = await updateRegistrationTeam(trx, existing.id, tournamentId, team);
          await saveCharacterIds(trx, tournamentId, existing.id, team);
          if (updated.team_name !== existing.team_name) await bumpGeneration(trx, tournamentId); // points tables show team names
          return updated;
        });
        const [answer] = await withCharacterIds(app.store.db, [toRegistration(row)]);
        return answer;
      } catch (err) {
        throw await asTeamConflict(err, tournamentId, team, registrationId);
      }
    },
  );

  app.post(
    endpoints.submitPayment.url,
    {
      preHandler: requireUser,
      schema: endpoints.submitPayment.schema,
    },
    async (request) => {
      const user = currentUser(request);
      const { tournamentId } = request.params;
      if (!(await findLiveTournament(app.store.db, tournamentId))) throw notFound(TOURNAMENT_NOT_FOUND);
      const existing = await findUserRegistration(app.store.db, tournamentId, user.id);
      if (!existing) throw notFound(NO_TEAM);
      const utr = request.body.upiReference;
      if (existing.payment_status === 'verified') throw conflict(ALREADY_VERIFIED);
      try {
        const row = await app.store.writeTransaction(async (trx) => {
          // The friendly check (older duplicates included); the unique payment_utr decides between two submits at once.
          if (await isReferenceTaken(trx, utr, existing.id)) throw utrTaken();
          return submitPayment(trx, existing.id, utr);
        });
        if (!row) throw conflict(ALREADY_VERIFIED);
        const [answer] = await withCharacterIds(app.store.db, [toRegistration(row)]);
        return answer;
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
      onRequest: requireAdmin,
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
        return setPayments(trx, tournamentId, rids, paymentStatus);
      });
      return withCharacterIds(app.store.db, rows.map(toRegistration));
    },
  );

  app.put(
    endpoints.setPaymentStatus.url,
    {
      preHandler: requireAdmin,
      schema: endpoints.setPaymentStatus.schema,
    },
    async (request) => {
      const { rid } = request.params;
      const { paymentStatus, expectedUpiReference } = request.body;
      const row = await app.store.writeTransaction(async (trx) => {
        const [current] = await findPaymentsForUpdate(trx, [rid], app.store.dialect === 'postgres');
        if (!current) throw notFound('Registration not found.');
        const check = referenceCheck(current.payment_reference, expectedUpiReference, paymentStatus);
        if (check === 'missing') throw badRequest(REFERENCE_MISSING, { expectedUpiReference: REFERENCE_MISSING });
        if (check === 'changed') throw conflict(REFERENCE_CHANGED, { expectedUpiReference: REFERENCE_CHANGED });
        return setPayment(trx, rid, paymentStatus);
      });
      if (!row) throw notFound('Registration not found.');
      const [answer] = await withCharacterIds(app.store.db, [toRegistration(row)]);
      return answer;
    },
  );
};

export default routes;
