// "[.csv]" escapes the dot: the URL is /admin/{tournamentId}/stages/{stageId}/results.csv.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { requireDesk } from '~/utils/desk.server';
import { gateway, type MatchResult } from '~/utils/gateway.server';
import { byGroupName, csvResponse, gatewayRefusal, plain, stageFor } from '~/utils/stage-csv.server';
import { parseTournamentId } from '~/utils/tournament';

const HEADER = ['group', 'slot', 'team', 'day', 'match', 'position', 'finishes', 'points', 'absent'];
/** Group matches read at once: a 40-group stage has hundreds; a few at a time spares the gateway. */
const AT_ONCE = 4;

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireDesk(request);
  const tid = parseTournamentId(params.tournamentId);
  if (tid === null) return plain(TOURNAMENT_NOT_FOUND, 404);
  const found = await stageFor(request, tid, params.stageId);
  if (found.refused) return found.refused;
  const { stage } = found;
  const rows: (string | number)[][] = [];
  try {
    const matches = (await gateway.listMatches(request, tid))
      .filter((m) => m.stageId === stage.id && m.groupId)
      .sort((a, b) => a.day - b.day || a.matchNo - b.matchNo || byGroupName(a.groupName ?? '', b.groupName ?? ''));
    const slotOf = new Map<string, number>(
      stage.groups.flatMap((g) => g.slots.map((s) => [`${g.id}:${s.teamId}`, s.slot] as [string, number])),
    );
    for (let i = 0; i < matches.length; i += AT_ONCE) {
      const batch = matches.slice(i, i + AT_ONCE);
      const answers = await Promise.all(batch.map((m) => gateway.matchResults(request, tid, m.day, m.matchNo, m.groupId)));
      batch.forEach((m, k) => {
        const results = [...(answers[k] as MatchResult[])].sort(
          (a, b) => (slotOf.get(`${m.groupId}:${a.teamId}`) ?? 0) - (slotOf.get(`${m.groupId}:${b.teamId}`) ?? 0),
        );
        for (const r of results) {
          rows.push([
            m.groupName ?? '',
            slotOf.get(`${m.groupId}:${r.teamId}`) ?? '',
            r.teamName,
            m.day,
            m.matchNo,
            r.position,
            r.finishes,
            r.totalPoints,
            r.absent ? 'yes' : 'no',
          ]);
        }
      });
    }
  } catch (err) {
    return gatewayRefusal(err);
  }
  return csvResponse([HEADER, ...rows], `tournament-${tid}-${stage.name}-results`);
}
