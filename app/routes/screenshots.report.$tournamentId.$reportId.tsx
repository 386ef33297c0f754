import type { LoaderFunctionArgs } from '@remix-run/node';
import { screenshotRoute } from '~/utils/reports.server';

/** Resource route (issue 30): a report's screenshot, proxied with the caller's token (the team and the staff only). */
export const loader = ({ request, params }: LoaderFunctionArgs) => screenshotRoute(request, params.tournamentId, params.reportId, 'report');
