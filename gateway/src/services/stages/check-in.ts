import { NO_TEAM_REGISTERED, NOT_PLACED_MESSAGES, type NoShowAction, type StageCheckIns } from '@custom-room/contract';
import { bumpGeneration } from '../../db/generation.js';
import type { Trx } from '../../db/index.js';
import { findPlaceRules } from '../../db/places.js';
import { findUserRegistration } from '../../db/registrations.js';
import { findCheckIn, insertCheckIns, placedTeamsAmong } from '../../db/stage-entrants.js';
import { setNoShows } from '../../db/stage-writes.js';
import { checkInState, checkInTeams, findStageRow, stageCheckIns, type StageRow } from '../../db/stages.js';
import { isoAt } from '../../lib/clock.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { fillPlaces, releaseTeam } from '../places/settle.js';
import { type StageDeps, writeStage } from './stage.js';

/** Decision 043: a stage's check-in window, a team's one-tap check-in, and what becomes of the no-shows. */

const NO_WINDOW = 'This stage has no check-in window.';

/** The stage's check-in list at nowMs; 404 without a window. */
async function checkInsJson(db: Trx, stage: StageRow, entryFee: number, nowMs: number): Promise<StageCheckIns> {
  if (!stage.check_in_opens_at || !stage.check_in_closes_at) throw notFound(NO_WINDOW);
  const [teams, checkedIn] = await Promise.all([checkInTeams(db, stage, entryFee), stageCheckIns(db, stage.id)]);
  // Promoted into a no-show's place: listed as checked in (decision 043), though maybe not yet confirmed.
  const listed = new Set(teams.map((t) => t.teamId));
  const extra = [...checkedIn.keys()].filter((id) => !listed.has(id));
  const others = extra.length > 0 ? await placedTeamsAmong(db, extra) : [];
  const all = [...teams, ...others.map((r) => ({ teamId: Number(r.id), teamName: r.team_name }))];
  return {
    stageId: Number(stage.id),
    opensAt: stage.check_in_opens_at,
    closesAt: stage.check_in_closes_at,
    closed: nowMs >= Date.parse(stage.check_in_closes_at),
    noShows: (stage.no_shows as StageCheckIns['noShows']) ?? null,
    teams: all.map((t) => ({
      ...t,
      state: checkInState(stage, checkedIn.get(t.teamId), nowMs),
      checkedInAt: checkedIn.get(t.teamId) ?? null,
    })),
  };
}

/** The check-in list of a stage found with findStageOr404, now. */
export function listCheckIns(deps: StageDeps, { stage, entryFee }: { stage: StageRow; entryFee: number }): Promise<StageCheckIns> {
  return checkInsJson(deps.store.db, stage, entryFee, deps.clock.now());
}

/** The user's team checks in for the stage; checking in again answers the first check-in. */
export function checkIn(deps: StageDeps, tid: number, stageId: number, userId: number) {
  return writeStage(deps, tid, stageId, async ({ trx, stage, entryFee }) => {
    const team = await findUserRegistration(trx, tid, userId);
    if (!team) throw notFound(NO_TEAM_REGISTERED);
    if (!stage.check_in_opens_at || !stage.check_in_closes_at) throw conflict(NO_WINDOW);
    if (team.place === 'released' || team.place === 'withdrawn') throw conflict(NOT_PLACED_MESSAGES[team.place]);
    const done = await findCheckIn(trx, stage.id, team.id);
    if (done) return { stageId: Number(stage.id), teamId: Number(team.id), checkedInAt: done };
    const eligible = (await checkInTeams(trx, stage, entryFee)).some((t) => t.teamId === Number(team.id));
    if (!eligible) throw conflict(`Your team is not confirmed for ${stage.name}: only confirmed teams check in.`);
    const at = deps.clock.now();
    if (at < Date.parse(stage.check_in_opens_at)) throw conflict(`Check-in for ${stage.name} has not opened yet.`);
    if (at >= Date.parse(stage.check_in_closes_at)) throw conflict(`Check-in for ${stage.name} has closed.`);
    const checkedInAt = isoAt(at);
    await insertCheckIns(trx, stage.id, [team.id], checkedInAt);
    return { stageId: Number(stage.id), teamId: Number(team.id), checkedInAt };
  });
}

/** The first stage, still a draft: its no-shows lose their places to the waitlist, promoted teams count as checked in. */
async function replaceNoShows(trx: Trx, stage: StageRow, noShows: readonly { teamId: number; teamName: string }[], at: number) {
  const tid = Number(stage.tournament_id);
  if (Number(stage.ord) !== 1) {
    const message = 'Only the first stage can take teams from the waitlist: leave the places empty.';
    throw badRequest(message, { action: message });
  }
  if (stage.state !== 'draft') throw conflict(`${stage.name} is published: its no-shows can only be left out.`);
  for (const t of noShows) await releaseTeam(trx, { id: t.teamId, tournament_id: tid, team_name: t.teamName }, 'no-show', at);
  const rules = await findPlaceRules(trx, tid);
  const promoted = rules ? await fillPlaces(trx, rules, at) : [];
  // Promoted after the window closed, they could not check in: they count as checked in.
  if (promoted.length > 0) await insertCheckIns(trx, stage.id, promoted, isoAt(at));
}

/** Once check-in has closed, the organiser decides the no-shows once: replace them, or leave their places empty. */
export function resolveNoShows(deps: StageDeps, tid: number, stageId: number, action: NoShowAction): Promise<StageCheckIns> {
  return writeStage(deps, tid, stageId, async ({ trx, stage, entryFee }) => {
    const at = deps.clock.now();
    const before = await checkInsJson(trx, stage, entryFee, at);
    if (!before.closed) throw conflict(`Check-in for ${stage.name} is still open: decide once it has closed.`);
    if (stage.no_shows) throw conflict(`The no-shows of ${stage.name} were already decided (${stage.no_shows}).`);
    if (action === 'replace')
      await replaceNoShows(
        trx,
        stage,
        before.teams.filter((team) => team.state === 'no-show'),
        at,
      );
    await setNoShows(trx, stage.id, action, isoAt(at));
    await bumpGeneration(trx, tid);
    return checkInsJson(trx, (await findStageRow(trx, tid, stage.id))!, entryFee, at);
  });
}
