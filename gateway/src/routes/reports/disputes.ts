import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@custom-room/contract';
import { disputeById } from '../../db/disputes.js';
import { screenshotData } from '../../db/screenshots.js';
import { notFound } from '../../lib/errors.js';
import { currentUser } from '../../plugins/auth.js';
import { disputesFor, fileDispute, maySeeProof, refuseProof, resolveDispute } from '../../services/reports/disputes.js';
import { reportDeps } from './deps.js';
import { acceptMultipart, multipartRoute, readScreenshotForm, sendScreenshot } from './uploads.js';

/** Disputes of confirmed rows: filed by a team (multipart, optional screenshot), listed, resolved by the staff. */
const routes: FastifyPluginAsyncZod = async (app) => {
  await acceptMultipart(app);
  const deps = reportDeps(app);

  app.post(endpoints.fileDispute.url, { ...multipartRoute(), schema: endpoints.fileDispute.schema }, async (request, reply) => {
    const upload = await readScreenshotForm(request);
    const dispute = await fileDispute(deps, currentUser(request), request.params.id, upload.fields, upload.file);
    return reply.code(201).send(dispute);
  });

  app.get(endpoints.listDisputes.url, { schema: endpoints.listDisputes.schema }, (request) =>
    disputesFor(deps, currentUser(request), request.params.id, request.query),
  );

  app.post(endpoints.resolveDispute.url, { schema: endpoints.resolveDispute.schema }, (request) =>
    resolveDispute(deps, request.standing, currentUser(request), request.params.id, request.params.disputeId, request.body),
  );

  app.get(endpoints.disputeScreenshot.url, { schema: endpoints.disputeScreenshot.schema }, async (request, reply) => {
    const { id, disputeId } = request.params;
    const dispute = await disputeById(app.store.db, id, disputeId);
    if (!dispute?.screenshot_id) throw notFound('This dispute has no screenshot.');
    const teams = [Number(dispute.by_registration_id)];
    if (!(await maySeeProof(deps, currentUser(request), id, teams, Number(dispute.group_id)))) throw refuseProof();
    const shot = await screenshotData(app.store.db, dispute.screenshot_id);
    if (!shot) throw notFound('This screenshot is gone.');
    return sendScreenshot(reply, shot);
  });
};

export default routes;
