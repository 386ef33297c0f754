import type { Trx } from '../../db/index.js';
import { findGroup, findStageRow } from '../../db/stages.js';
import type { TableCard, TableRow } from '../../lib/share-image.js';
import { playerStats } from '../points/players.js';
import type { TableScope } from '../points/tables.js';
import { cardTournament, SITE_NAME, type CardContext } from './card-context.js';

/** Top fraggers' image scope: a group's, a stage's, or (neither) the whole tournament's, as the players call. */
export interface PlayersImageScope extends TableScope {
  tid: number;
}

const MEDALS = [undefined, 1, 2, 3] as const;

/** The scope's words for the subtitle; the players call has already refused a scope that does not exist. */
async function scopeWords(db: Trx, { tid, stage, group }: PlayersImageScope): Promise<string[]> {
  if (group !== undefined) {
    const g = await findGroup(db, tid, group);
    return g ? [g.stage.name, `Group ${g.name}`] : [];
  }
  if (stage !== undefined) {
    const s = await findStageRow(db, tid, stage);
    return s ? [s.name] : [];
  }
  return [];
}

/** The page's address: the points page's Top fraggers view of the same scope. */
function playersUrl(context: CardContext, { tid, stage, group }: PlayersImageScope): string {
  const query = new URLSearchParams({ view: 'players' });
  if (stage !== undefined) query.set('stage', String(stage));
  if (group !== undefined) query.set('group', String(group));
  return `${context.webUrl}/tournaments/${tid}/points-table?${query}`;
}

/**
 * Top fraggers (issue 30, decision 076) as a card: the same players, ranks and scope as
 * GET .../points-table/players, drawn by the points table's layout (its fonts, medals and footer).
 */
export async function playersCard(db: Trx, context: CardContext, where: PlayersImageScope): Promise<{ card: TableCard; name: string }> {
  const { tid, stage, group } = where;
  const t = await cardTournament(db, tid);
  const players = await playerStats(db, tid, { stage, group });
  const card: TableCard = {
    site: SITE_NAME,
    title: t.name,
    subtitle: [t.game, ...(await scopeWords(db, where)), 'Top fraggers'].join(' · '),
    columns: [
      { label: '#', align: 'center', width: 76 },
      { label: 'Player', align: 'start', width: 'fill' },
      { label: 'Team', align: 'start', width: 330 },
      { label: 'M', align: 'end', width: 64 },
      { label: 'Fin.', align: 'end', width: 96, bold: true },
    ],
    rows: players.map((p): TableRow => ({
      cells: [String(p.rank), p.ign, p.teamName, String(p.matches), String(p.finishes)],
      ...(p.rank <= 3 ? { medal: MEDALS[p.rank] } : {}),
    })),
    url: playersUrl(context, where),
    more: (hidden) => `and ${hidden} more ${hidden === 1 ? 'player' : 'players'}: see the full list at the address below`,
    empty: "No player finishes yet: they come from the teams' confirmed reports.",
  };
  const scopeName = group !== undefined ? `-group-${group}` : stage !== undefined ? `-stage-${stage}` : '';
  return { card, name: `${tid}${scopeName}` };
}
