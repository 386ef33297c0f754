import type { LoaderFunctionArgs } from '@remix-run/node';
import { pointsCardImage } from '~/utils/share-images.server';

/** Resource route: the points pages' link preview, a 1200×630 PNG of the top 3 (issue 20), from the gateway. */
export const loader = ({ request, params }: LoaderFunctionArgs) => pointsCardImage(request, params.tournamentId);
