import type { LoaderFunctionArgs } from '@remix-run/node';
import { playersImage } from '~/utils/share-images.server';

/** Resource route: Top fraggers as a 1080×1350 PNG to share (issue 30, decision 076), from the gateway. */
export const loader = ({ request, params }: LoaderFunctionArgs) => playersImage(request, params.tournamentId);
