import { GROUP_NOT_FOUND, STAGE_NOT_FOUND, type PlayerStats } from '@custom-room/contract';
import { playerTotals } from '../../db/reports.js';
import { stageGroups } from '../../db/stage-groups.js';
import { findGroup, findStageRow } from '../../db/stages.js';
import type { Trx } from '../../db/types.js';
import { notFound } from '../../lib/errors.js';
import { liveTournamentOr404 } from '../live-tournament.js';
import type { TableScope } from './tables.js';

/** The most rows "Top fraggers" lists. */
export const PLAYER_STATS_LIMIT = 100;

/** The groups a scope covers: one group, a stage's groups, or (neither named) the whole tournament (null). 404 as the tables. */
async function scopeGroups(db: Trx, tid: number, scope: TableScope): Promise<number[] | null> {
  if (scope.group !== undefined) {
    const group = await findGroup(db, tid, scope.group);
    if (!group || group.stage.state === 'draft' || (scope.stage !== undefined && group.stageId !== scope.stage))
      throw notFound(GROUP_NOT_FOUND);
    return [group.id];
  }
  if (scope.stage === undefined) return null;
  const stage = await findStageRow(db, tid, scope.stage);
  if (!stage || stage.state === 'draft') throw notFound(STAGE_NOT_FOUND);
  return ((await stageGroups(db, [stage.id])).get(stage.id) ?? []).map((g) => Number(g.id));
}

/**
 * GET .../points-table/players (decision 071): each player's finishes in confirmed reports, most first
 * (then fewer matches, then the name); equal finishes and matches share a rank.
 */
export async function playerStats(db: Trx, tid: number, scope: TableScope): Promise<PlayerStats> {
  await liveTournamentOr404(db, tid);
  const rows = await playerTotals(db, tid, await scopeGroups(db, tid, scope));
  rows.sort((a, b) => b.finishes - a.finishes || a.matches - b.matches || a.ign.localeCompare(b.ign));
  let rank = 0;
  return rows.slice(0, PLAYER_STATS_LIMIT).map((r, i) => {
    const prev = rows[i - 1];
    if (!prev || prev.finishes !== r.finishes || prev.matches !== r.matches) rank = i + 1;
    return { rank, ign: r.ign, teamId: r.registrationId, teamName: r.teamName, finishes: r.finishes, matches: r.matches };
  });
}
