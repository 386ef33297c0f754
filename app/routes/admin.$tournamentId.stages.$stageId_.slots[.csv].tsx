// "[.csv]" escapes the dot: the URL is /admin/{tournamentId}/stages/{stageId}/slots.csv.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { requireDesk } from '~/utils/desk.server';
import { gateway } from '~/utils/gateway.server';
import { byGroupName, csvResponse, gatewayRefusal, plain, stageFor } from '~/utils/stage-csv.server';
import { parseTournamentId } from '~/utils/tournament';

const HEADER = ['group', 'slot', 'team', 'players', 'captain'];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireDesk(request);
  const tid = parseTournamentId(params.tournamentId);
  if (tid === null) return plain(TOURNAMENT_NOT_FOUND, 404);
  const found = await stageFor(request, tid, params.stageId);
  if (found.refused) return found.refused;
  let registrations;
  try {
    registrations = await gateway.tournamentRegistrations(request, tid);
  } catch (err) {
    return gatewayRefusal(err);
  }
  const byRid = new Map(registrations.map((r) => [r.rid, r]));
  const rows = [...found.stage.groups]
    .sort((a, b) => byGroupName(a.name, b.name))
    .flatMap((g) =>
      [...g.slots]
        .sort((a, b) => a.slot - b.slot)
        .map((s) => {
          const r = byRid.get(s.teamId);
          const players = r
            ? [
                r.player1Username,
                r.player2Username,
                r.player3Username,
                r.player4Username,
                r.substitute1Username,
                r.substitute2Username,
              ].filter(Boolean)
            : [];
          // Player 1 is the team's IGL: the captain the organiser calls before the match.
          return [g.name, s.slot, s.teamName, players.join('; '), r?.player1Username ?? ''];
        }),
    );
  return csvResponse([HEADER, ...rows], `tournament-${tid}-${found.stage.name}-slots`);
}
