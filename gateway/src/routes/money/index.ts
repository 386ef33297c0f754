import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@custom-room/contract';
import { currentUser } from '../../plugins/auth.js';
import { awardPrizes, listPayouts, recordPayout, remindWinners, setPrizePayee } from '../../services/money/payouts.js';
import { prizesOf, setPrizes } from '../../services/money/prizes.js';
import { myMoney, recordRefund, refundsOf } from '../../services/money/refunds.js';
import { moneySummary } from '../../services/money/summary.js';
import statementRoutes from './statements.js';

/** Issue 31: money in and out. Statements (decisions 080, 081), refunds (082), the money page (083), prizes (084), payouts (085). */
const routes: FastifyPluginAsyncZod = async (app) => {
  await app.register(statementRoutes);

  // Decision 082: refunds of paid teams that left, and the team's own view of its money.
  app.get(endpoints.listRefunds.url, { schema: endpoints.listRefunds.schema }, (request) => refundsOf(app, request.params.id));

  app.post(endpoints.recordRefund.url, { schema: endpoints.recordRefund.schema }, (request) =>
    recordRefund(app, request.params.id, request.params.rid, currentUser(request), request.body),
  );

  // Decision 084: the prize table (public), set by whoever runs the tournament.
  app.get(endpoints.getPrizes.url, { schema: endpoints.getPrizes.schema }, (request) => prizesOf(app, request.params.id));

  app.put(endpoints.setPrizes.url, { schema: endpoints.setPrizes.schema }, (request) => setPrizes(app, request.params.id, request.body));

  // Decision 083: the tournament's money in one answer (the web's money page and its CSV).
  app.get(endpoints.moneySummary.url, { schema: endpoints.moneySummary.schema }, (request) => moneySummary(app, request.params.id));

  // Decision 085: prize payouts: the winners, the special prizes' winners, a reminder, each payout, and the captain's UPI ID.
  app.get(endpoints.listPayouts.url, { schema: endpoints.listPayouts.schema }, (request) => listPayouts(app, request.params.id));

  app.put(endpoints.awardPrizes.url, { schema: endpoints.awardPrizes.schema }, (request) =>
    awardPrizes(app, request.params.id, request.body),
  );

  app.post(endpoints.remindWinners.url, { schema: endpoints.remindWinners.schema }, (request) => remindWinners(app, request.params.id));

  app.post(endpoints.recordPayout.url, { schema: endpoints.recordPayout.schema }, (request) =>
    recordPayout(app, request.params.id, request.params.rid, currentUser(request), request.body),
  );

  app.put(endpoints.setPrizePayee.url, { schema: endpoints.setPrizePayee.schema }, async (request) => {
    const userId = currentUser(request).id;
    await setPrizePayee(app, request.params.id, userId, request.body);
    return myMoney(app, request.params.id, userId);
  });

  app.get(endpoints.myMoney.url, { schema: endpoints.myMoney.schema }, (request) =>
    myMoney(app, request.params.id, currentUser(request).id),
  );
};

export default routes;
