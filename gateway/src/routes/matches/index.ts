import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isUniqueViolation } from '../../db/index.js';
import { bumpGeneration } from '../../db/generation.js';
import { MATCH_SLOT_TAKEN, findMatchById, insertMatch, listTournamentMatches, toMatch, updateMatch } from '../../db/matches.js';
import { findLiveTournament, findUserRegistration } from '../../db/registrations.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { currentUser, isAdmin, requireAdmin, requireUser } from '../../plugins/auth.js';
import { endpoints, MATCH_NOT_FOUND, TOURNAMENT_NOT_FOUND } from '@custom-room/contract';

/** Decision 029: a place is confirmed once the organisers verify the payment, or at once in a free tournament. */
const isConfirmed = (team: { payment_status: string } | undefined, entryFee: number) =>
  !!team && (entryFee <= 0 || team.payment_status === 'verified');

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    endpoints.listMatches.url,
    {
      preHandler: requireUser,
      schema: endpoints.listMatches.schema,
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { tournamentId } = request.params;
      const tournament = await findLiveTournament(app.store.db, tournamentId);
      if (!tournament) throw notFound(TOURNAMENT_NOT_FOUND);
      const [showRoom, rows] = await Promise.all([
        isAdmin(user)
          ? true
          : findUserRegistration(app.store.db, tournamentId, user.id).then((team) => isConfirmed(team, Number(tournament.entry_fee))),
        listTournamentMatches(app.store.db, tournamentId),
      ]);
      // Room details must never sit in a shared cache.
      reply.header('cache-control', 'private, no-store');
      return rows.map((row) => toMatch(row, showRoom));
    },
  );

  app.post(
    endpoints.createMatch.url,
    {
      preHandler: requireAdmin,
      schema: endpoints.createMatch.schema,
    },
    async (request, reply) => {
      const match = request.body;
      if (!(await findLiveTournament(app.store.db, match.tid))) throw notFound(TOURNAMENT_NOT_FOUND);
      try {
        const row = await app.store.writeTransaction(async (trx) => {
          const inserted = await insertMatch(trx, match);
          await bumpGeneration(trx, match.tid);
          return inserted;
        });
        return reply.status(201).send(toMatch(row, true));
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
      preHandler: requireAdmin,
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
        const row = await app.store.writeTransaction(async (trx) => {
          const updated = await updateMatch(trx, existing.id, match);
          if (updated) await bumpGeneration(trx, match.tid);
          return updated;
        });
        if (!row) throw notFound(MATCH_NOT_FOUND);
        return toMatch(row, true);
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
