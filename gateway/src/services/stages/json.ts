import type { DrawMethod, Group, Match, NoShowAction, Stage } from '@custom-room/contract';
import type { Trx } from '../../db/index.js';
import { toMatch } from '../../db/matches.js';
import { stageGroups } from '../../db/stage-groups.js';
import { groupMatchCounts, stageMatchRows } from '../../db/stage-matches.js';
import { stagesWithResults } from '../../db/stage-results.js';
import { groupInfo, isStageState, listStageRows, stageCheckIns, stageEntrants, type Entrant, type StageRow } from '../../db/stages.js';
import { liveTournamentOr404 } from '../live-tournament.js';

/** The stages' answers (decision 041): a stage with its groups, entrants, results and check-ins counted. */

function toStage(
  row: StageRow,
  extra: {
    groups: Group[];
    entrants: number;
    hasResults: boolean;
    groupMatches: Stage['groupMatches'];
    /** Stages with a check-in window: entrants checked in. */
    checkedIn?: number;
  },
): Stage {
  return {
    id: Number(row.id),
    tid: Number(row.tournament_id),
    name: row.name,
    order: Number(row.ord),
    lobbySize: Number(row.lobby_size),
    firstSlot: Number(row.first_slot),
    advancePerGroup: Number(row.advance_per_group),
    advanceBest: Number(row.advance_best),
    state: isStageState(row.state) ? row.state : 'draft',
    draw:
      row.draw_method && row.drawn_at
        ? { method: row.draw_method as DrawMethod, seed: row.draw_seed ?? null, drawnAt: row.drawn_at }
        : null,
    entrants: extra.entrants,
    hasResults: extra.hasResults,
    groupGap: Number(row.group_gap_minutes ?? 0),
    groupMatches: extra.groupMatches,
    ...(row.check_in_opens_at && row.check_in_closes_at && extra.checkedIn !== undefined ? { checkedIn: extra.checkedIn } : {}),
    groups: extra.groups,
    ...(row.check_in_opens_at && row.check_in_closes_at
      ? {
          checkIn: {
            opensAt: row.check_in_opens_at,
            closesAt: row.check_in_closes_at,
            noShows: (row.no_shows as NoShowAction | null) ?? null,
          },
        }
      : {}),
  };
}

/** The stage with everything its JSON needs. drafts: include a draft's groups (admins). */
export async function stageJson(db: Trx, row: StageRow, entryFee: number, drafts = true): Promise<Stage> {
  const [groups, withResults, entrants, counts] = await Promise.all([
    stageGroups(db, [row.id]),
    stagesWithResults(db, [row.id]),
    stageEntrants(db, row, entryFee),
    groupMatchCounts(db, [row.id]),
  ]);
  const showGroups = drafts || row.state !== 'draft';
  return toStage(row, {
    groups: showGroups ? (groups.get(row.id) ?? []) : [],
    entrants: entrants.length,
    hasResults: withResults.has(row.id),
    groupMatches: counts.get(row.id)!,
    checkedIn: await checkedInCount(db, row, entrants),
  });
}

/** Issue 27: how many of a stage's entrants have checked in; undefined without a check-in window. */
async function checkedInCount(db: Trx, row: StageRow, entrants: readonly Entrant[]): Promise<number | undefined> {
  if (!row.check_in_opens_at || !row.check_in_closes_at) return undefined;
  const checkedIn = await stageCheckIns(db, row.id);
  return entrants.filter((e) => checkedIn.has(e.teamId)).length;
}

/** A live tournament's stages in order, or 404. drafts: include drafts' groups (admins). */
export async function stagesJson(db: Trx, tournamentId: number, drafts: boolean): Promise<Stage[]> {
  const entryFee = Number((await liveTournamentOr404(db, tournamentId)).entry_fee);
  const rows = await listStageRows(db, tournamentId);
  const ids = rows.map((r) => r.id);
  const [groups, withResults, entrants, counts] = await Promise.all([
    stageGroups(db, ids),
    stagesWithResults(db, ids),
    Promise.all(rows.map((r) => stageEntrants(db, r, entryFee))),
    groupMatchCounts(db, ids),
  ]);
  const checkedIn = await Promise.all(rows.map((r, i) => checkedInCount(db, r, entrants[i])));
  return rows.map((row, i) =>
    toStage(row, {
      groups: drafts || row.state !== 'draft' ? (groups.get(row.id) ?? []) : [],
      entrants: entrants[i].length,
      hasResults: withResults.has(row.id),
      groupMatches: counts.get(row.id)!,
      checkedIn: checkedIn[i],
    }),
  );
}

/** The stage's group matches, by day, match number and group, rooms shown. */
export async function stageMatches(db: Trx, stageId: number): Promise<Match[]> {
  const rows = await stageMatchRows(db, stageId);
  const info = await groupInfo(
    db,
    rows.map((r) => Number(r.group_id)),
  );
  return rows.map((row) => toMatch(row, true, info.get(Number(row.group_id))));
}
