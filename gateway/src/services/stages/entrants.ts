import { bumpGeneration } from '../../db/generation.js';
import { enqueueEvent } from '../../db/outbox.js';
import { getTournamentTeam } from '../../db/results.js';
import { deleteCheckIn, deleteInvite, ensureCheckIn, insertInvite } from '../../db/stage-entrants.js';
import { stageEntrants, type Entrant, type StageRow } from '../../db/stages.js';
import { isoAt } from '../../lib/clock.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { findStageOr404, type StageDeps, writeStage } from './stage.js';

/** A stage's entrants (decision 041): the first stage's confirmed teams, a later one's qualifiers and invited teams. */

export async function listEntrants(deps: StageDeps, tid: number, stageId: number): Promise<Entrant[]> {
  const { entryFee, stage } = await findStageOr404(deps.store.db, tid, stageId);
  return stageEntrants(deps.store.db, stage, entryFee);
}

function checkInvitable(stage: StageRow) {
  if (Number(stage.ord) === 1) {
    const message = "The first stage's entrants are the confirmed teams: invite teams to a later stage.";
    throw badRequest(message, { teamId: message });
  }
  if (stage.state !== 'draft') throw conflict(`${stage.name} is published: invitations are closed.`);
}

/** Invites a team to a later stage; checkIn: it checks in itself rather than counting as checked in (issue 27). */
export function inviteTeam(deps: StageDeps, tid: number, stageId: number, teamId: number, checkIn = false): Promise<Entrant[]> {
  return writeStage(deps, tid, stageId, async ({ trx, stage, entryFee }) => {
    checkInvitable(stage);
    const team = await getTournamentTeam(trx, tid, teamId);
    if (!team) {
      const message = 'This team is not registered in the tournament.';
      throw badRequest(message, { teamId: message });
    }
    const entrants = await stageEntrants(trx, stage, entryFee);
    const already = entrants.find((e) => e.teamId === teamId);
    if (already?.via === 'qualified') {
      const message = `${team.team_name} already qualified for ${stage.name}.`;
      throw conflict(message, { teamId: message });
    }
    if (!already) {
      await insertInvite(trx, stage.id, teamId);
      // Issue 27: an invited team counts as checked in (it is drawn) unless the organiser asks it to check in.
      const now = deps.clock.now();
      if (!checkIn) await ensureCheckIn(trx, stage.id, teamId, isoAt(now));
      await enqueueEvent(
        trx,
        {
          kind: 'invited',
          tournamentId: tid,
          audience: { registrations: [teamId] },
          data: { stageId: stage.id, stageName: stage.name, checkIn: checkIn && !!stage.check_in_opens_at },
        },
        now,
      );
      await bumpGeneration(trx, tid);
    }
    return stageEntrants(trx, stage, entryFee);
  });
}

export function removeInvite(deps: StageDeps, tid: number, stageId: number, teamId: number): Promise<Entrant[]> {
  return writeStage(deps, tid, stageId, async ({ trx, stage, entryFee }) => {
    checkInvitable(stage);
    if (!(await deleteInvite(trx, stage.id, teamId))) throw notFound('This team is not invited to this stage.');
    await deleteCheckIn(trx, stage.id, teamId);
    await bumpGeneration(trx, tid);
    return stageEntrants(trx, stage, entryFee);
  });
}
