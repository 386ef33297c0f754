import { type EmptySlots, type SlotFill, type Stage, TOURNAMENT_NOT_FOUND } from '@custom-room/contract';
import { bumpGeneration } from '../../db/generation.js';
import type { Trx } from '../../db/index.js';
import { enqueueEvent } from '../../db/outbox.js';
import { findPlaceRules } from '../../db/places.js';
import { countRegistrations, findRegistrationById, isConfirmedTeam } from '../../db/registrations.js';
import { placeSeatedTeam, seat, stageGroups, unseatedTeams, waitlistTeams } from '../../db/stage-groups.js';
import { findStageRow, type StageRow } from '../../db/stages.js';
import { isoAt } from '../../lib/clock.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { payByFor } from '../places/rules.js';
import { settlePlaces } from '../places/settle.js';
import { stageJson } from './json.js';
import { checkSlotInRange, findStageOr404, groupNotInStage, refuse, slotRange, type StageDeps, writeStage } from './stage.js';

/**
 * Decision 052: once a stage is published places no longer move by themselves. A team that leaves leaves
 * its slot empty, and the organiser seats a waitlisted team, or a confirmed team without a slot, in it.
 */

/** Every free slot of each group of the stage, in group and slot order. */
async function freeSlots(db: Trx, stage: StageRow): Promise<EmptySlots['slots']> {
  const groups = (await stageGroups(db, [stage.id])).get(stage.id) ?? [];
  const { first, last } = slotRange(stage);
  return groups.flatMap((group) => {
    const taken = new Set(group.slots.map((s) => s.slot));
    const free = [];
    for (let slot = first; slot <= last; slot++) if (!taken.has(slot)) free.push({ groupId: group.id, groupName: group.name, slot });
    return free;
  });
}

/** The teams that may fill an empty slot: the waitlist in its order, then confirmed teams without a slot in the stage. */
async function seatable(db: Trx, stage: StageRow, entryFee: number): Promise<EmptySlots['teams']> {
  const [waiting, placed] = await Promise.all([waitlistTeams(db, Number(stage.tournament_id)), unseatedTeams(db, stage)]);
  return [
    ...waiting.map((r, i) => ({
      teamId: Number(r.id),
      teamName: r.team_name,
      from: 'waitlist' as const,
      waitlistPosition: i + 1,
      confirmed: entryFee <= 0,
    })),
    ...placed
      .filter((r) => isConfirmedTeam(r, entryFee))
      .map((r) => ({ teamId: Number(r.id), teamName: r.team_name, from: 'unseated' as const, waitlistPosition: null, confirmed: true })),
  ];
}

function refuseUnlessPublished(stage: StageRow) {
  if (stage.state === 'draft') throw conflict(`${stage.name} is not published yet: draw its groups again, or move teams.`);
  if (stage.state === 'completed') throw refuse.completed(stage.name);
}

export async function emptySlots(deps: StageDeps, tid: number, stageId: number): Promise<EmptySlots> {
  const db = deps.store.db;
  const { entryFee, stage } = await findStageOr404(db, tid, stageId);
  refuseUnlessPublished(stage);
  const [slots, teams] = await Promise.all([freeSlots(db, stage), seatable(db, stage, entryFee)]);
  return { slots, teams };
}

/** Seats a team in an empty slot of a published stage; a waitlisted team takes a place (and a deadline to pay). */
export function fillSlot(deps: StageDeps, tid: number, stageId: number, { groupId, slot, teamId }: SlotFill): Promise<Stage> {
  return writeStage(deps, tid, stageId, async ({ trx, stage, entryFee }) => {
    refuseUnlessPublished(stage);
    const rules = await findPlaceRules(trx, tid);
    if (!rules) throw notFound(TOURNAMENT_NOT_FOUND);
    const at = deps.clock.now();
    await settlePlaces(trx, rules, at); // an overdue team is released (and its slot emptied) before anyone is seated
    const groups = (await stageGroups(trx, [stage.id])).get(stage.id) ?? [];
    const group = groups.find((g) => g.id === groupId);
    if (!group) throw groupNotInStage(stage, 'groupId');
    checkSlotInRange(stage, slot, 'slot');
    const holder = group.slots.find((s) => s.slot === slot);
    if (holder) {
      const message = `Slot ${slot} of Group ${group.name} is taken by ${holder.teamName}.`;
      throw conflict(message, { slot: message });
    }
    const team = await findRegistrationById(trx, teamId);
    if (!team || Number(team.tournament_id) !== tid) {
      const message = 'This team is not registered in the tournament.';
      throw badRequest(message, { teamId: message });
    }
    const refuseTeam = (message: string) => conflict(message, { teamId: message });
    if (team.place === 'released' || team.place === 'withdrawn')
      throw refuseTeam(`${team.team_name} no longer has a place in the tournament.`);
    const already = groups.flatMap((g) => g.slots.map((s) => ({ group: g.name, ...s }))).find((s) => s.teamId === teamId);
    if (already) throw refuseTeam(`${team.team_name} already plays in Group ${already.group}, slot ${already.slot} of ${stage.name}.`);
    let payBy: string | null = null;
    if (team.place === 'waitlist') {
      // Max Teams holds after the draw too: a seated waitlisted team takes a place.
      if ((await countRegistrations(trx, tid)) >= Number(rules.max_teams)) {
        throw refuseTeam(`All ${rules.max_teams} places are taken: raise Max Teams, or seat a confirmed team without a slot.`);
      }
      payBy = payByFor(rules, at);
      await placeSeatedTeam(trx, team.id, payBy, isoAt(at));
    } else if (!isConfirmedTeam(team, entryFee)) {
      throw refuseTeam(`${team.team_name} has not paid: verify its payment before seating it.`);
    }
    await seat(trx, { group_id: group.id, stage_id: stage.id, registration_id: team.id, slot });
    const data = {
      teamName: team.team_name,
      stageId: stage.id,
      stageName: stage.name,
      groupName: group.name,
      slot,
      ...(payBy ? { payBy } : {}),
    };
    await enqueueEvent(trx, { kind: 'seated', tournamentId: tid, audience: { registrations: [team.id] }, data }, at);
    await bumpGeneration(trx, tid);
    return stageJson(trx, (await findStageRow(trx, tid, stage.id))!, entryFee);
  });
}
