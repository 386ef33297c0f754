import type { FastifyBaseLogger } from 'fastify';
import { LATE_PLACEMENT_GRACE_HOURS, mayWithdraw, SETTLED_STATUSES, type ReleaseReason } from '@custom-room/contract';
import type { DatabaseHandle, Trx } from './index.js';
import { enqueueEvent } from './outbox.js';
import { countRegistrations } from './registrations.js';
import { bumpGeneration } from './generation.js';
import { isoAt } from '../lib/clock.js';

/**
 * A team's place (issue 19, decision 043). Every write that changes places runs in one transaction that
 * first locks the tournament row (PostgreSQL: SELECT … FOR UPDATE; SQLite: BEGIN IMMEDIATE holds the whole
 * database), so counting places and filling them cannot interleave with another such write.
 */

const HOUR_MS = 3_600_000;

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

/**
 * The payment deadline of a team placed at placedMs: none for free tournaments or without a setting.
 * A fixed time holds as it is for a team that registers before it (the organiser's rule, shown when it
 * registers); a team placed at or after it, or placed by the gateway (a promotion, a deadline changed
 * after the fact: `registering` false), has until the fixed time or an hour, whichever is later.
 */
export function payByFor(
  rules: Pick<PlaceRules, 'entry_fee' | 'payment_deadline_hours' | 'payment_deadline_at'>,
  placedMs: number,
  { registering = false }: { registering?: boolean } = {},
) {
  if (Number(rules.entry_fee) <= 0) return null;
  if (rules.payment_deadline_hours) return isoAt(placedMs + Number(rules.payment_deadline_hours) * HOUR_MS);
  if (rules.payment_deadline_at) {
    const fixed = Date.parse(rules.payment_deadline_at);
    if (registering && placedMs < fixed) return isoAt(fixed);
    return isoAt(Math.max(fixed, placedMs + LATE_PLACEMENT_GRACE_HOURS * HOUR_MS));
  }
  return null;
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

/** Over or called off (the contract's SETTLED_STATUSES): places no longer move. */
const isSettled = (status: string) => (SETTLED_STATUSES as readonly string[]).includes(status);

/**
 * Placed teams (of a tournament, or of all) whose deadline passed at nowIso without a verified or submitted
 * payment; not in a tournament that is over, cancelled or deleted (nobody is told of a place lost there).
 */
function overdue(db: Trx, nowIso: string) {
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
    .where('pay_by', '<=', nowIso)
    .where('payment_status', 'in', RELEASABLE_PAYMENTS);
}

/** Places taken at nowIso: placed teams not overdue, and every waitlisted team (they get freed places first). */
export async function countTaken(db: Trx, tournamentId: number, nowMs: number): Promise<number> {
  const now = isoAt(nowMs);
  const row = await db
    .selectFrom('registrations')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('tournament_id', '=', tournamentId)
    .where((eb) =>
      eb.or([
        eb('place', '=', 'waitlist'),
        eb.and([
          eb('place', '=', 'placed'),
          eb.or([eb('pay_by', 'is', null), eb('pay_by', '>', now), eb('payment_status', 'not in', RELEASABLE_PAYMENTS)]),
        ]),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** 1 for the first waitlisted team of its tournament. */
export async function waitlistPosition(db: Trx, registration: { id: number; tournament_id: number; place: string }) {
  if (registration.place !== 'waitlist') return null;
  const row = await db
    .selectFrom('registrations')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('tournament_id', '=', registration.tournament_id)
    .where('place', '=', 'waitlist')
    .where('id', '<=', registration.id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Takes the team out: its place, team name (partial unique indexes, migration 012) and IGNs (their rows
 * are deleted) are free from now on. The UTR stays claimed. Returns false when it held no place.
 */
export async function leavePlace(
  db: Trx,
  registrationId: number,
  to: { place: 'released'; reason: ReleaseReason } | { place: 'withdrawn' },
  nowMs: number,
): Promise<boolean> {
  const now = isoAt(nowMs);
  const result = await db
    .updateTable('registrations')
    .set({
      place: to.place,
      released_at: now,
      released_reason: to.place === 'released' ? to.reason : null,
      pay_by: null,
      updated_at: now,
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
  // Decision 052: the team's slot is empty in a draft stage, and in a published one where it has no result
  // yet (the organiser may fill it); a slot with results, or in a completed stage, keeps its history.
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
  return true;
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

const WITHDRAW_CLOSED = 'Registration has closed: the team can no longer withdraw. Contact the organiser.';

/**
 * Why the captain of a placed or waitlisted team may not withdraw at nowMs, or null when it may (the
 * contract's mayWithdraw): a placed team until registration closes, a waitlisted one until the tournament
 * is Completed or Cancelled (it holds no place; decision 043).
 */
export function withdrawalRefusal(place: string, tournament: { status: string; registration_close: string }, nowMs: number): string | null {
  if (mayWithdraw(place, { status: tournament.status, registrationClose: tournament.registration_close }, nowMs)) return null;
  if (place === 'waitlist') return `The tournament is ${tournament.status.toLowerCase()}: the team can no longer leave the waitlist.`;
  return WITHDRAW_CLOSED;
}

/** Releases one team and records its `released` event. */
export async function releaseTeam(
  db: Trx,
  team: { id: number; tournament_id: number; team_name: string },
  reason: ReleaseReason,
  nowMs: number,
) {
  if (!(await leavePlace(db, team.id, { place: 'released', reason }, nowMs))) return false;
  await enqueueEvent(
    db,
    {
      kind: 'released',
      tournamentId: team.tournament_id,
      audience: { registrations: [team.id] },
      data: { teamName: team.team_name, reason },
    },
    nowMs,
  );
  return true;
}

/** Releases the tournament's overdue teams. Call with the tournament locked. Returns how many. */
export async function releaseOverdue(db: Trx, tournamentId: number, nowMs: number): Promise<number> {
  const rows = await overdue(db, isoAt(nowMs))
    .select(['id', 'tournament_id', 'team_name'])
    .where('tournament_id', '=', tournamentId)
    .orderBy('id')
    .execute();
  let released = 0;
  for (const row of rows) if (await releaseTeam(db, row, 'payment-deadline', nowMs)) released++;
  return released;
}

/**
 * Promotes waitlisted teams, first come first, into the free places; each gets its own payment deadline
 * and a `promoted` event. Not once the tournament is over, nor once a stage is published (decision 052).
 * Call with the tournament locked. Returns the promoted registration ids.
 */
export async function fillPlaces(db: Trx, rules: PlaceRules, nowMs: number): Promise<number[]> {
  if (isSettled(rules.status)) return [];
  // Decision 052: after the draw a freed place stays free; the organiser seats teams in empty slots.
  if (await drawPublished(db, rules.id)) return [];
  const free = Number(rules.max_teams) - (await countRegistrations(db, rules.id));
  if (free <= 0) return [];
  const next = await db
    .selectFrom('registrations')
    .select(['id', 'team_name'])
    .where('tournament_id', '=', rules.id)
    .where('place', '=', 'waitlist')
    .orderBy('id')
    .limit(free)
    .execute();
  const now = isoAt(nowMs);
  const payBy = payByFor(rules, nowMs);
  for (const row of next) {
    await db
      .updateTable('registrations')
      .set({ place: 'placed', placed_at: now, pay_by: payBy, updated_at: now })
      .where('id', '=', row.id)
      .execute();
    await enqueueEvent(
      db,
      { kind: 'promoted', tournamentId: rules.id, audience: { registrations: [row.id] }, data: { teamName: row.team_name, payBy } },
      nowMs,
    );
  }
  return next.map((r) => Number(r.id));
}

/** Releases the overdue teams and fills the freed places; bumps the cache generation when anything moved. */
export async function settlePlaces(db: Trx, rules: PlaceRules, nowMs: number): Promise<{ released: number; promoted: number[] }> {
  const released = await releaseOverdue(db, rules.id, nowMs);
  const promoted = released > 0 ? await fillPlaces(db, rules, nowMs) : [];
  if (released > 0 || promoted.length > 0) await bumpGeneration(db, rules.id); // registeredTeams
  return { released, promoted };
}

/** Tournaments (among ids, or all) with a team overdue at nowMs: a plain read, no lock. */
export async function tournamentsWithOverdue(db: Trx, nowMs: number, ids?: readonly number[]): Promise<number[]> {
  if (ids && ids.length === 0) return [];
  let query = overdue(db, isoAt(nowMs)).select('tournament_id').distinct();
  if (ids) query = query.where('tournament_id', 'in', ids);
  return (await query.execute()).map((r) => Number(r.tournament_id));
}

/**
 * The deadline sweep (decision 043): releases every overdue team and promotes waitlisted teams into the
 * freed places, one transaction per tournament, the tournament locked. Safe to run in several processes
 * at once: inside the lock the overdue teams are read again, so a team is released once. Returns how
 * many teams were released. Also called lazily, for the tournaments a read is about (ids).
 */
export async function sweepDeadlines(store: DatabaseHandle, nowMs: number, ids?: readonly number[]): Promise<number> {
  let released = 0;
  for (const tournamentId of await tournamentsWithOverdue(store.db, nowMs, ids)) {
    released += await store.writeTransaction(async (trx) => {
      const locked = await store.lockTournament(trx, tournamentId);
      const rules = locked && (await findPlaceRules(trx, tournamentId));
      if (!rules) return 0;
      return (await settlePlaces(trx, rules, nowMs)).released;
    });
  }
  return released;
}

/** Runs sweepDeadlines every intervalMs (never two at once in this process); stop() ends it. */
export function startDeadlineSweeper(store: DatabaseHandle, clock: { now(): number }, intervalMs: number, log: FastifyBaseLogger) {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = sweepDeadlines(store, clock.now())
      .catch((err) => log.warn({ err }, 'payment deadline sweep failed'))
      .finally(() => (running = undefined));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

/** The ordered key of the organiser's list: payments to check first, gone teams last. */
export function listOrder(row: { place: string; payment_status: string }, confirmed: boolean): number {
  if (row.place === 'released' || row.place === 'withdrawn') return 4;
  if (row.place === 'waitlist') return 3;
  if (confirmed) return 2;
  return row.payment_status === 'submitted' ? 0 : 1;
}
