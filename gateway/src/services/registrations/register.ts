import type { TeamWithIds } from '@custom-room/contract';
import { bumpGeneration } from '../../db/generation.js';
import { saveCharacterIds } from '../../db/identity.js';
import { countTaken } from '../../db/places.js';
import { findLiveTournament, insertRegistration, type RegistrationRow } from '../../db/registrations.js';
import { runsTournament } from '../../db/staff.js';
import { isoAt } from '../../lib/clock.js';
import { conflict, type HttpError } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';
import { payByFor } from '../places/rules.js';
import { lockPlaceRulesOr404, settlePlaces } from '../places/settle.js';
import { registrationAnswer } from './answers.js';
import { asTeamConflict, characterIdRefusal, registrationVerdict } from './checks.js';
import { CREW_CANNOT_PLAY, FULL } from './refusals.js';

/**
 * A team's registration (decisions 007, 026, 043). One registrar per app: it holds which tournaments
 * this process saw full and the queue of registrations per tournament.
 */
export function createRegistrar(deps: ServiceDeps) {
  const { store, clock } = deps;
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
    const seen = await findLiveTournament(store.db, tournamentId);
    if (!seen || (await countTaken(store.db, tournamentId, isoAt(clock.now()))) < seen.max_teams) {
      knownFull.delete(tournamentId); // an admin may have raised maxTeams, a team may have left
      return undefined;
    }
    return (await registrationVerdict(store.db, seen, userId, team, clock.now(), false)).refusal;
  }

  /** The registration in one transaction, the tournament locked: the count below cannot go stale before the insert. */
  function insertInTurn(tournamentId: number, userId: number, team: TeamWithIds, waitlist: boolean) {
    return store.writeTransaction(async (trx) => {
      const { locked: tournament, rules } = await lockPlaceRulesOr404(store, trx, tournamentId);
      const at = clock.now();
      await settlePlaces(trx, rules, at); // overdue teams leave, the waitlist moves up first
      const verdict = await registrationVerdict(trx, tournament, userId, team, at, waitlist);
      if (verdict.refusal?.message === FULL || verdict.place === 'waitlist') knownFull.add(tournamentId);
      if (verdict.refusal) throw verdict.refusal;
      const inserted = await insertRegistration(trx, tournamentId, userId, team, {
        place: verdict.place,
        payBy: payByFor(rules, at, { registering: true }),
        now: isoAt(at),
      });
      await saveCharacterIds(trx, tournamentId, inserted.id, team);
      if (verdict.place === 'placed') await bumpGeneration(trx, tournamentId); // registeredTeams
      return inserted;
    });
  }

  /** Registers the user's team (on the waitlist when full and asked); the registration's answer. */
  async function register(tournamentId: number, userId: number, team: TeamWithIds, waitlist: boolean) {
    const badIds = await characterIdRefusal(store.db, tournamentId, team);
    if (badIds) throw badIds;
    // Decision 065: whoever runs the tournament does not play in it (a plain read, outside the rush's lock).
    if (await runsTournament(store.db, tournamentId, userId)) throw conflict(CREW_CANNOT_PLAY);
    try {
      // A rush (decision 026): the crowd behind the last slot is answered from plain reads, never
      // queueing for the tournament's lock (a team that leaves frees its place for the waitlist first).
      // Registrations of one tournament also take turns in this process before asking the database
      // for that lock: PostgreSQL's lock queue would otherwise hold every pooled connection, and
      // every other call (token checks, pages) would wait behind it.
      let row: RegistrationRow | null = null;
      for (let attempt = 0; !row; attempt++) {
        const refusal = waitlist ? undefined : await refusalIfFull(tournamentId, userId, team);
        if (refusal) throw refusal;
        row = await inTurn<RegistrationRow | null>(tournamentId, () =>
          // Filled while this one waited: leave the queue, the reads above answer.
          attempt === 0 && !waitlist && knownFull.has(tournamentId)
            ? Promise.resolve(null)
            : insertInTurn(tournamentId, userId, team, waitlist),
        );
      }
      return await registrationAnswer(store.db, row);
    } catch (err) {
      throw await asTeamConflict(store.db, err, tournamentId, team);
    }
  }

  return { register };
}
