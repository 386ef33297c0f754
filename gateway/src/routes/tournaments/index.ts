import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  endpoints,
  phaseChangesAt,
  standingAllows,
  type TournamentJson,
  TournamentListSchema,
  TournamentSchema,
} from '@custom-room/contract';
import { deskTournaments } from '../../db/staff.js';
import { listTournamentSummaries, listTournaments, toTournamentJson } from '../../db/tournaments.js';
import { currentUser } from '../../plugins/auth.js';
import { tournamentJsonOr404 } from '../../services/tournaments.js';
import { MULTIPART_LIMITS } from './upload.js';
import writeRoutes from './write.js';

/** The soonest instant at which one of these tournaments' phase may change by time alone (decision 051). */
function firstChange(tournaments: TournamentJson[], now: number): number | null {
  const edges = tournaments.map((t) => phaseChangesAt(t, now)).filter((ms): ms is number => ms !== null);
  return edges.length > 0 ? Math.min(...edges) : null;
}

/** Tournaments: the public reads and the admin list here, the organiser's writes in write.ts. */
const routes: FastifyPluginAsyncZod = async (app) => {
  // Encapsulated: only this plugin's routes accept multipart bodies.
  await app.register(multipart, { limits: MULTIPART_LIMITS });

  app.get(endpoints.listTournaments.url, { schema: endpoints.listTournaments.schema }, (request, reply) =>
    app.answers.send(request, reply, {
      key: 'tournaments',
      build: async () => {
        const now = app.clock.now();
        return (await listTournaments(app.store.db)).map((row) => toTournamentJson(row, now));
      },
      schema: TournamentListSchema,
      // The phase reads the clock (decision 051): kept no longer than the first tournament's next edge.
      changesAt: (value, now) => firstChange(value as TournamentJson[], now),
    }),
  );

  // A static path: find-my-way matches it before /tournaments/:id, which is one segment shorter anyway.
  app.get(endpoints.adminTournamentSummary.url, { schema: endpoints.adminTournamentSummary.schema }, async (request, reply) => {
    reply.header('cache-control', 'private, no-store');
    const all = await listTournamentSummaries(app.store.db, app.clock.now());
    if (request.standing?.kind === 'site-admin') return all;
    // An organiser or a crew member sees the tournaments it works on (decision 065).
    const kinds = new Map((await deskTournaments(app.store.db, currentUser(request).id)).map((t) => [t.id, t.kind] as const));
    // A lobby manager sees nothing of payments (decision 065): its rows carry no payment figures.
    return all
      .filter((t) => kinds.has(t.id))
      .map((t) => {
        if (standingAllows(kinds.get(t.id), 'payments')) return t;
        const { payeeUpiId: _payee, failedDeliveries: _failed, ...rest } = t;
        return { ...rest, paymentsAwaiting: 0, payments: { pending: 0, submitted: 0, verified: 0, rejected: 0 } };
      });
  });

  app.get(endpoints.getTournament.url, { schema: endpoints.getTournament.schema }, (request, reply) => {
    const { id } = request.params;
    return app.answers.send(request, reply, {
      key: `tournament:${id}`,
      tournamentId: id,
      build: () => tournamentJsonOr404(app, id),
      schema: TournamentSchema,
      changesAt: (value, now) => firstChange([value as TournamentJson], now),
    });
  });

  await app.register(writeRoutes);
};

export default routes;
