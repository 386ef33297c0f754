import { data } from '@remix-run/node';
import { TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { parseTournamentId } from './tournament';

/** requireTournamentId: the tournament id of a route's URL, or a thrown 404 "Tournament not found." page. */
export function requireTournamentId(raw: string | undefined): number {
  const id = parseTournamentId(raw);
  if (id === null) throw data({ message: TOURNAMENT_NOT_FOUND }, { status: 404 });
  return id;
}
