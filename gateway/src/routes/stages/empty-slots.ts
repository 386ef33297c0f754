import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Trx } from '../../db/index.js';
import { bumpGeneration } from '../../db/generation.js';
import { enqueueEvent } from '../../db/outbox.js';
import { findPlaceRules } from '../../db/places.js';
import { payByFor } from '../../services/places/rules.js';
import { settlePlaces } from '../../services/places/settle.js';
import { countRegistrations, findRegistrationById, isConfirmedTeam } from '../../db/registrations.js';
import { findStageRow, stageGroups, type StageRow } from '../../db/stages.js';
import { isoAt } from '../../lib/clock.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';

import { endpoints, type EmptySlots, STAGE_NOT_FOUND, TOURNAMENT_NOT_FOUND } from '@custom-room/contract';
import { lockStage, stageJson } from './index.js';

/**
 * Decision 052: once a stage is published places no longer move by themselves. A team that leaves leaves
 * its slot empty, and the organiser seats a waitlisted team, or a confirmed team without a slot, in it.
 */

/** Every free slot of each group of the stage, in group and slot order. */
async function freeSlots(db: Trx, stage: StageRow): Promise<EmptySlots['slots']> {
  const groups = (await stageGroups(db, [stage.id])).get(stage.id) ?? [];
  const first = Number(stage.first_slot);
  const last = first + Number(stage.lobby_size) - 1;
  return groups.flatMap((group) => {
    const taken = new Set(group.slots.map((s) => s.slot));
    const free = [];
    for (let slot = first; slot <= last; slot++) if (!taken.has(slot)) free.push({ groupId: group.id, groupName: group.name, slot });
    return free;
  });
}

/** The teams that may fill an empty slot: the waitlist in its order, then confirmed teams without a slot in the stage. */
async function seatable(db: Trx, stage: StageRow, entryFee: number): Promise<EmptySlots['teams']> {
  const seated = db.selectFrom('group_slots').select('registration_id').where('stage_id', '=', stage.id);
  const [waiting, placed] = await Promise.all([
    db
      .selectFrom('registrations')
      .select(['id', 'team_name'])
      .where('tournament_id', '=', stage.tournament_id)
      .where('place', '=', 'waitlist')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('registrations')
      .select(['id', 'team_name', 'place', 'payment_status'])
      .where('tournament_id', '=', stage.tournament_id)
      .where('place', '=', 'placed')
      .where('id', 'not in', seated)
      .orderBy('id')
      .execute(),
  ]);
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
  if (stage.state === 'completed') throw conflict(`${stage.name} is completed: reopen it first.`);
}

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(endpoints.emptySlots.url, { schema: endpoints.emptySlots.schema }, async (request, reply) => {
    const { id: tid, stageId } = request.params;
    const tournament = await app.store.db
      .selectFrom('tournaments')
      .select('entry_fee')
      .where('id', '=', tid)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!tournament) throw notFound(TOURNAMENT_NOT_FOUND);
    const stage = await findStageRow(app.store.db, tid, stageId);
    if (!stage) throw notFound(STAGE_NOT_FOUND);
    refuseUnlessPublished(stage);
    reply.header('cache-control', 'private, no-store');
    const [slots, teams] = await Promise.all([freeSlots(app.store.db, stage), seatable(app.store.db, stage, Number(tournament.entry_fee))]);
    return { slots, teams };
  });

  app.post(endpoints.fillSlot.url, { schema: endpoints.fillSlot.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    const { groupId, slot, teamId } = request.body;
    return app.store.writeTransaction(async (trx) => {
      const { stage, tournament } = await lockStage(app, trx, tid, stageId);
      refuseUnlessPublished(stage);
      const rules = await findPlaceRules(trx, tid);
      if (!rules) throw notFound(TOURNAMENT_NOT_FOUND);
      const at = app.clock.now();
      await settlePlaces(trx, rules, at); // an overdue team is released (and its slot emptied) before anyone is seated
      const groups = (await stageGroups(trx, [stage.id])).get(stage.id) ?? [];
      const group = groups.find((g) => g.id === groupId);
      if (!group) throw badRequest(`That group is not in ${stage.name}.`, { groupId: `That group is not in ${stage.name}.` });
      const first = Number(stage.first_slot);
      const last = first + Number(stage.lobby_size) - 1;
      if (slot < first || slot > last) {
        const message = `Slots of ${stage.name} are ${first} to ${last}.`;
        throw badRequest(message, { slot: message });
      }
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
        const now = isoAt(at);
        await trx
          .updateTable('registrations')
          .set({ place: 'placed', placed_at: now, pay_by: payBy, updated_at: now })
          .where('id', '=', team.id)
          .execute();
      } else if (!isConfirmedTeam(team, tournament.entryFee)) {
        throw refuseTeam(`${team.team_name} has not paid: verify its payment before seating it.`);
      }
      await trx.insertInto('group_slots').values({ group_id: group.id, stage_id: stage.id, registration_id: team.id, slot }).execute();
      await enqueueEvent(
        trx,
        {
          kind: 'seated',
          tournamentId: tid,
          audience: { registrations: [team.id] },
          data: {
            teamName: team.team_name,
            stageId: stage.id,
            stageName: stage.name,
            groupName: group.name,
            slot,
            ...(payBy ? { payBy } : {}),
          },
        },
        at,
      );
      await bumpGeneration(trx, tid);
      return stageJson(trx, (await findStageRow(trx, tid, stage.id))!, tournament.entryFee);
    });
  });
};

export default routes;
