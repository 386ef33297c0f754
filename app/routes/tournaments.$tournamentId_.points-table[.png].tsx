import type { LoaderFunctionArgs } from '@remix-run/node';
import { pointsTableImage } from '~/utils/share-images.server';

/** Resource route: the points table as a 1080×1350 PNG to share (issue 20), from the gateway. */
export const loader = ({ request, params }: LoaderFunctionArgs) => pointsTableImage(request, params.tournamentId);
