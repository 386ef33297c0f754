import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@custom-room/contract';
import { listTournamentMatches, toMatch } from '../../db/matches.js';
import { findUserRegistration, isConfirmedTeam } from '../../db/registrations.js';
import { groupInfo, groupsOfTeams } from '../../db/stages.js';
import { currentUser, isAdmin } from '../../plugins/auth.js';
import { liveTournamentOr404 } from '../../services/live-tournament.js';
import { changeMatch, createMatch } from '../../services/matches.js';
import { allows, inScope, SITE_ADMIN, standingOn } from '../../services/standing.js';

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
      const tournament = await liveTournamentOr404(app.store.db, tournamentId);
      // The crew sees every room (a lobby manager, its groups' rooms; decision 065); a player, its own group's.
      const crew = isAdmin(user) ? SITE_ADMIN : await standingOn(app.store.db, user.id, tournamentId);
      const admin = !!crew && allows(crew, 'lobby');
      const [team, rows] = await Promise.all([
        admin ? undefined : findUserRegistration(app.store.db, tournamentId, user.id),
        listTournamentMatches(app.store.db, tournamentId),
      ]);
      // A lobby manager sees its groups' rooms only, not the tournament-wide ones (decision 065).
      const confirmed = (admin && crew?.kind !== 'lobby') || isConfirmed(team, Number(tournament.entry_fee));
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
        const showRoom =
          (!!crew && admin && inScope(crew, group?.stageId ?? 0, groupId)) || (confirmed && ownGroups.has(groupId) && !!group);
        return toMatch(row, showRoom, group);
      });
    },
  );

  app.post(endpoints.createMatch.url, { schema: endpoints.createMatch.schema }, async (request, reply) =>
    reply.status(201).send(await createMatch(app, request.body)),
  );

  app.put(endpoints.updateMatch.url, { schema: endpoints.updateMatch.schema }, async (request) =>
    changeMatch(app, request.params.id, request.body),
  );
};

export default routes;
