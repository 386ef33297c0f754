import type { LoaderFunctionArgs } from '@remix-run/node';
import { screenshotRoute } from '~/utils/reports.server';

/** Resource route (issue 30): a dispute's screenshot, proxied with the caller's token (the disputing team and the staff only). */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  screenshotRoute(request, params.tournamentId, params.disputeId, 'dispute');
