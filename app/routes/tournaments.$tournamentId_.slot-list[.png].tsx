import type { LoaderFunctionArgs } from '@remix-run/node';
import { slotListImage } from '~/utils/share-images.server';

/** Resource route: a group's slot list as a 1080×1350 PNG to share (issue 20), from the gateway. */
export const loader = ({ request, params }: LoaderFunctionArgs) => slotListImage(request, params.tournamentId);
