import { TOURNAMENT_NOT_FOUND } from '@custom-room/contract';
import type { Trx } from '../../db/index.js';
import { getTournament } from '../../db/tournaments.js';
import { notFound } from '../../lib/errors.js';

/** The site's name on the images, as in the web app's titles. */
export const SITE_NAME = 'Custom Room';

/** A link card is shown a third of its size in a chat: its type at 1.8 times the table images'. */
export const LINK_SCALE = 1.8;

/** What every card needs from the configuration: the web app's address (for the URL at the foot) and time zone. */
export interface CardContext {
  /** Without a trailing slash. */
  webUrl: string;
  timeZone: string;
}

/** The tournament's whole row (name, game, dates, phase), or 404 when it does not exist or is deleted. */
export async function cardTournament(db: Trx, tid: number) {
  const t = await getTournament(db, tid);
  if (!t) throw notFound(TOURNAMENT_NOT_FOUND);
  return t;
}
