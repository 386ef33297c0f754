import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isUniqueViolation } from '../../db/index.js';
import { bumpGeneration } from '../../db/generation.js';
import { MATCH_SLOT_TAKEN, findMatchById, insertMatch, listTournamentMatches, toMatch, updateMatch } from '../../db/matches.js';
import { findLiveTournament, findUserRegistration } from '../../db/registrations.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { currentUser, isAdmin, requireAdmin, requireUser } from '../../plugins/auth.js';
import { ErrorSchema } from '../../schemas/common.js';
import { MatchBodySchema, MatchIdParamsSchema, MatchSchema, MatchTournamentParamsSchema } from '../../schemas/match.js';

const TAGS = ['matches'];
const SECURITY = [{ bearerAuth: [] }];
const TOURNAMENT_NOT_FOUND = 'Tournament not found.';

/** Decision 029: a place is confirmed once the organisers verify the payment, or at once in a free tournament. */
const isConfirmed = (team: { payment_status: string } | undefined, entryFee: number) => !!team && (entryFee <= 0 || team.payment_status === 'verified');

const errorResponses = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, ErrorSchema]));

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/matches/tournament/:tournamentId',
    {
      preHandler: requireUser,
      schema: {
        tags: TAGS,
        summary: 'Match schedule of a tournament, by day and match number',
        description:
          'matchId (room ID) and password are filled only for admins and confirmed teams of the tournament (payment verified, or any registered team when the entry fee is 0); null for everyone else.',
        security: SECURITY,
        params: MatchTournamentParamsSchema,
        response: { 200: z.array(MatchSchema), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { tournamentId } = request.params;
      const tournament = await findLiveTournament(app.store.db, tournamentId);
      if (!tournament) throw notFound(TOURNAMENT_NOT_FOUND);
      const [showRoom, rows] = await Promise.all([
        isAdmin(user) ? true : findUserRegistration(app.store.db, tournamentId, user.id).then((team) => isConfirmed(team, Number(tournament.entry_fee))),
        listTournamentMatches(app.store.db, tournamentId),
      ]);
      // Room details must never sit in a shared cache.
      reply.header('cache-control', 'private, no-store');
      return rows.map((row) => toMatch(row, showRoom));
    },
  );

  app.post(
    '/matches',
    {
      preHandler: requireAdmin,
      schema: {
        tags: TAGS,
        summary: 'Create a match (admin)',
        description: 'One match per (tournament, day, match number): day 1-7, match 1-6; time is HH:MM or HH:MM:SS (24-hour).',
        security: SECURITY,
        body: MatchBodySchema,
        response: { 201: MatchSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
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
        if (isUniqueViolation(err, MATCH_SLOT_TAKEN)) throw conflict(`Day ${match.day} match ${match.matchNo} already exists: update it instead.`);
        throw err;
      }
    },
  );

  app.put(
    '/matches/:id',
    {
      preHandler: requireAdmin,
      schema: {
        tags: TAGS,
        summary: 'Update a match (admin)',
        description: 'Same fields as creating one; the match stays in its tournament.',
        security: SECURITY,
        params: MatchIdParamsSchema,
        body: MatchBodySchema,
        response: { 200: MatchSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const match = request.body;
      const existing = await findMatchById(app.store.db, request.params.id);
      if (!existing) throw notFound('Match not found.');
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
        if (!row) throw notFound('Match not found.');
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
