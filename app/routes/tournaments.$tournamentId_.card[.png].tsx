import type { LoaderFunctionArgs } from '@remix-run/node';
import { tournamentCardImage } from '~/utils/share-images.server';

/** Resource route: the tournament page's link preview, a 1200×630 PNG (issue 20), from the gateway. */
export const loader = ({ request, params }: LoaderFunctionArgs) => tournamentCardImage(request, params.tournamentId);
