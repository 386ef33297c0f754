import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { nowIso, type Trx } from '../../db/index.js';
import { bumpGeneration } from '../../db/generation.js';
import { enqueueEvent } from '../../db/outbox.js';
import { enqueueRoomPosted } from '../../db/notify-events.js';
import { toMatch } from '../../db/matches.js';
import {
  deleteGroups,
  findStageByOrder,
  findStageRow,
  groupMatchCounts,
  matchesWithoutResults,
  groupInfo,
  listStageRows,
  matchNumberOwner,
  replaceGroups,
  setStageState,
  checkInState,
  checkInTeams,
  stageCheckIns,
  stageEntrants,
  stageGroups,
  stageStandings,
  stagesWithResults,
  toStage,
  type Entrant,
  type StageRow,
} from '../../db/stages.js';
import { advance, dealGroups, groupSizes, newSeed, shuffleWithSeed, type RankedStageTeam } from '../../lib/stages.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { currentUser, isAdmin, optionalUser } from '../../plugins/auth.js';
import { findPlaceRules } from '../../db/places.js';
import { fillPlaces, releaseTeam } from '../../services/places/settle.js';
import { findUserRegistration } from '../../db/registrations.js';
import { isoAt } from '../../lib/clock.js';
import {
  type Advance,
  defaultLobbySize,
  endpoints,
  groupName,
  addMinutes,
  resultsInWords,
  splitWarning,
  LOBBY_MAX,
  LOBBY_MIN,
  MAX_STAGES,
  type Match,
  NOT_PLACED_MESSAGES,
  type Stage,
  type StageCheckIns,
  STAGE_NOT_FOUND,
  StageSchema,
  TOURNAMENT_NOT_FOUND,
} from '@custom-room/contract';

async function liveTournament(db: Trx, id: number) {
  const tournament = await db
    .selectFrom('tournaments')
    .select(['id', 'game', 'entry_fee', 'format'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!tournament) throw notFound(TOURNAMENT_NOT_FOUND);
  return { id: Number(tournament.id), game: tournament.game, entryFee: Number(tournament.entry_fee), format: tournament.format };
}

/** The stage with everything its JSON needs. drafts: include a draft's groups (admins). */
export async function stageJson(db: Trx, row: StageRow, entryFee: number, drafts = true): Promise<Stage> {
  const [groups, withResults, entrants, counts] = await Promise.all([
    stageGroups(db, [row.id]),
    stagesWithResults(db, [row.id]),
    stageEntrants(db, row, entryFee),
    groupMatchCounts(db, [row.id]),
  ]);
  const showGroups = drafts || row.state !== 'draft';
  return toStage(row, {
    groups: showGroups ? (groups.get(row.id) ?? []) : [],
    entrants: entrants.length,
    hasResults: withResults.has(row.id),
    groupMatches: counts.get(row.id)!,
    checkedIn: await checkedInCount(db, row, entrants),
  });
}

/** Issue 27: how many of a stage's entrants have checked in; undefined without a check-in window. */
async function checkedInCount(db: Trx, row: StageRow, entrants: readonly Entrant[]): Promise<number | undefined> {
  if (!row.check_in_opens_at || !row.check_in_closes_at) return undefined;
  const checkedIn = await stageCheckIns(db, row.id);
  return entrants.filter((e) => checkedIn.has(e.teamId)).length;
}

async function stagesJson(db: Trx, tournamentId: number, drafts: boolean): Promise<Stage[]> {
  const tournament = await liveTournament(db, tournamentId);
  const rows = await listStageRows(db, tournamentId);
  const ids = rows.map((r) => r.id);
  const [groups, withResults, entrants, counts] = await Promise.all([
    stageGroups(db, ids),
    stagesWithResults(db, ids),
    Promise.all(rows.map((r) => stageEntrants(db, r, tournament.entryFee))),
    groupMatchCounts(db, ids),
  ]);
  const checkedIn = await Promise.all(rows.map((r, i) => checkedInCount(db, r, entrants[i])));
  return rows.map((row, i) =>
    toStage(row, {
      groups: drafts || row.state !== 'draft' ? (groups.get(row.id) ?? []) : [],
      entrants: entrants[i].length,
      hasResults: withResults.has(row.id),
      groupMatches: counts.get(row.id)!,
      checkedIn: checkedIn[i],
    }),
  );
}

/** Inside a write transaction: locks the tournament, then reads the stage. */
export async function lockStage(
  app: { store: { lockTournament: (trx: Trx, id: number) => Promise<{ deleted_at: string | null } | undefined> } },
  trx: Trx,
  tid: number,
  stageId: number,
) {
  const locked = await app.store.lockTournament(trx, tid);
  if (!locked || locked.deleted_at) throw notFound(TOURNAMENT_NOT_FOUND);
  const tournament = await liveTournament(trx, tid);
  const stage = await findStageRow(trx, tid, stageId);
  if (!stage) throw notFound(STAGE_NOT_FOUND);
  const hasResults = (await stagesWithResults(trx, [stage.id])).has(stage.id);
  return { tournament, stage, hasResults };
}

const hasGroups = async (db: Trx, stageId: number) =>
  !!(await db.selectFrom('stage_groups').select('id').where('stage_id', '=', stageId).executeTakeFirst());

/** Everything the advance call answers, from the stage's results now. */
async function computeAdvance(db: Trx, stage: StageRow): Promise<{ answer: Omit<Advance, 'stage'>; ranked: RankedStageTeam[] }> {
  const teams = await stageStandings(db, stage.id);
  const result = advance(teams, { perGroup: Number(stage.advance_per_group), best: Number(stage.advance_best) });
  const next = await findStageByOrder(db, Number(stage.tournament_id), Number(stage.ord) + 1);
  return {
    ranked: result.ranked,
    answer: {
      missing: await matchesWithoutResults(db, stage.id),
      qualifiers: result.qualifiers.map((q) => ({
        teamId: q.teamId,
        teamName: q.teamName,
        groupName: q.groupName,
        groupRank: q.groupRank,
        stageRank: q.stageRank,
        totalPoints: q.totalPoints,
        via: q.via ?? 'group',
      })),
      cuts: result.cuts,
      nextStage: next ? { id: Number(next.id), name: next.name } : null,
    },
  };
}

/** The stage's group matches, by day, match number and group. */
async function stageMatches(db: Trx, stageId: number): Promise<Match[]> {
  const rows = await db
    .selectFrom('matches as m')
    .innerJoin('stage_groups as g', 'g.id', 'm.group_id')
    .selectAll('m')
    .where('g.stage_id', '=', stageId)
    .orderBy('m.day')
    .orderBy('m.match_no')
    .orderBy('g.ord')
    .execute();
  const info = await groupInfo(
    db,
    rows.map((r) => Number(r.group_id)),
  );
  return rows.map((row) => toMatch(row, true, info.get(Number(row.group_id))));
}

/**
 * The check-in window after an edit (decision 043): undefined keeps the stored edge, null clears it.
 * Both edges or neither; it must close after it opens.
 */
function checkInWindow(
  body: { checkInOpensAt?: string | null; checkInClosesAt?: string | null },
  stored: { check_in_opens_at: string | null; check_in_closes_at: string | null } = { check_in_opens_at: null, check_in_closes_at: null },
) {
  const opens = body.checkInOpensAt === undefined ? stored.check_in_opens_at : body.checkInOpensAt;
  const closes = body.checkInClosesAt === undefined ? stored.check_in_closes_at : body.checkInClosesAt;
  if ((opens === null) !== (closes === null)) {
    const field = opens === null ? 'checkInOpensAt' : 'checkInClosesAt';
    const message = 'Set both ends of the check-in window, or neither.';
    throw badRequest(message, { [field]: message });
  }
  if (opens !== null && closes !== null && Date.parse(closes) <= Date.parse(opens)) {
    const message = 'Check-in must close after it opens.';
    throw badRequest(message, { checkInClosesAt: message });
  }
  return { check_in_opens_at: opens, check_in_closes_at: closes };
}

const NO_WINDOW = 'This stage has no check-in window.';

const refuse = {
  published: () => conflict('The slot list is published: swap or move teams instead of drawing again.'),
  results: (name: string) => conflict(`${name} already has results.`),
  completed: (name: string) => conflict(`${name} is completed: reopen it first.`),
};

const routes: FastifyPluginAsyncZod = async (app) => {
  const write = <T>(tid: number, stageId: number, fn: (ctx: Awaited<ReturnType<typeof lockStage>> & { trx: Trx }) => Promise<T>) =>
    app.store.writeTransaction(async (trx) => fn({ ...(await lockStage(app, trx, tid, stageId)), trx }));

  app.get(
    endpoints.listStages.url,
    { schema: endpoints.listStages.schema },
    async (request: FastifyRequest<{ Params: { id: number } }>, reply) => {
      const tid = request.params.id;
      const user = request.headers.authorization ? await optionalUser(request) : null;
      if (isAdmin(user)) {
        reply.header('cache-control', 'private, no-store');
        return stagesJson(app.store.db, tid, true);
      }
      return app.answers.send(request, reply, {
        key: `stages:${tid}`,
        tournamentId: tid,
        personal: true,
        build: () => stagesJson(app.store.db, tid, false),
        schema: StageSchema.array(),
      });
    },
  );

  app.post(endpoints.createStage.url, { schema: endpoints.createStage.schema }, async (request, reply) => {
    const tid = request.params.id;
    const body = request.body;
    const stage = await app.store.writeTransaction(async (trx) => {
      const locked = await app.store.lockTournament(trx, tid);
      if (!locked || locked.deleted_at) throw notFound(TOURNAMENT_NOT_FOUND);
      const tournament = await liveTournament(trx, tid);
      const lobbySize = body.lobbySize ?? defaultLobbySize(tournament.game);
      if (lobbySize === undefined) {
        const message = `Lobby size is required for ${tournament.game}: ${LOBBY_MIN} to ${LOBBY_MAX} teams per group.`;
        throw badRequest(message, { lobbySize: message });
      }
      checkAdvance(body.advancePerGroup ?? 0, lobbySize);
      const existing = await listStageRows(trx, tid);
      if (existing.length >= MAX_STAGES) throw conflict(`A tournament has at most ${MAX_STAGES} stages.`);
      const now = nowIso();
      const row = await trx
        .insertInto('stages')
        .values({
          tournament_id: tid,
          name: body.name,
          ord: (existing.at(-1)?.ord ?? 0) + 1,
          lobby_size: lobbySize,
          first_slot: body.firstSlot ?? 1,
          advance_per_group: body.advancePerGroup ?? 0,
          advance_best: body.advanceBest ?? 0,
          ...checkInWindow(body),
          state: 'draft',
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await bumpGeneration(trx, tid);
      return stageJson(trx, row, tournament.entryFee);
    });
    return reply.status(201).send(stage);
  });

  app.put(endpoints.updateStage.url, { schema: endpoints.updateStage.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    const body = request.body;
    return write(tid, stageId, async ({ trx, stage, tournament, hasResults }) => {
      const lobbySize = body.lobbySize ?? Number(stage.lobby_size);
      const firstSlot = body.firstSlot ?? Number(stage.first_slot);
      const advancePerGroup = body.advancePerGroup ?? Number(stage.advance_per_group);
      const advanceBest = body.advanceBest ?? Number(stage.advance_best);
      const lobbyChanged = lobbySize !== Number(stage.lobby_size) || firstSlot !== Number(stage.first_slot);
      const ruleChanged = advancePerGroup !== Number(stage.advance_per_group) || advanceBest !== Number(stage.advance_best);
      if (lobbyChanged && hasResults) {
        const message = `The lobby size and first slot cannot change: ${stage.name} already has results.`;
        throw conflict(message, {
          ...(lobbySize !== Number(stage.lobby_size) ? { lobbySize: message } : {}),
          ...(firstSlot !== Number(stage.first_slot) ? { firstSlot: message } : {}),
        });
      }
      if (ruleChanged && stage.state === 'completed') {
        const message = `The advance rule cannot change: ${stage.name} is completed. Reopen it first.`;
        throw conflict(message, { advancePerGroup: message });
      }
      checkAdvance(advancePerGroup, lobbySize);
      if (lobbyChanged) {
        // The slot list no longer fits: the groups go, and the stage is a draft again (decision 041).
        await deleteGroups(trx, stage.id);
        await trx
          .updateTable('stages')
          .set({ state: 'draft', draw_method: null, draw_seed: null, drawn_at: null })
          .where('id', '=', stage.id)
          .execute();
      }
      await trx
        .updateTable('stages')
        .set({
          name: body.name ?? stage.name,
          lobby_size: lobbySize,
          first_slot: firstSlot,
          advance_per_group: advancePerGroup,
          advance_best: advanceBest,
          ...checkInWindow(body, stage),
          updated_at: nowIso(),
        })
        .where('id', '=', stage.id)
        .execute();
      await bumpGeneration(trx, tid);
      return stageJson(trx, (await findStageRow(trx, tid, stage.id))!, tournament.entryFee);
    });
  });

  app.delete(endpoints.deleteStage.url, { schema: endpoints.deleteStage.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    return write(tid, stageId, async ({ trx, stage, hasResults }) => {
      if (hasResults) throw conflict(`${stage.name} cannot be deleted: it has results.`);
      const later = await findStageByOrder(trx, tid, Number(stage.ord) + 1);
      if (later) throw conflict(`${stage.name} cannot be deleted while ${later.name} comes after it: delete ${later.name} first.`);
      await deleteGroups(trx, stage.id);
      await trx.deleteFrom('stage_invites').where('stage_id', '=', stage.id).execute();
      await trx.deleteFrom('stage_results').where('stage_id', '=', stage.id).execute();
      await trx.deleteFrom('stages').where('id', '=', stage.id).execute();
      await bumpGeneration(trx, tid);
      return { message: `${stage.name} was deleted.` };
    });
  });

  app.get(endpoints.stageEntrants.url, { schema: endpoints.stageEntrants.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    const tournament = await liveTournament(app.store.db, tid);
    const stage = await findStageRow(app.store.db, tid, stageId);
    if (!stage) throw notFound(STAGE_NOT_FOUND);
    return stageEntrants(app.store.db, stage, tournament.entryFee);
  });

  const checkInvitable = (stage: StageRow) => {
    if (Number(stage.ord) === 1) {
      const message = "The first stage's entrants are the confirmed teams: invite teams to a later stage.";
      throw badRequest(message, { teamId: message });
    }
    if (stage.state !== 'draft') throw conflict(`${stage.name} is published: invitations are closed.`);
  };

  app.post(endpoints.inviteTeam.url, { schema: endpoints.inviteTeam.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    const { teamId, checkIn } = request.body;
    return write(tid, stageId, async ({ trx, stage, tournament }) => {
      checkInvitable(stage);
      const team = await trx
        .selectFrom('registrations')
        .select(['id', 'team_name'])
        .where('id', '=', teamId)
        .where('tournament_id', '=', tid)
        .executeTakeFirst();
      if (!team) {
        const message = 'This team is not registered in the tournament.';
        throw badRequest(message, { teamId: message });
      }
      const entrants = await stageEntrants(trx, stage, tournament.entryFee);
      const already = entrants.find((e) => e.teamId === teamId);
      if (already?.via === 'qualified') {
        const message = `${team.team_name} already qualified for ${stage.name}.`;
        throw conflict(message, { teamId: message });
      }
      if (!already) {
        await trx.insertInto('stage_invites').values({ stage_id: stage.id, registration_id: teamId }).execute();
        // Issue 27: an invited team counts as checked in (it is drawn) unless the organiser asks it to check in.
        const now = app.clock.now();
        if (!checkIn) {
          await trx
            .insertInto('stage_check_ins')
            .values({ stage_id: stage.id, registration_id: teamId, checked_in_at: isoAt(now) })
            .onConflict((oc) => oc.columns(['stage_id', 'registration_id']).doNothing())
            .execute();
        }
        await enqueueEvent(
          trx,
          {
            kind: 'invited',
            tournamentId: tid,
            audience: { registrations: [teamId] },
            data: { stageId: stage.id, stageName: stage.name, checkIn: !!checkIn && !!stage.check_in_opens_at },
          },
          now,
        );
        await bumpGeneration(trx, tid);
      }
      return stageEntrants(trx, stage, tournament.entryFee);
    });
  });

  app.delete(endpoints.removeInvite.url, { schema: endpoints.removeInvite.schema }, async (request) => {
    const { id: tid, stageId, teamId } = request.params;
    return write(tid, stageId, async ({ trx, stage, tournament }) => {
      checkInvitable(stage);
      const removed = await trx
        .deleteFrom('stage_invites')
        .where('stage_id', '=', stage.id)
        .where('registration_id', '=', teamId)
        .executeTakeFirst();
      if (Number(removed.numDeletedRows) === 0) throw notFound('This team is not invited to this stage.');
      await trx.deleteFrom('stage_check_ins').where('stage_id', '=', stage.id).where('registration_id', '=', teamId).execute();
      await bumpGeneration(trx, tid);
      return stageEntrants(trx, stage, tournament.entryFee);
    });
  });

  app.post(endpoints.drawGroups.url, { schema: endpoints.drawGroups.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    const { method, seed, confirmSplit } = request.body;
    return write(tid, stageId, async ({ trx, stage, tournament, hasResults }) => {
      if (hasResults) throw refuse.results(stage.name);
      if (stage.state !== 'draft') throw refuse.published();
      let entrants = await stageEntrants(trx, stage, tournament.entryFee);
      const all = entrants.length;
      let onlyCheckedIn = '';
      if (stage.check_in_opens_at) {
        // Decision 043: a stage with a check-in window draws its checked-in teams only.
        const checkedIn = await stageCheckIns(trx, stage.id);
        entrants = entrants.filter((e) => checkedIn.has(e.teamId));
        // Issue 27: say so, with the numbers, wherever the draw's count is given.
        onlyCheckedIn = ` ${entrants.length} of ${all} entrants have checked in: only checked-in teams are drawn.`;
      }
      if (method === 'seeded' && Number(stage.ord) === 1) {
        const message = "A seeded draw needs the previous stage's ranking: draw the first stage in registration order or at random.";
        throw badRequest(message, { method: message });
      }
      if (entrants.length < 2) {
        const previous = Number(stage.ord) > 1 ? await findStageByOrder(trx, tid, Number(stage.ord) - 1) : undefined;
        const why =
          previous && previous.state !== 'completed'
            ? ` Complete ${previous.name} first: its qualifiers are ${stage.name}'s entrants.`
            : Number(stage.ord) === 1
              ? ' The entrants are the confirmed teams (verified payment, or every team when the entry fee is 0).'
              : '';
        throw conflict(`At least 2 teams are needed to draw groups; ${stage.name} has ${entrants.length}.${onlyCheckedIn}${why}`);
      }
      const split = splitWarning(entrants.length, Number(stage.lobby_size));
      if (split && !confirmSplit) {
        // Issue 27: a few teams past full lobbies add a whole group and shrink every other one: ask first.
        const lobby = Number(stage.lobby_size);
        const sizes = groupSizes(entrants.length, lobby);
        const full = split.groups - 1;
        const message =
          `${entrants.length} teams are ${split.over} more than ${full === 1 ? 'one lobby' : `${full} lobbies`} of ${lobby}: ` +
          `the draw would make ${split.groups} groups of ${[...new Set(sizes)].join(' and ')} teams.${onlyCheckedIn} ` +
          'Confirm to draw them anyway, or change the lobby size or the entrants first.';
        throw conflict(message, { confirmSplit: message });
      }
      const drawSeed = method === 'random' ? seed || newSeed() : null;
      const ordered = orderForDraw(entrants, method, drawSeed);
      const dealt = dealGroups(ordered, Number(stage.lobby_size), method === 'seeded' ? 'snake' : 'fill');
      await replaceGroups(
        trx,
        stage,
        dealt.map((teamIds, i) => ({ name: groupName(i), teamIds })),
        { method, seed: drawSeed },
      );
      await bumpGeneration(trx, tid);
      return stageJson(trx, (await findStageRow(trx, tid, stage.id))!, tournament.entryFee);
    });
  });

  app.post(endpoints.moveSlot.url, { schema: endpoints.moveSlot.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    const { from, to } = request.body;
    return write(tid, stageId, async ({ trx, stage, tournament, hasResults }) => {
      if (hasResults) throw conflict(`Teams cannot move: ${stage.name} already has results.`);
      if (stage.state === 'completed') throw refuse.completed(stage.name);
      const groups = (await stageGroups(trx, [stage.id])).get(stage.id) ?? [];
      const fromGroup = groups.find((g) => g.id === from.groupId);
      const toGroup = groups.find((g) => g.id === to.groupId);
      if (!fromGroup) throw badRequest(`That group is not in ${stage.name}.`, { 'from.groupId': `That group is not in ${stage.name}.` });
      if (!toGroup) throw badRequest(`That group is not in ${stage.name}.`, { 'to.groupId': `That group is not in ${stage.name}.` });
      const mover = fromGroup.slots.find((s) => s.slot === from.slot);
      if (!mover) {
        const message = `Slot ${from.slot} of Group ${fromGroup.name} is empty.`;
        throw badRequest(message, { 'from.slot': message });
      }
      const first = Number(stage.first_slot);
      const last = first + Number(stage.lobby_size) - 1;
      if (to.slot < first || to.slot > last) {
        const message = `Slots of ${stage.name} are ${first} to ${last}.`;
        throw badRequest(message, { 'to.slot': message });
      }
      if (from.groupId === to.groupId && from.slot === to.slot) {
        const message = 'Choose another slot to move the team to.';
        throw badRequest(message, { 'to.slot': message });
      }
      const other = toGroup.slots.find((s) => s.slot === to.slot);
      await trx
        .deleteFrom('group_slots')
        .where('stage_id', '=', stage.id)
        .where('registration_id', 'in', [mover.teamId, ...(other ? [other.teamId] : [])])
        .execute();
      const rows = [{ group_id: toGroup.id, stage_id: stage.id, registration_id: mover.teamId, slot: to.slot }];
      if (other) rows.push({ group_id: fromGroup.id, stage_id: stage.id, registration_id: other.teamId, slot: from.slot });
      await trx.insertInto('group_slots').values(rows).execute();
      // A team's group matches follow it: results are refused above, so only rooms and times change hands.
      await bumpGeneration(trx, tid);
      return stageJson(trx, stage, tournament.entryFee);
    });
  });

  app.post(endpoints.publishStage.url, { schema: endpoints.publishStage.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    return write(tid, stageId, async ({ trx, stage, tournament }) => {
      if (stage.state !== 'draft') throw conflict(`${stage.name} is already published.`);
      if (!(await hasGroups(trx, stage.id))) throw conflict(`Generate ${stage.name}'s groups before publishing them.`);
      await setStageState(trx, stage.id, 'published');
      await bumpGeneration(trx, tid);
      // Issue 19: each team hears its group and slot (the worker reads them from group_slots).
      const groups = (await stageGroups(trx, [stage.id])).get(stage.id) ?? [];
      await enqueueEvent(
        trx,
        {
          kind: 'stage-published',
          tournamentId: tid,
          audience: { groups: groups.map((g) => g.id) },
          data: { stageId: stage.id, stageName: stage.name },
        },
        app.clock.now(),
      );
      return stageJson(trx, (await findStageRow(trx, tid, stage.id))!, tournament.entryFee);
    });
  });

  app.get(endpoints.stageAdvance.url, { schema: endpoints.stageAdvance.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    const tournament = await liveTournament(app.store.db, tid);
    const stage = await findStageRow(app.store.db, tid, stageId);
    if (!stage) throw notFound(STAGE_NOT_FOUND);
    if (stage.state === 'draft') throw conflict(`${stage.name} is not published yet.`);
    const { answer } = await computeAdvance(app.store.db, stage);
    return { stage: await stageJson(app.store.db, stage, tournament.entryFee), ...answer };
  });

  app.post(endpoints.completeStage.url, { schema: endpoints.completeStage.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    const marked = new Set(request.body?.notPlayed ?? []);
    return write(tid, stageId, async ({ trx, stage, tournament }) => {
      if (stage.state === 'draft') throw conflict(`Publish ${stage.name} and enter its results before completing it.`);
      if (stage.state === 'completed') throw conflict(`${stage.name} is already completed.`);
      await settleMissingResults(trx, stage, marked, currentUser(request).username, isoAt(app.clock.now()));
      const { answer, ranked } = await computeAdvance(trx, stage);
      await trx.deleteFrom('stage_results').where('stage_id', '=', stage.id).execute();
      const rows = ranked.map((t) => ({
        stage_id: stage.id,
        registration_id: t.teamId,
        group_id: t.groupId,
        group_rank: t.groupRank,
        stage_rank: t.stageRank,
        qualified: t.qualified ? 1 : 0,
        via: t.via,
      }));
      for (let i = 0; i < rows.length; i += 250)
        await trx
          .insertInto('stage_results')
          .values(rows.slice(i, i + 250))
          .execute();
      await setStageState(trx, stage.id, 'completed');
      await bumpGeneration(trx, tid);
      // Issue 19: who goes on, and who does not.
      const data = { stageId: stage.id, stageName: stage.name, ...(answer.nextStage ? { nextStageName: answer.nextStage.name } : {}) };
      const [qualified, eliminated] = [ranked.filter((t) => t.qualified), ranked.filter((t) => !t.qualified)];
      const now = app.clock.now();
      // Issue 27: the last stage (none after it) speaks of final places, to every team it ranked, not of qualifying.
      if (!answer.nextStage) {
        if (ranked.length > 0)
          await enqueueEvent(trx, { kind: 'final-standing', tournamentId: tid, audience: { standings: stage.id }, data }, now);
      } else if (qualified.length > 0)
        await enqueueEvent(
          trx,
          { kind: 'qualified', tournamentId: tid, audience: { registrations: qualified.map((t) => t.teamId) }, data },
          now,
        );
      if (answer.nextStage && eliminated.length > 0)
        await enqueueEvent(
          trx,
          { kind: 'eliminated', tournamentId: tid, audience: { registrations: eliminated.map((t) => t.teamId) }, data },
          now,
        );
      return { stage: await stageJson(trx, (await findStageRow(trx, tid, stage.id))!, tournament.entryFee), ...answer };
    });
  });

  app.post(endpoints.reopenStage.url, { schema: endpoints.reopenStage.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    return write(tid, stageId, async ({ trx, stage, tournament }) => {
      if (stage.state !== 'completed') throw conflict(`${stage.name} is not completed.`);
      const next = await findStageByOrder(trx, tid, Number(stage.ord) + 1);
      if (next) {
        if ((await stagesWithResults(trx, [next.id])).has(next.id)) {
          throw conflict(`${stage.name} cannot be reopened: ${next.name} already has results.`);
        }
        await deleteGroups(trx, next.id);
        await trx
          .updateTable('stages')
          .set({ state: 'draft', draw_method: null, draw_seed: null, drawn_at: null, updated_at: nowIso() })
          .where('id', '=', next.id)
          .execute();
      }
      await trx.deleteFrom('stage_results').where('stage_id', '=', stage.id).execute();
      await setStageState(trx, stage.id, 'published');
      await bumpGeneration(trx, tid);
      return stageJson(trx, (await findStageRow(trx, tid, stage.id))!, tournament.entryFee);
    });
  });

  app.post(endpoints.scheduleStage.url, { schema: endpoints.scheduleStage.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    const { matches, groupGap } = request.body;
    const seen = new Set<string>();
    for (const [i, m] of matches.entries()) {
      const key = `${m.day}:${m.matchNo}`;
      if (seen.has(key)) {
        const message = `Day ${m.day} match ${m.matchNo} is listed twice.`;
        throw badRequest(message, { [`matches.${i}.matchNo`]: message });
      }
      seen.add(key);
    }
    return write(tid, stageId, async ({ trx, stage }) => {
      if (stage.state === 'completed') throw refuse.completed(stage.name);
      const groups = (await stageGroups(trx, [stage.id])).get(stage.id) ?? [];
      if (groups.length === 0) throw conflict(`Generate ${stage.name}'s groups before scheduling its matches.`);
      for (const [i, m] of matches.entries()) {
        const owner = await matchNumberOwner(trx, tid, m.day, m.matchNo);
        if (owner && owner.stageId !== stage.id) {
          const where = owner.stageId === 0 ? 'a match outside the stages' : `a match of ${owner.stageName}`;
          const message = `Day ${m.day} match ${m.matchNo} is already ${where}: choose another match number.`;
          throw conflict(message, { [`matches.${i}.matchNo`]: message });
        }
      }
      // Issue 27: groups hosted one after another: group k plays k × gap minutes after the row's time.
      const gap = groupGap ?? Number(stage.group_gap_minutes ?? 0);
      const timeOf = (time: string, k: number) => addMinutes(time, k * gap);
      for (const [i, m] of matches.entries()) {
        if (timeOf(m.time, groups.length - 1) === null) {
          const last = groups.at(-1)!.name;
          const message = `With ${gap} minutes between groups, Group ${last} of day ${m.day} match ${m.matchNo} would start after midnight: start earlier or shorten the gap.`;
          throw badRequest(message, { [`matches.${i}.time`]: message, groupGap: message });
        }
      }
      if (gap !== Number(stage.group_gap_minutes ?? 0))
        await trx.updateTable('stages').set({ group_gap_minutes: gap }).where('id', '=', stage.id).execute();
      const now = nowIso();
      for (const m of matches) {
        const rows = groups.map((g, k) => ({
          tournament_id: tid,
          day: m.day,
          match_no: m.matchNo,
          group_id: g.id,
          map: m.map,
          time: timeOf(m.time, k)!,
          room_id: '',
          room_password: '',
          created_at: now,
          updated_at: now,
        }));
        for (let i = 0; i < rows.length; i += 100) {
          await trx
            .insertInto('matches')
            .values(rows.slice(i, i + 100))
            .onConflict((oc) =>
              oc.columns(['tournament_id', 'day', 'match_no', 'group_id']).doUpdateSet((eb) => ({
                map: eb.ref('excluded.map'),
                time: eb.ref('excluded.time'),
                updated_at: eb.ref('excluded.updated_at'),
              })),
            )
            .execute();
        }
      }
      await bumpGeneration(trx, tid);
      return stageMatches(trx, stage.id);
    });
  });

  app.put(endpoints.setStageRooms.url, { schema: endpoints.setStageRooms.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    const { rooms } = request.body;
    return write(tid, stageId, async ({ trx, stage }) => {
      const ids = rooms.map((r) => r.id);
      const own = new Set(
        ids.length === 0
          ? []
          : (
              await trx
                .selectFrom('matches as m')
                .innerJoin('stage_groups as g', 'g.id', 'm.group_id')
                .select('m.id')
                .where('g.stage_id', '=', stage.id)
                .where('m.id', 'in', ids)
                .execute()
            ).map((r) => Number(r.id)),
      );
      const errors: Record<string, string> = {};
      for (const [i, r] of rooms.entries()) if (!own.has(r.id)) errors[`rooms.${i}.id`] = `Match ${r.id} is not a match of ${stage.name}.`;
      if (Object.keys(errors).length > 0) throw badRequest(Object.values(errors)[0], errors);
      const now = nowIso();
      let changed = false;
      const before = new Map(
        ids.length === 0
          ? []
          : (await trx.selectFrom('matches').selectAll().where('id', 'in', ids).execute()).map((m) => [Number(m.id), m] as const),
      );
      for (const r of rooms) {
        const result = await trx
          .updateTable('matches')
          .set({ room_id: r.matchId, room_password: r.password, updated_at: now })
          .where('id', '=', r.id)
          .where((eb) => eb.or([eb('room_id', '<>', r.matchId), eb('room_password', '<>', r.password)]))
          .executeTakeFirst();
        changed ||= Number(result.numUpdatedRows) > 0;
        // Issue 19: each group whose room is new or changed hears of it (only once its stage is published).
        const old = before.get(r.id);
        if (old && Number(result.numUpdatedRows) > 0) {
          await enqueueRoomPosted(trx, { ...old, room_id: r.matchId, room_password: r.password }, old, app.clock.now());
        }
      }
      if (changed) await bumpGeneration(trx, tid);
      return stageMatches(trx, stage.id);
    });
  });

  /** Decision 043: the stage's check-in list at nowMs. */
  async function checkInsJson(db: Trx, stage: StageRow, entryFee: number, nowMs: number): Promise<StageCheckIns> {
    if (!stage.check_in_opens_at || !stage.check_in_closes_at) throw notFound(NO_WINDOW);
    const [teams, checkedIn] = await Promise.all([checkInTeams(db, stage, entryFee), stageCheckIns(db, stage.id)]);
    // Promoted into a no-show's place: listed as checked in (decision 043), though maybe not yet confirmed.
    const listed = new Set(teams.map((t) => t.teamId));
    const extra = [...checkedIn.keys()].filter((id) => !listed.has(id));
    const others =
      extra.length > 0
        ? await db
            .selectFrom('registrations')
            .select(['id', 'team_name'])
            .where('id', 'in', extra)
            .where('place', '=', 'placed')
            .orderBy('id')
            .execute()
        : [];
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

  app.post(endpoints.checkIn.url, { schema: endpoints.checkIn.schema }, async (request) => {
    const user = currentUser(request);
    const { id: tid, stageId } = request.params;
    return write(tid, stageId, async ({ trx, stage, tournament }) => {
      const team = await findUserRegistration(trx, tid, user.id);
      if (!team) throw notFound('You have not registered a team for this tournament.');
      if (!stage.check_in_opens_at || !stage.check_in_closes_at) throw conflict(NO_WINDOW);
      if (team.place === 'released' || team.place === 'withdrawn') throw conflict(NOT_PLACED_MESSAGES[team.place]);
      const done = await trx
        .selectFrom('stage_check_ins')
        .select('checked_in_at')
        .where('stage_id', '=', stage.id)
        .where('registration_id', '=', team.id)
        .executeTakeFirst();
      if (done) return { stageId: Number(stage.id), teamId: Number(team.id), checkedInAt: done.checked_in_at };
      const eligible = (await checkInTeams(trx, stage, tournament.entryFee)).some((t) => t.teamId === Number(team.id));
      if (!eligible) throw conflict(`Your team is not confirmed for ${stage.name}: only confirmed teams check in.`);
      const at = app.clock.now();
      if (at < Date.parse(stage.check_in_opens_at)) throw conflict(`Check-in for ${stage.name} has not opened yet.`);
      if (at >= Date.parse(stage.check_in_closes_at)) throw conflict(`Check-in for ${stage.name} has closed.`);
      const checkedInAt = isoAt(at);
      await trx
        .insertInto('stage_check_ins')
        .values({ stage_id: stage.id, registration_id: team.id, checked_in_at: checkedInAt })
        .execute();
      return { stageId: Number(stage.id), teamId: Number(team.id), checkedInAt };
    });
  });

  app.get(endpoints.stageCheckIns.url, { schema: endpoints.stageCheckIns.schema }, async (request, reply) => {
    const { id: tid, stageId } = request.params;
    const tournament = await liveTournament(app.store.db, tid);
    const stage = await findStageRow(app.store.db, tid, stageId);
    if (!stage) throw notFound(STAGE_NOT_FOUND);
    reply.header('cache-control', 'private, no-store');
    return checkInsJson(app.store.db, stage, tournament.entryFee, app.clock.now());
  });

  app.post(endpoints.resolveNoShows.url, { schema: endpoints.resolveNoShows.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    const { action } = request.body;
    return write(tid, stageId, async ({ trx, stage, tournament }) => {
      const at = app.clock.now();
      const before = await checkInsJson(trx, stage, tournament.entryFee, at);
      if (!before.closed) throw conflict(`Check-in for ${stage.name} is still open: decide once it has closed.`);
      if (stage.no_shows) throw conflict(`The no-shows of ${stage.name} were already decided (${stage.no_shows}).`);
      if (action === 'replace') {
        if (Number(stage.ord) !== 1) {
          const message = 'Only the first stage can take teams from the waitlist: leave the places empty.';
          throw badRequest(message, { action: message });
        }
        if (stage.state !== 'draft') throw conflict(`${stage.name} is published: its no-shows can only be left out.`);
        for (const t of before.teams.filter((team) => team.state === 'no-show')) {
          await releaseTeam(trx, { id: t.teamId, tournament_id: tid, team_name: t.teamName }, 'no-show', at);
        }
        const rules = await findPlaceRules(trx, tid);
        const promoted = rules ? await fillPlaces(trx, rules, at) : [];
        // Promoted after the window closed, they could not check in: they count as checked in.
        if (promoted.length > 0) {
          await trx
            .insertInto('stage_check_ins')
            .values(promoted.map((rid) => ({ stage_id: stage.id, registration_id: rid, checked_in_at: isoAt(at) })))
            .execute();
        }
      }
      await trx
        .updateTable('stages')
        .set({ no_shows: action, updated_at: isoAt(at) })
        .where('id', '=', stage.id)
        .execute();
      await bumpGeneration(trx, tid);
      return checkInsJson(trx, (await findStageRow(trx, tid, stage.id))!, tournament.entryFee, at);
    });
  });
};

/**
 * Issue 27: a stage completes only when every scheduled group match has results or is marked not played.
 * The matches named in `marked` (without results, of this stage) are marked here, with who and when.
 */
async function settleMissingResults(trx: Trx, stage: StageRow, marked: ReadonlySet<number>, by: string, at: string) {
  const counts = (await groupMatchCounts(trx, [stage.id])).get(stage.id)!;
  if (counts.scheduled === 0) throw conflict(`Schedule ${stage.name}'s matches and enter their results before completing it.`);
  const missing = await matchesWithoutResults(trx, stage.id);
  const open = new Set(missing.map((m) => m.id));
  const wrong = [...marked].filter((id) => !open.has(id));
  if (wrong.length > 0) {
    const message = `Only ${stage.name}'s group matches without results can be marked not played (match ${wrong.join(', ')} cannot).`;
    throw badRequest(message, { notPlayed: message });
  }
  const unsettled = missing.filter((m) => !m.notPlayed && !marked.has(m.id));
  if (unsettled.length > 0) {
    const list = unsettled
      .slice(0, 6)
      .map((m) => `Day ${m.day} match ${m.matchNo} Group ${m.groupName}`)
      .join(', ');
    const more = unsettled.length > 6 ? ` and ${unsettled.length - 6} more` : '';
    const message = `${resultsInWords(counts)}. Enter the results of ${list}${more}, or mark ${unsettled.length === 1 ? 'it' : 'them'} as not played.`;
    throw conflict(message, { notPlayed: message });
  }
  const toMark = missing.filter((m) => !m.notPlayed && marked.has(m.id)).map((m) => m.id);
  if (toMark.length > 0) await trx.updateTable('matches').set({ not_played_at: at, not_played_by: by }).where('id', 'in', toMark).execute();
}

function checkAdvance(perGroup: number, lobbySize: number) {
  if (perGroup > lobbySize) {
    const message = `Teams advancing per group must be at most the lobby size (${lobbySize}).`;
    throw badRequest(message, { advancePerGroup: message });
  }
}

/** The entrants in the order they are dealt (decision 041). */
function orderForDraw(entrants: readonly Entrant[], method: 'registration' | 'random' | 'seeded', seed: string | null): number[] {
  const byRegistration = [...entrants].sort((a, b) => a.teamId - b.teamId).map((e) => e.teamId);
  if (method === 'registration') return byRegistration;
  if (method === 'random') return shuffleWithSeed(byRegistration, seed!);
  const ranked = entrants.filter((e) => e.seed !== null).sort((a, b) => a.seed! - b.seed! || a.teamId - b.teamId);
  const invited = entrants.filter((e) => e.seed === null).sort((a, b) => a.teamId - b.teamId);
  return [...ranked, ...invited].map((e) => e.teamId);
}

export default routes;
