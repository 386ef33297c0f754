import { SETTLED_STATUSES, type ReleaseReason } from '@custom-room/contract';
import type { Trx } from './index.js';

/**
 * The queries of a team's place (issue 19, decision 043). The rules that move places (settle, promote,
 * sweep) are in services/places; every write that changes places runs in one transaction that first
 * locks the tournament row, so counting places and filling them cannot interleave with another such write.
 */

/** Payments that do not keep a place once its deadline has passed (submitted ones wait for the organiser). */
export const RELEASABLE_PAYMENTS = ['pending', 'rejected'] as const;

/** The tournament settings the place rules read. */
export interface PlaceRules {
  id: number;
  max_teams: number;
  entry_fee: number;
  status: string;
  payment_deadline_hours: number | null;
  payment_deadline_at: string | null;
}

/** The locked tournament's rules; undefined when it is missing or deleted. Call after lockTournament. */
export function findPlaceRules(db: Trx, tournamentId: number): Promise<PlaceRules | undefined> {
  return db
    .selectFrom('tournaments')
    .select(['id', 'max_teams', 'entry_fee', 'status', 'payment_deadline_hours', 'payment_deadline_at'])
    .where('id', '=', tournamentId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/**
 * Placed teams (of a tournament, or of all) whose deadline passed at `at` without a verified or submitted
 * payment; not in a tournament that is over, cancelled or deleted (nobody is told of a place lost there).
 */
function overdue(db: Trx, at: string) {
  return db
    .selectFrom('registrations')
    .where('tournament_id', 'in', (eb) =>
      eb
        .selectFrom('tournaments')
        .select('id')
        .where('status', 'not in', [...SETTLED_STATUSES])
        .where('deleted_at', 'is', null),
    )
    .where('place', '=', 'placed')
    .where('pay_by', 'is not', null)
    .where('pay_by', '<=', at)
    .where('payment_status', 'in', RELEASABLE_PAYMENTS);
}

/** The tournament's teams overdue at `at`, by rid. */
export function findOverdueTeams(db: Trx, tournamentId: number, at: string) {
  return overdue(db, at).select(['id', 'tournament_id', 'team_name']).where('tournament_id', '=', tournamentId).orderBy('id').execute();
}

/** Tournaments (among ids, or all) with a team overdue at `at`: a plain read, no lock. */
export async function tournamentsWithOverdue(db: Trx, at: string, ids?: readonly number[]): Promise<number[]> {
  if (ids && ids.length === 0) return [];
  let query = overdue(db, at).select('tournament_id').distinct();
  if (ids) query = query.where('tournament_id', 'in', ids);
  return (await query.execute()).map((r) => Number(r.tournament_id));
}

/** Places taken at `at`: placed teams not overdue, and every waitlisted team (they get freed places first). */
export async function countTaken(db: Trx, tournamentId: number, at: string): Promise<number> {
  const row = await db
    .selectFrom('registrations')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('tournament_id', '=', tournamentId)
    .where((eb) =>
      eb.or([
        eb('place', '=', 'waitlist'),
        eb.and([
          eb('place', '=', 'placed'),
          eb.or([eb('pay_by', 'is', null), eb('pay_by', '>', at), eb('payment_status', 'not in', RELEASABLE_PAYMENTS)]),
        ]),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The first `limit` waitlisted teams of the tournament, first come first. */
export function findWaitlistHead(db: Trx, tournamentId: number, limit: number) {
  return db
    .selectFrom('registrations')
    .select(['id', 'team_name'])
    .where('tournament_id', '=', tournamentId)
    .where('place', '=', 'waitlist')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Gives a waitlisted team its place from `at`, with its payment deadline. */
export async function placeTeam(db: Trx, registrationId: number, at: string, payBy: string | null): Promise<void> {
  await db
    .updateTable('registrations')
    .set({ place: 'placed', placed_at: at, pay_by: payBy, updated_at: at })
    .where('id', '=', registrationId)
    .execute();
}

/**
 * Takes the team out at `at`: its place, team name (partial unique indexes, migration 012) and IGNs (their
 * rows are deleted) are free from now on. The UTR stays claimed. Returns false when it held no place.
 */
export async function leavePlace(
  db: Trx,
  registrationId: number,
  to: { place: 'released'; reason: ReleaseReason } | { place: 'withdrawn' },
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('registrations')
    .set({
      place: to.place,
      released_at: at,
      released_reason: to.place === 'released' ? to.reason : null,
      pay_by: null,
      updated_at: at,
    })
    .where('id', '=', registrationId)
    .where('place', 'in', ['placed', 'waitlist'])
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  await db.deleteFrom('registration_igns').where('registration_id', '=', registrationId).execute();
  // Decision 046: its IDs are free again. Decision 052: the team's card keeps them (moved, not deleted).
  await db
    .insertInto('left_character_ids')
    .columns(['tournament_id', 'registration_id', 'field', 'character_id'])
    .expression((eb) =>
      eb
        .selectFrom('registration_character_ids')
        .select(['tournament_id', 'registration_id', 'field', 'character_id'])
        .where('registration_id', '=', registrationId),
    )
    .execute();
  await db.deleteFrom('registration_character_ids').where('registration_id', '=', registrationId).execute();
  await emptyOpenSlots(db, registrationId);
  return true;
}

/**
 * Decision 052: the team's slot is empty in a draft stage, and in a published one where it has no result
 * yet (the organiser may fill it); a slot with results, or in a completed stage, keeps its history.
 */
async function emptyOpenSlots(db: Trx, registrationId: number) {
  await db
    .deleteFrom('group_slots')
    .where('registration_id', '=', registrationId)
    .where('stage_id', 'in', (eb) => eb.selectFrom('stages').select('id').where('state', 'in', ['draft', 'published']))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('match_results as mr')
            .innerJoin('stage_groups as g', 'g.id', 'mr.group_id')
            .select('mr.id')
            .whereRef('g.stage_id', '=', 'group_slots.stage_id')
            .where('mr.registration_id', '=', registrationId),
        ),
      ),
    )
    .execute();
}

/** Decision 052: whether a stage of the tournament is published (or completed): the draw stands, places no longer move. */
export async function drawPublished(db: Trx, tournamentId: number): Promise<boolean> {
  const row = await db
    .selectFrom('stages')
    .select('id')
    .where('tournament_id', '=', tournamentId)
    .where('state', '!=', 'draft')
    .limit(1)
    .executeTakeFirst();
  return !!row;
}

/** The organiser's removal (decision 052): the team does not come back unless the organiser allows it. */
export async function barTeam(db: Trx, registrationId: number): Promise<void> {
  await db.updateTable('registrations').set({ rejoin: 'barred' }).where('id', '=', registrationId).execute();
}

/** Lets a removed team come back from `at`; false when the organiser had not removed it. */
export async function allowTeamBack(db: Trx, registrationId: number, at: string): Promise<boolean> {
  const updated = await db
    .updateTable('registrations')
    .set({ rejoin: 'allowed', updated_at: at })
    .where('id', '=', registrationId)
    .where('rejoin', '=', 'barred')
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}
