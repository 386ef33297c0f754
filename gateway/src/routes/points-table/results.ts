import { hasZodFastifySchemaValidationErrors, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@custom-room/contract';
import { isoAt } from '../../lib/clock.js';
import { badRequest, type FieldErrors } from '../../lib/errors.js';
import { currentUser } from '../../plugins/auth.js';
import { matchResults, recordTeamResult, saveMatchResults } from '../../services/results/record.js';
import { assertGroupsInScope } from '../../services/standing.js';

/**
 * The batch form names its inputs `position.{teamId}`, so row errors are keyed the same way
 * (`results.3.position` becomes `position.42`) wherever the row's teamId can be read.
 */
function batchValidationError(error: unknown, body: unknown): unknown {
  if (!hasZodFastifySchemaValidationErrors(error)) return error;
  const rows = (body as { results?: unknown } | null)?.results;
  const errors: FieldErrors = {};
  for (const issue of error.validation) {
    const path = issue.instancePath.replace(/^\//, '').split('/').filter(Boolean);
    let field = path.join('.') || 'request';
    if (error.validationContext === 'body' && path[0] === 'results' && path.length >= 3 && Array.isArray(rows)) {
      const teamId = Number((rows[Number(path[1])] as { teamId?: unknown } | undefined)?.teamId);
      if (Number.isInteger(teamId) && teamId > 0) field = `${path.slice(2).join('.')}.${teamId}`;
    }
    errors[field] ??= issue.message;
  }
  return badRequest('Please check the highlighted fields.', errors);
}

/** The admin's results calls: one team's result, a whole match, and a match's stored rows (services/results). */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(endpoints.submitResult.url, { schema: endpoints.submitResult.schema }, async (request) => {
    await assertGroupsInScope(app.store.db, request.standing, request.params.id, [request.body.groupId]);
    return recordTeamResult(
      app.store,
      { ...request.body, tournamentId: request.params.id },
      { by: currentUser(request), at: isoAt(app.clock.now()) },
    );
  });

  app.put(
    endpoints.saveMatchResults.url,
    {
      // Room for MAX_MATCH_ROWS rows that also carry the ignored teamName and totalPoints.
      bodyLimit: 256 * 1024,
      attachValidation: true,
      schema: endpoints.saveMatchResults.schema,
    },
    async (request) => {
      if (request.validationError) throw batchValidationError(request.validationError, request.body);
      const { id: tournamentId, day, match } = request.params;
      await assertGroupsInScope(app.store.db, request.standing, tournamentId, [request.body.groupId]);
      return saveMatchResults(app.store, { tournamentId, day, match, groupId: request.body.groupId }, request.body.results, {
        by: currentUser(request),
        at: isoAt(app.clock.now()),
      });
    },
  );

  app.get(endpoints.matchResults.url, { schema: endpoints.matchResults.schema }, async (request) => {
    const { day, match, group } = request.query;
    await assertGroupsInScope(app.store.db, request.standing, request.params.id, [group]);
    return matchResults(app.store.db, { tournamentId: request.params.id, day, match, groupId: group });
  });
};

export default routes;
