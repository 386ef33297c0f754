// "[.ics]" escapes the dot (Remix flat routes): the URL is /tournament/{tournamentId}/matches.ics (issue 20, decision 050).
import type { LoaderFunctionArgs } from '@remix-run/node';
import { NO_TEAM_REGISTERED, TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { getEnv } from '~/utils/env.server';
import { gateway, GatewayError } from '~/utils/gateway.server';
import { publicOrigin } from '~/utils/link-preview.server';
import { calendarFileName, matchCalendar } from '~/utils/match-calendar.server';
import { requireUser } from '~/utils/session.server';
import { parseTournamentId } from '~/utils/tournament';

const NO_PLACE = 'Your team no longer has a place in this tournament.';

function plain(message: string, status: number) {
  return new Response(message, {
    status,
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      ...(status === 503 ? { 'Retry-After': '5' } : {}),
    },
  });
}

/** A gateway failure as a short answer: unreachable 503, its 404s in words, anything else with its status. */
function failed(err: unknown, notFound: string): Response {
  if (!(err instanceof GatewayError)) throw err; // the redirect to /login
  if (err.unavailable) return plain(err.message, 503);
  if (err.status === 404) return plain(notFound, 404);
  return plain(err.message || 'Could not make the calendar. Please try again.', err.status);
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const id = parseTournamentId(params.tournamentId);
  if (id === null) return plain(TOURNAMENT_NOT_FOUND, 404);

  const [tournamentRead, teamRead, matchesRead] = await Promise.allSettled([
    gateway.getTournament(request, id),
    gateway.myTeam(request, id),
    gateway.listMatches(request, id),
  ]);
  if (tournamentRead.status === 'rejected') return failed(tournamentRead.reason, TOURNAMENT_NOT_FOUND);
  // Only a member of a team that holds or waits for a place: the matches page shows everyone the schedule,
  // the calendar is "your matches" (the team page's refusal, decision 050).
  if (teamRead.status === 'rejected') return failed(teamRead.reason, NO_TEAM_REGISTERED);
  if (matchesRead.status === 'rejected') return failed(matchesRead.reason, TOURNAMENT_NOT_FOUND);
  const [tournament, team, matches] = [tournamentRead.value, teamRead.value, matchesRead.value];
  if (team.place === 'released' || team.place === 'withdrawn') return plain(NO_PLACE, 404);

  const ics = matchCalendar({
    tournament: { id: tournament.id, name: tournament.name, game: tournament.game, startDate: tournament.startDate },
    // Room ID and password are left behind here: the calendar never has them.
    matches: matches.map((m) => ({
      id: m.id,
      day: m.day,
      matchNo: m.matchNo,
      map: m.map,
      time: m.time,
      matchId: null,
      password: null,
      groupId: m.groupId ?? null,
      groupName: m.groupName ?? null,
      stageId: m.stageId ?? null,
      stageName: m.stageName ?? null,
    })),
    ownGroupIds: (team.placements ?? []).map((p) => p.groupId),
    timeZone: getEnv().APP_TIME_ZONE,
    // The server builds the URL from a trusted proxy's X-Forwarded-Proto only (decision 020).
    // PUBLIC_URL when set (decision 049): one origin for the links and the UIDs, however the site was reached.
    origin: publicOrigin(request),
    now: new Date(),
  });
  return new Response(ics, {
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': `attachment; filename="${calendarFileName(tournament)}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
