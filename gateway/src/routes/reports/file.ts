import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@custom-room/contract';
import { reportById } from '../../db/reports.js';
import { screenshotData } from '../../db/screenshots.js';
import { notFound } from '../../lib/errors.js';
import { currentUser } from '../../plugins/auth.js';
import { maySeeProof, refuseProof } from '../../services/reports/disputes.js';
import { checkScreenshotSoon } from '../../services/reports/lookalikes.js';
import { submitReport } from '../../services/reports/team.js';
import { reportDeps } from './deps.js';
import { acceptMultipart, multipartRoute, readScreenshotForm, sendScreenshot } from './uploads.js';

/** A team's report (multipart with its screenshot), and the screenshot for the team and the staff. */
const routes: FastifyPluginAsyncZod = async (app) => {
  await acceptMultipart(app);
  // Decision 077: comparisons run after the answer, each at a moment when no request is being answered.
  const deps = reportDeps(app);

  app.post(endpoints.fileReport.url, { ...multipartRoute(), schema: endpoints.fileReport.schema }, async (request, reply) => {
    const { id, day, match } = request.params;
    const upload = await readScreenshotForm(request);
    const at = { tournamentId: id, day, match, group: request.query.group };
    const report = await submitReport(deps, currentUser(request), at, upload.fields, upload.file, 'file');
    app.afterAnswer.run(reply, () => checkScreenshotSoon(deps, report.id, request.log));
    return reply.code(201).send(report);
  });

  app.put(endpoints.editReport.url, { ...multipartRoute(), schema: endpoints.editReport.schema }, async (request, reply) => {
    const { id, day, match } = request.params;
    const upload = await readScreenshotForm(request);
    const at = { tournamentId: id, day, match, group: request.query.group };
    const report = await submitReport(deps, currentUser(request), at, upload.fields, upload.file, 'edit');
    // A new screenshot is compared with earlier reports after the answer (decision 077).
    if (upload.file) app.afterAnswer.run(reply, () => checkScreenshotSoon(deps, report.id, request.log));
    return report;
  });

  app.get(endpoints.reportScreenshot.url, { schema: endpoints.reportScreenshot.schema }, async (request, reply) => {
    const { id, reportId } = request.params;
    const report = await reportById(app.store.db, id, reportId);
    if (!report) throw notFound('This report is not in the tournament.');
    if (!(await maySeeProof(deps, currentUser(request), id, [Number(report.registration_id)], Number(report.group_id))))
      throw refuseProof();
    const shot = await screenshotData(app.store.db, report.screenshot_id);
    if (!shot) throw notFound('This screenshot is gone.');
    return sendScreenshot(reply, shot);
  });
};

export default routes;
