import { TOURNAMENT_NOT_FOUND, type ReleaseReason } from '@custom-room/contract';
import { bumpGeneration } from '../../db/generation.js';
import type { DatabaseHandle, Trx } from '../../db/index.js';
import { enqueueEvent } from '../../db/outbox.js';
import {
  drawPublished,
  findOverdueTeams,
  findPlaceRules,
  findWaitlistHead,
  leavePlace,
  placeTeam,
  type PlaceRules,
} from '../../db/places.js';
import { countRegistrations } from '../../db/registrations.js';
import { isoAt } from '../../lib/clock.js';
import { notFound } from '../../lib/errors.js';
import { lockLiveTournamentOr404 } from '../live-tournament.js';
import { isSettled, payByFor } from './rules.js';

/**
 * Places move here (issue 19, decision 043): a team is released, the waitlist is promoted into the freed
 * places. Call each with the tournament locked (PostgreSQL: SELECT … FOR UPDATE; SQLite: BEGIN IMMEDIATE
 * holds the whole database), so counting places and filling them cannot interleave with another such write.
 */

/** Releases one team and records its `released` event. */
export async function releaseTeam(
  db: Trx,
  team: { id: number; tournament_id: number; team_name: string },
  reason: ReleaseReason,
  nowMs: number,
) {
  if (!(await leavePlace(db, team.id, { place: 'released', reason }, isoAt(nowMs)))) return false;
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

/** Releases the tournament's overdue teams. Returns how many. */
export async function releaseOverdue(db: Trx, tournamentId: number, nowMs: number): Promise<number> {
  let released = 0;
  for (const row of await findOverdueTeams(db, tournamentId, isoAt(nowMs))) {
    if (await releaseTeam(db, row, 'payment-deadline', nowMs)) released++;
  }
  return released;
}

/**
 * Promotes waitlisted teams, first come first, into the free places; each gets its own payment deadline
 * and a `promoted` event. Not once the tournament is over, nor once a stage is published (decision 052).
 * Returns the promoted registration ids.
 */
export async function fillPlaces(db: Trx, rules: PlaceRules, nowMs: number): Promise<number[]> {
  if (isSettled(rules.status)) return [];
  // Decision 052: after the draw a freed place stays free; the organiser seats teams in empty slots.
  if (await drawPublished(db, rules.id)) return [];
  const free = Number(rules.max_teams) - (await countRegistrations(db, rules.id));
  if (free <= 0) return [];
  const next = await findWaitlistHead(db, rules.id, free);
  const payBy = payByFor(rules, nowMs);
  for (const row of next) {
    await placeTeam(db, row.id, isoAt(nowMs), payBy);
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

/** settlePlaces for a tournament the caller has locked; nothing moves when it is missing or deleted. */
export async function settleTournament(db: Trx, tournamentId: number, nowMs: number): Promise<{ released: number; promoted: number[] }> {
  const rules = await findPlaceRules(db, tournamentId);
  return rules ? settlePlaces(db, rules, nowMs) : { released: 0, promoted: [] };
}

/** Inside a write transaction: locks the live tournament (404 when it is missing or deleted) and reads its place rules. */
export async function lockPlaceRulesOr404(store: Pick<DatabaseHandle, 'lockTournament'>, trx: Trx, tournamentId: number) {
  const locked = await lockLiveTournamentOr404(store, trx, tournamentId);
  const rules = await findPlaceRules(trx, tournamentId);
  if (!rules) throw notFound(TOURNAMENT_NOT_FOUND);
  return { locked, rules };
}
