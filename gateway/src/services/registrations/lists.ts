import { captainContacts, withCharacterIds } from '../../db/identity.js';
import { listTournamentRegistrations, listUserRegistrations } from '../../db/registration-lists.js';
import { findUserRegistration, findTournamentsOfUser, type RegistrationRow } from '../../db/registrations.js';
import { teamCheckIns, teamPlacements, type StageRow } from '../../db/stages.js';
import { notFound } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';
import { liveTournamentOr404 } from '../live-tournament.js';
import { listOrder } from '../places/rules.js';
import { sweepDeadlines } from '../places/sweep.js';
import { registrationAnswer, withCheckIns, withPlacements } from './answers.js';
import { NO_TEAM } from './refusals.js';

/** The reads of teams. Each first settles the deadlines it is about: a read never shows an overdue team as placed. */

/** The user's teams, newest first, with their placements and check-ins. */
export async function myRegistrations({ store, clock }: ServiceDeps, userId: number) {
  // A waitlisted team may be promoted into an overdue place too.
  await sweepDeadlines(store, clock.now(), await findTournamentsOfUser(store.db, userId));
  const rows = await listUserRegistrations(store.db, userId, clock.now());
  const placements = await teamPlacements(
    store.db,
    rows.map((r) => r.rid),
  );
  const checkIns = await teamCheckIns(
    store.db,
    rows.map((r) => ({ id: r.rid, tournament_id: r.tid, place: r.place })),
    new Map(rows.map((r) => [r.tid, r.tournament.entryFee])),
    clock.now(),
  );
  return (await withCharacterIds(store.db, rows)).map((r) => withCheckIns(withPlacements(r, placements.get(r.rid)), checkIns.get(r.rid)));
}

/**
 * The organiser's list of the teams of a tournament found live (liveTournamentOr404), with each team's
 * order key, its captain's contacts and its check-ins.
 */
export async function tournamentRegistrations({ store, clock }: ServiceDeps, tournament: { id: number; entry_fee: number }) {
  const tournamentId = tournament.id;
  await sweepDeadlines(store, clock.now(), [tournamentId]);
  const [teams, contacts] = await Promise.all([
    listTournamentRegistrations(store.db, tournamentId, Number(tournament.entry_fee)),
    captainContacts(store.db, tournamentId),
  ]);
  const rows = teams.map(({ registration, username, sameReferenceAs }) => ({
    ...registration,
    username,
    listOrder: listOrder(registration, registration.confirmed),
    sameReferenceAs,
  }));
  const checkIns = await teamCheckIns(
    store.db,
    rows.map((r) => ({ id: r.rid, tournament_id: r.tid, place: r.place })),
    new Map([[tournamentId, Number(tournament.entry_fee)]]),
    clock.now(),
  );
  return (await withCharacterIds(store.db, rows)).map((r) => withCheckIns({ ...r, ...contacts.get(r.rid) }, checkIns.get(r.rid)));
}

/** The user's team in the tournament, with its placements and check-ins. */
export async function myTeam({ store, clock }: ServiceDeps, tournamentId: number, userId: number) {
  const tournament = await liveTournamentOr404(store.db, tournamentId);
  await sweepDeadlines(store, clock.now(), [tournamentId]);
  const row = await findUserRegistration(store.db, tournamentId, userId);
  if (!row) throw notFound(NO_TEAM);
  return teamAnswer({ store, clock }, Number(tournament.entry_fee), row);
}

/**
 * myTeam for a registration already read, after the deadline sweep (the room page's answer reads it once,
 * decision 087). checkInStages: the tournament's stages with a check-in window, when the caller has them.
 */
export async function teamAnswer(
  { store, clock }: ServiceDeps,
  entryFee: number,
  row: RegistrationRow,
  checkInStages?: readonly StageRow[],
) {
  const [placements, checkIns, answer] = await Promise.all([
    teamPlacements(store.db, [row.id]),
    teamCheckIns(store.db, [row], new Map([[Number(row.tournament_id), entryFee]]), clock.now(), checkInStages),
    registrationAnswer(store.db, row, entryFee),
  ]);
  return withCheckIns(withPlacements(answer, placements.get(row.id)), checkIns.get(row.id));
}
