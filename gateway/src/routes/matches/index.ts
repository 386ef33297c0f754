import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isUniqueViolation } from '../../db/index.js';
import { bumpGeneration } from '../../db/generation.js';
import { MATCH_SLOT_TAKEN, findMatchById, insertMatch, listTournamentMatches, toMatch, updateMatch } from '../../db/matches.js';
import { findLiveTournament, findUserRegistration, isConfirmedTeam } from '../../db/registrations.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { findGroup, groupInfo, groupsOfTeams, matchNumberOwner } from '../../db/stages.js';
import { enqueueRoomPosted } from '../../db/notify-events.js';
import type { Trx } from '../../db/index.js';
import { currentUser, isAdmin } from '../../plugins/auth.js';
import { endpoints, MATCH_NOT_FOUND, TOURNAMENT_NOT_FOUND } from '@custom-room/contract';

/**
 * A day and match number belong to one stage, or to the matches outside the stages (decision 041):
 * 409 when (day, match) is already another's; the group's names when the match is a group's.
 */
async function checkMatchOwner(db: Trx, match: { tid: number; day: number; matchNo: number; groupId?: number }) {
  let stageId = 0;
  let group: { groupName: string; stageId: number; stageName: string } | undefined;
  if (match.groupId !== undefined) {
    const found = await findGroup(db, match.tid, match.groupId);
    if (!found) throw badRequest('This group is not in the tournament.', { groupId: 'This group is not in the tournament.' });
    stageId = found.stageId;
    group = { groupName: found.name, stageId: found.stageId, stageName: found.stage.name };
  }
  const owner = await matchNumberOwner(db, match.tid, match.day, match.matchNo);
  if (owner && owner.stageId !== stageId) {
    const where = owner.stageId === 0 ? 'a match outside the stages' : `a match of ${owner.stageName}`;
    throw conflict(`Day ${match.day} match ${match.matchNo} is already ${where}: choose another day or match number.`, {
      matchNo: `Day ${match.day} match ${match.matchNo} is already ${where}.`,
    });
  }
  return group;
}

/** Decision 029: a place is confirmed once the organisers verify the payment, or at once in a free tournament. */
const isConfirmed = (team: { payment_status: string; place: string } | undefined, entryFee: number) =>
  !!team && isConfirmedTeam(team, entryFee);

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    endpoints.listMatches.url,
    {
      schema: endpoints.listMatches.schema,
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { tournamentId } = request.params;
      const tournament = await findLiveTournament(app.store.db, tournamentId);
      if (!tournament) throw notFound(TOURNAMENT_NOT_FOUND);
      const admin = isAdmin(user);
      const [team, rows] = await Promise.all([
        admin ? undefined : findUserRegistration(app.store.db, tournamentId, user.id),
        listTournamentMatches(app.store.db, tournamentId),
      ]);
      const confirmed = admin || isConfirmed(team, Number(tournament.entry_fee));
      const groupIds = rows.map((r) => Number(r.group_id)).filter((id) => id !== 0);
      const [groups, ownGroups] = await Promise.all([
        groupInfo(app.store.db, groupIds),
        team && groupIds.length > 0 ? groupsOfTeams(app.store.db, [team.id]).then((m) => new Set(m.get(team.id) ?? [])) : new Set<number>(),
      ]);
      // Room details must never sit in a shared cache.
      reply.header('cache-control', 'private, no-store');
      // Nothing of a draft stage reaches players (issue 27): its groups' matches, names and times wait for its publishing.
      const shown = admin
        ? rows
        : rows.filter((row) => {
            const groupId = Number(row.group_id);
            const group = groups.get(groupId);
            return groupId === 0 || (group !== undefined && group.state !== 'draft');
          });
      return shown.map((row) => {
        const groupId = Number(row.group_id);
        if (groupId === 0) return toMatch(row, confirmed);
        const group = groups.get(groupId);
        // A group's room: its own confirmed teams, once the slot list is published (decision 041).
        const showRoom = admin || (confirmed && ownGroups.has(groupId) && !!group);
        return toMatch(row, showRoom, group);
      });
    },
  );

  app.post(
    endpoints.createMatch.url,
    {
      schema: endpoints.createMatch.schema,
    },
    async (request, reply) => {
      const match = request.body;
      if (!(await findLiveTournament(app.store.db, match.tid))) throw notFound(TOURNAMENT_NOT_FOUND);
      try {
        const [row, group] = await app.store.writeTransaction(async (trx) => {
          const group = await checkMatchOwner(trx, match);
          const inserted = await insertMatch(trx, match);
          await bumpGeneration(trx, match.tid);
          await enqueueRoomPosted(trx, inserted, undefined, app.clock.now());
          return [inserted, group] as const;
        });
        return reply.status(201).send(toMatch(row, true, group));
      } catch (err) {
        if (isUniqueViolation(err, MATCH_SLOT_TAKEN))
          throw conflict(`Day ${match.day} match ${match.matchNo} already exists: update it instead.`);
        throw err;
      }
    },
  );

  app.put(
    endpoints.updateMatch.url,
    {
      schema: endpoints.updateMatch.schema,
    },
    async (request) => {
      const match = request.body;
      const existing = await findMatchById(app.store.db, request.params.id);
      if (!existing) throw notFound(MATCH_NOT_FOUND);
      if (existing.tournament_id !== match.tid) {
        throw badRequest('A match cannot be moved to another tournament.', { tid: 'A match cannot be moved to another tournament.' });
      }
      if (!(await findLiveTournament(app.store.db, match.tid))) throw notFound(TOURNAMENT_NOT_FOUND);
      try {
        const [row, group] = await app.store.writeTransaction(async (trx) => {
          // A match keeps its group unless the body names another (the spec's form has no group).
          const body = { ...match, groupId: match.groupId ?? (Number(existing.group_id) || undefined) };
          const group = await checkMatchOwner(trx, body);
          const updated = await updateMatch(trx, existing.id, body);
          if (updated) await bumpGeneration(trx, match.tid);
          if (updated) await enqueueRoomPosted(trx, updated, existing, app.clock.now());
          return [updated, group] as const;
        });
        if (!row) throw notFound(MATCH_NOT_FOUND);
        return toMatch(row, true, group);
      } catch (err) {
        if (isUniqueViolation(err, MATCH_SLOT_TAKEN)) {
          throw conflict(`Day ${match.day} match ${match.matchNo} already exists: choose another day or match number.`);
        }
        throw err;
      }
    },
  );
};

export default routes;
