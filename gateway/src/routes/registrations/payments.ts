import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@custom-room/contract';
import { currentUser } from '../../plugins/auth.js';
import { setPaymentStatus, setPaymentStatuses, submitTeamPayment } from '../../services/registrations/payments.js';

/** A team's payment: the player sends its UPI reference; the organiser sets the status of one team or several. */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(endpoints.submitPayment.url, { schema: endpoints.submitPayment.schema }, async (request) =>
    submitTeamPayment(app, request.params.tournamentId, currentUser(request).id, request.body.upiReference),
  );

  app.put(endpoints.setPaymentStatuses.url, { schema: endpoints.setPaymentStatuses.schema }, async (request) =>
    setPaymentStatuses(app, request.body),
  );

  app.put(endpoints.setPaymentStatus.url, { schema: endpoints.setPaymentStatus.schema }, async (request) =>
    setPaymentStatus(app, request.params.rid, request.body),
  );
};

export default routes;
