import { GROUP_NOT_FOUND, qualifyingNote, STAGE_NOT_FOUND } from '@custom-room/contract';
import type { Trx } from '../../db/index.js';
import { currentStage, findGroup, findStageRow } from '../../db/stages.js';
import { notFound } from '../../lib/errors.js';
import type { TableCard, TableRow } from '../../lib/share-image.js';
import { pointsTable } from '../points/tables.js';
import { cardTournament, LINK_SCALE, SITE_NAME, type CardContext } from './card-context.js';

/** A points image's scope: one day (undefined: overall) of a group's, a stage's or the current table. */
export interface PointsImageScope {
  tid: number;
  day?: number;
  stage?: number;
  group?: number;
}

/** A points table drawn as a card, with the image's name and the stage of its group (if a group's). */
export interface PointsDrawing {
  card: TableCard;
  name: string;
  stageId?: number;
}

const dayLabel = (day: number | undefined) => (day === undefined ? 'Overall' : `Day ${day}`);
const MEDALS = [undefined, 1, 2, 3] as const;

/**
 * Which stage and group the table is of, for its label: the one named, else the current stage. A
 * group's overall table shows its qualifying places (issue 27 item 23): the stage's top N of each group.
 */
async function tableLabel(db: Trx, { tid, day, stage, group }: PointsImageScope, rowCount: number) {
  const scope: string[] = [];
  if (group !== undefined) {
    const g = await findGroup(db, tid, group);
    if (!g) throw notFound(GROUP_NOT_FOUND);
    scope.push(g.stage.name, `Group ${g.name}`);
    const perGroup = Number(g.stage.advance_per_group);
    const hasCut = day === undefined && perGroup > 0 && rowCount > perGroup;
    const cut: Pick<TableCard, 'cut' | 'note'> = hasCut
      ? { cut: perGroup, note: qualifyingNote(perGroup, Number(g.stage.advance_best)) }
      : {};
    return { scope, groupStage: g.stageId, cut };
  }
  const s = stage !== undefined ? await findStageRow(db, tid, stage) : await currentStage(db, tid);
  if (stage !== undefined && !s) throw notFound(STAGE_NOT_FOUND);
  if (s) scope.push(s.name);
  return { scope, groupStage: undefined, cut: {} };
}

/** The page's address: a group's stage is named whether the request named it or not (?group= and ?stage=&group= are one image). */
function tableUrl(context: CardContext, { tid, day, stage, group }: PointsImageScope, groupStage: number | undefined) {
  const query = new URLSearchParams();
  if (day) query.set('day', String(day));
  const stageOfUrl = groupStage ?? stage;
  if (stageOfUrl !== undefined) query.set('stage', String(stageOfUrl));
  if (group !== undefined) query.set('group', String(group));
  const search = query.toString() ? `?${query}` : '';
  return `${context.webUrl}/tournaments/${tid}/points-table${search}`;
}

/** The points table of a scope (decision 041's tables) as a card, with the image's name and its group's stage. */
export async function pointsCard(db: Trx, context: CardContext, where: PointsImageScope): Promise<PointsDrawing> {
  const { tid, day, stage, group } = where;
  const t = await cardTournament(db, tid);
  // The same table and ranking as the page's call (the day or overall table of this scope).
  const rows = await pointsTable(db, tid, day, { stage, group });
  const { scope, groupStage, cut } = await tableLabel(db, where, rows.length);
  const card: TableCard = {
    site: SITE_NAME,
    title: t.name,
    subtitle: [t.game, ...scope, dayLabel(day)].join(' · '),
    columns: [
      { label: '#', align: 'center', width: 76 },
      { label: 'Team', align: 'start', width: 'fill' },
      { label: 'M', align: 'end', width: 64 },
      { label: 'Place', align: 'end', width: 100 },
      { label: 'Fin.', align: 'end', width: 84 },
      { label: 'Wins', align: 'end', width: 84 },
      { label: 'Total', align: 'end', width: 104, bold: true },
    ],
    rows: rows.map((r): TableRow => ({
      cells: [r.rank, r.teamName, r.matchesPlayed, r.positionPoints, r.finishes, r.wins, r.totalPoints].map(String),
      // The top three marked, as on the page.
      ...(r.rank <= 3 ? { medal: MEDALS[r.rank] } : {}),
    })),
    ...cut,
    url: tableUrl(context, where, groupStage),
    more: (hidden) => `and ${hidden} more ${hidden === 1 ? 'team' : 'teams'}: see the full table at the address below`,
    empty: 'No results yet.',
  };
  const scopeName = group !== undefined ? `-group-${group}` : stage !== undefined ? `-stage-${stage}` : '';
  return { card, name: `${tid}${scopeName}-${day ? `day-${day}` : 'overall'}`, stageId: groupStage };
}

/** A points table's link card (issue 20): the current top three with their totals, large enough to read in a chat's preview. */
export const topThree = (card: TableCard): TableCard => ({
  ...card,
  columns: [
    { label: '#', align: 'center', width: 76 },
    { label: 'Team', align: 'start', width: 'fill' },
    { label: 'M', align: 'end', width: 64 },
    { label: 'Total', align: 'end', width: 120, bold: true },
  ],
  rows: card.rows.map((r) => ({ ...r, cells: [r.cells[0]!, r.cells[1]!, r.cells[2]!, r.cells[6]!] })),
  more: (hidden) => `and ${hidden} more ${hidden === 1 ? 'team' : 'teams'}`,
  maxRows: 3,
  scale: LINK_SCALE,
  // The top three only: no cut line nor its note.
  cut: undefined,
  note: undefined,
});
