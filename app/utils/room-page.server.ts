import { sharedAnswer } from './client.server';
import { gateway } from './gateway.server';

/** The room page, /tournament/{id}/matches (decision 087): the page a thousand players open the minute the rooms are posted. */
const ROOM_PAGE = /^\/tournament\/(\d{1,9})\/matches\/?$/;

/** The tournament id when request is for the room page; null for any other. */
export function roomPageTournament(request: Request): number | null {
  const found = ROOM_PAGE.exec(new URL(request.url).pathname);
  return found ? Number(found[1]) : null;
}

/**
 * The room page's one gateway answer (GET /tournaments/{id}/schedule/mine), read once per request: its loader
 * reads the schedule from it, and the root loader the caller's account (instead of GET /api/auth/me).
 */
export function roomPageAnswer(request: Request, id: number) {
  return sharedAnswer(request, `mySchedule:${id}`, () => gateway.mySchedule(request, id));
}
