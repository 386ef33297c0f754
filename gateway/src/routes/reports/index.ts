import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@custom-room/contract';
import { currentUser } from '../../plugins/auth.js';
import { changeReporting, confirmLobby } from '../../services/reports/confirm.js';
import { lobbyView } from '../../services/reports/lobby.js';
import { changeReportSettings, reportSettings } from '../../services/reports/settings.js';
import { myReports } from '../../services/reports/team.js';
import { reportDeps } from './deps.js';
import disputeRoutes from './disputes.js';
import fileRoutes from './file.js';

/** Issue 30 (decision 071): captains' reports, the staff's lobby view and confirmation, settings, disputes. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const deps = reportDeps(app);
  await app.register(fileRoutes);
  await app.register(disputeRoutes);

  app.get(endpoints.myReports.url, { schema: endpoints.myReports.schema }, (request) =>
    myReports(deps, currentUser(request), request.params.id),
  );

  app.get(endpoints.reportLobby.url, { schema: endpoints.reportLobby.schema }, (request) => {
    const { id, day, match } = request.params;
    return lobbyView(deps, request.standing, { tournamentId: id, day, match, group: request.query.group });
  });

  app.post(endpoints.confirmLobby.url, { schema: endpoints.confirmLobby.schema, bodyLimit: 256 * 1024 }, (request) => {
    const { id, day, match } = request.params;
    const at = { tournamentId: id, day, match, group: request.query.group };
    return confirmLobby(deps, request.standing, currentUser(request), at, request.body.results);
  });

  app.put(endpoints.setReporting.url, { schema: endpoints.setReporting.schema }, (request) => {
    const { id, day, match } = request.params;
    return changeReporting(deps, request.standing, { tournamentId: id, day, match, group: request.query.group }, request.body.open);
  });

  app.get(endpoints.reportSettings.url, { schema: endpoints.reportSettings.schema }, (request) =>
    reportSettings(app.store.db, request.params.id),
  );

  app.put(endpoints.setReportSettings.url, { schema: endpoints.setReportSettings.schema }, (request) =>
    changeReportSettings(app, request.params.id, request.body),
  );
};

export default routes;
