import { sql, type Selectable } from 'kysely';
import type { CheckInState, StageState, TeamPlacement } from '@custom-room/contract';
import type { Trx } from './index.js';
import type { TeamStanding } from './results.js';
import type { StagesTable } from './schema.js';
import { withoutResult } from './stage-matches.js';

/**
 * Decision 041: stages, groups and slots, as the other resources read them (tables, matches, teams).
 * The stage calls' own queries are beside it: stage-writes.ts, stage-groups.ts, stage-matches.ts,
 * stage-entrants.ts and stage-results.ts.
 */
export type StageRow = Selectable<StagesTable>;

export const isStageState = (s: string): s is StageState => s === 'draft' || s === 'published' || s === 'completed';

export function listStageRows(db: Trx, tournamentId: number): Promise<StageRow[]> {
  return db.selectFrom('stages').selectAll().where('tournament_id', '=', tournamentId).orderBy('ord').execute();
}

export function findStageRow(db: Trx, tournamentId: number, stageId: number): Promise<StageRow | undefined> {
  return db.selectFrom('stages').selectAll().where('id', '=', stageId).where('tournament_id', '=', tournamentId).executeTakeFirst();
}

export function findStageByOrder(db: Trx, tournamentId: number, ord: number): Promise<StageRow | undefined> {
  return db.selectFrom('stages').selectAll().where('tournament_id', '=', tournamentId).where('ord', '=', ord).executeTakeFirst();
}

/** The stage the tables answer for by default: the last one published or completed; undefined when none is. */
export function currentStage(db: Trx, tournamentId: number): Promise<StageRow | undefined> {
  return db
    .selectFrom('stages')
    .selectAll()
    .where('tournament_id', '=', tournamentId)
    .where('state', '<>', 'draft')
    .orderBy('ord', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export interface Entrant {
  teamId: number;
  teamName: string;
  via: 'confirmed' | 'qualified' | 'invited';
  /** Qualified teams: their rank in the previous stage's overall table. */
  seed: number | null;
}

/**
 * The teams a stage is drawn from (decision 041), by registration id. Stage 1: the confirmed teams.
 * Later: the previous stage's qualifiers (once it is completed) and the invited teams.
 */
export async function stageEntrants(db: Trx, stage: StageRow, entryFee: number): Promise<Entrant[]> {
  if (stage.ord === 1) {
    let query = db
      .selectFrom('registrations')
      .select(['id', 'team_name'])
      .where('tournament_id', '=', stage.tournament_id)
      .where('place', '=', 'placed')
      .orderBy('id');
    if (entryFee > 0) query = query.where('payment_status', '=', 'verified');
    const rows = await query.execute();
    return rows.map((r) => ({ teamId: Number(r.id), teamName: r.team_name, via: 'confirmed', seed: null }));
  }
  const previous = await findStageByOrder(db, stage.tournament_id, stage.ord - 1);
  const qualified = previous
    ? await db
        .selectFrom('stage_results as sr')
        .innerJoin('registrations as r', 'r.id', 'sr.registration_id')
        .select(['r.id', 'r.team_name', 'sr.stage_rank'])
        .where('sr.stage_id', '=', previous.id)
        .where('sr.qualified', '=', 1)
        .where('r.place', '=', 'placed') // decision 043: a team removed since does not go on
        .execute()
    : [];
  const invited = await db
    .selectFrom('stage_invites as i')
    .innerJoin('registrations as r', 'r.id', 'i.registration_id')
    .select(['r.id', 'r.team_name'])
    .where('i.stage_id', '=', stage.id)
    .where('r.place', '=', 'placed')
    .execute();
  const entrants: Entrant[] = [
    ...qualified.map((r) => ({ teamId: Number(r.id), teamName: r.team_name, via: 'qualified' as const, seed: Number(r.stage_rank) })),
    ...invited
      .filter((r) => !qualified.some((q) => Number(q.id) === Number(r.id)))
      .map((r) => ({ teamId: Number(r.id), teamName: r.team_name, via: 'invited' as const, seed: null })),
  ];
  return entrants.sort((a, b) => a.teamId - b.teamId);
}

/**
 * The teams that check in for a stage (decision 043): its groups' teams once drawn, else its entrants
 * (first stage: the confirmed placed teams), in registration order. only: just these teams among them (a
 * team's own page reads its own row, not a 1,000-team stage's).
 */
export async function checkInTeams(
  db: Trx,
  stage: StageRow,
  entryFee: number,
  only?: readonly number[],
): Promise<{ teamId: number; teamName: string }[]> {
  if (only?.length === 0) return [];
  const slottedQuery = () =>
    db
      .selectFrom('group_slots as s')
      .innerJoin('registrations as r', 'r.id', 's.registration_id')
      .select(['r.id', 'r.team_name'])
      .where('s.stage_id', '=', stage.id)
      .where('r.place', '=', 'placed')
      .orderBy('r.id');
  const slotted = await (only ? slottedQuery().where('s.registration_id', 'in', only) : slottedQuery()).execute();
  if (slotted.length > 0) return slotted.map((r) => ({ teamId: Number(r.id), teamName: r.team_name }));
  // None of these teams is in a group: once the stage is drawn, none checks in.
  if (only && (await slottedQuery().limit(1).executeTakeFirst())) return [];
  const entrants = (await stageEntrants(db, stage, entryFee)).map(({ teamId, teamName }) => ({ teamId, teamName }));
  return only ? entrants.filter((e) => only.includes(e.teamId)) : entrants;
}

/** The stage's check-ins, by registration id (only: just these teams'). */
export async function stageCheckIns(db: Trx, stageId: number, only?: readonly number[]): Promise<Map<number, string>> {
  if (only?.length === 0) return new Map();
  let query = db.selectFrom('stage_check_ins').select(['registration_id', 'checked_in_at']).where('stage_id', '=', stageId);
  if (only) query = query.where('registration_id', 'in', only);
  const rows = await query.execute();
  return new Map(rows.map((r) => [Number(r.registration_id), r.checked_in_at]));
}

/** A team's check-in state for a stage with a window, at nowMs. */
export function checkInState(stage: StageRow, checkedInAt: string | undefined, nowMs: number): CheckInState {
  if (checkedInAt) return 'checked-in';
  if (nowMs < Date.parse(stage.check_in_opens_at!)) return 'not-open';
  return nowMs < Date.parse(stage.check_in_closes_at!) ? 'open' : 'no-show';
}

/** One stage's check-in as a team's answer shows it (decision 043, the registration's checkIns). */
export interface TeamCheckIn {
  stageId: number;
  stageName: string;
  opensAt: string;
  closesAt: string;
  state: CheckInState;
  checkedInAt: string | null;
}

/**
 * Each placed team's check-in per stage with a window that counts it among its teams (or where it checked
 * in: a team promoted into a no-show's place), stages in order, by registration id. Teams without any are
 * left out of the map. entryFees: by tournament id.
 */
export async function teamCheckIns(
  db: Trx,
  teams: readonly { id: number; tournament_id: number; place: string }[],
  entryFees: ReadonlyMap<number, number>,
  nowMs: number,
  /** The teams' tournaments' stages with a window (tournament, then ord), when the caller has read them. */
  known?: readonly StageRow[],
): Promise<Map<number, TeamCheckIn[]>> {
  const byTeam = new Map<number, TeamCheckIn[]>();
  const placed = teams.filter((t) => t.place === 'placed');
  if (placed.length === 0) return byTeam;
  const stages =
    known ??
    (await db
      .selectFrom('stages')
      .selectAll()
      .where('tournament_id', 'in', [...new Set(placed.map((t) => Number(t.tournament_id)))])
      .where('check_in_opens_at', 'is not', null)
      .where('check_in_closes_at', 'is not', null)
      .orderBy('tournament_id')
      .orderBy('ord')
      .execute());
  for (const stage of stages) {
    const tid = Number(stage.tournament_id);
    // The teams of this stage's tournament only: their rows, not the stage's every team's.
    const ids = placed.filter((t) => Number(t.tournament_id) === tid).map((t) => Number(t.id));
    const [expected, checkedIn] = await Promise.all([
      checkInTeams(db, stage, entryFees.get(tid) ?? 0, ids),
      stageCheckIns(db, stage.id, ids),
    ]);
    const counted = new Set(expected.map((t) => t.teamId));
    for (const team of placed) {
      const rid = Number(team.id);
      if (Number(team.tournament_id) !== tid || !(counted.has(rid) || checkedIn.has(rid))) continue;
      const list = byTeam.get(rid) ?? [];
      list.push({
        stageId: Number(stage.id),
        stageName: stage.name,
        opensAt: stage.check_in_opens_at!,
        closesAt: stage.check_in_closes_at!,
        state: checkInState(stage, checkedIn.get(rid), nowMs),
        checkedInAt: checkedIn.get(rid) ?? null,
      });
      byTeam.set(rid, list);
    }
  }
  return byTeam;
}

export interface GroupRow {
  id: number;
  stageId: number;
  name: string;
  ord: number;
  stage: StageRow;
}

/** A group of one of the tournament's stages, with its stage. */
export async function findGroup(db: Trx, tournamentId: number, groupId: number): Promise<GroupRow | undefined> {
  const group = await db.selectFrom('stage_groups').selectAll().where('id', '=', groupId).executeTakeFirst();
  if (!group) return undefined;
  const stage = await findStageRow(db, tournamentId, Number(group.stage_id));
  if (!stage) return undefined;
  return { id: Number(group.id), stageId: Number(group.stage_id), name: group.name, ord: Number(group.ord), stage };
}

/** registration id -> slot, of one group. */
export async function groupMembers(db: Trx, groupId: number): Promise<Map<number, number>> {
  const rows = await db.selectFrom('group_slots').select(['registration_id', 'slot']).where('group_id', '=', groupId).execute();
  return new Map(rows.map((r) => [Number(r.registration_id), Number(r.slot)]));
}

/**
 * The owner of (day, match number) in the tournament, if any: a group match's stage, or the implicit
 * group 0 (a match or a result without a group). A day and match number belong to one stage (decision 041).
 */
export async function matchNumberOwner(
  db: Trx,
  tournamentId: number,
  day: number,
  matchNo: number,
): Promise<{ stageId: number; stageName: string } | undefined> {
  const match = await db
    .selectFrom('matches as m')
    .leftJoin('stage_groups as g', 'g.id', 'm.group_id')
    .leftJoin('stages as s', 's.id', 'g.stage_id')
    .select(['m.group_id', 's.id as stage_id', 's.name as stage_name'])
    .where('m.tournament_id', '=', tournamentId)
    .where('m.day', '=', day)
    .where('m.match_no', '=', matchNo)
    .orderBy('m.group_id')
    .executeTakeFirst();
  if (match)
    return Number(match.group_id) === 0 || match.stage_id === null
      ? { stageId: 0, stageName: '' }
      : { stageId: Number(match.stage_id), stageName: match.stage_name ?? '' };
  const result = await db
    .selectFrom('match_results')
    .select('id')
    .where('tournament_id', '=', tournamentId)
    .where('day', '=', day)
    .where('match_no', '=', matchNo)
    .where('group_id', '=', 0)
    .executeTakeFirst();
  return result ? { stageId: 0, stageName: '' } : undefined;
}

/** The group matches scheduled at (day, match number): group id -> match row id. */
export async function groupMatchesAt(db: Trx, tournamentId: number, day: number, matchNo: number): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('matches')
    .select(['id', 'group_id'])
    .where('tournament_id', '=', tournamentId)
    .where('day', '=', day)
    .where('match_no', '=', matchNo)
    .where('group_id', '<>', 0)
    .execute();
  return new Map(rows.map((r) => [Number(r.group_id), Number(r.id)]));
}

/** The groups (of any stage) of these teams, as registration id -> group ids. */
export async function groupsOfTeams(db: Trx, registrationIds: readonly number[]): Promise<Map<number, number[]>> {
  const map = new Map<number, number[]>();
  if (registrationIds.length === 0) return map;
  const rows = await db
    .selectFrom('group_slots')
    .select(['registration_id', 'group_id'])
    .where('registration_id', 'in', registrationIds)
    .execute();
  for (const r of rows) map.set(Number(r.registration_id), [...(map.get(Number(r.registration_id)) ?? []), Number(r.group_id)]);
  return map;
}

export interface StageMember extends TeamStanding {
  groupId: number;
  groupName: string;
  groupOrder: number;
  slot: number;
}

/**
 * Every team of a stage's groups (or of one group) with its sums over the group matches of the stage
 * (one day, or all), zeros for a team without results. Unranked.
 */
export async function stageStandings(db: Trx, stageId: number, options: { groupId?: number; day?: number } = {}): Promise<StageMember[]> {
  let members = db
    .selectFrom('group_slots as s')
    .innerJoin('stage_groups as g', 'g.id', 's.group_id')
    .innerJoin('registrations as r', 'r.id', 's.registration_id')
    .select(['s.registration_id', 's.group_id', 's.slot', 'g.name', 'g.ord', 'r.team_name'])
    .where('s.stage_id', '=', stageId);
  if (options.groupId !== undefined) members = members.where('s.group_id', '=', options.groupId);
  let sums = db
    .selectFrom('match_results as mr')
    .innerJoin('stage_groups as g', 'g.id', 'mr.group_id')
    .select((eb) => [
      'mr.registration_id',
      eb.fn.sum<number | string>('mr.position_points').as('position_points'),
      eb.fn.sum<number | string>('mr.finishes').as('finishes'),
      eb.fn.sum<number | string>('mr.wins').as('wins'),
      eb.fn.sum<number | string>('mr.total_points').as('total_points'),
      sql<number | string>`count(*) - sum(mr.absent)`.as('matches_played'),
    ])
    .where('g.stage_id', '=', stageId);
  if (options.groupId !== undefined) sums = sums.where('mr.group_id', '=', options.groupId);
  if (options.day !== undefined) sums = sums.where('mr.day', '=', options.day);
  const [memberRows, sumRows] = await Promise.all([members.execute(), sums.groupBy('mr.registration_id').execute()]);
  const byTeam = new Map(sumRows.map((r) => [Number(r.registration_id), r]));
  return memberRows.map((m) => {
    const s = byTeam.get(Number(m.registration_id));
    return {
      teamId: Number(m.registration_id),
      teamName: m.team_name,
      groupId: Number(m.group_id),
      groupName: m.name,
      groupOrder: Number(m.ord),
      slot: Number(m.slot),
      positionPoints: Number(s?.position_points ?? 0),
      finishes: Number(s?.finishes ?? 0),
      wins: Number(s?.wins ?? 0),
      totalPoints: Number(s?.total_points ?? 0),
      matchesPlayed: Number(s?.matches_played ?? 0),
    };
  });
}

/** Where each of these teams plays in the tournament's published and completed stages, oldest stage first. */
export async function teamPlacements(db: Trx, registrationIds: readonly number[]): Promise<Map<number, TeamPlacement[]>> {
  const map = new Map<number, TeamPlacement[]>();
  if (registrationIds.length === 0) return map;
  const rows = await db
    .selectFrom('group_slots as s')
    .innerJoin('stage_groups as g', 'g.id', 's.group_id')
    .innerJoin('stages as st', 'st.id', 's.stage_id')
    .leftJoin('stage_results as sr', (join) =>
      join.onRef('sr.stage_id', '=', 's.stage_id').onRef('sr.registration_id', '=', 's.registration_id'),
    )
    .leftJoin('stages as nx', (join) => join.onRef('nx.tournament_id', '=', 'st.tournament_id').on('nx.ord', '=', sql<number>`st.ord + 1`))
    .select([
      's.registration_id',
      's.slot',
      'g.id as group_id',
      'g.name as group_name',
      'st.id as stage_id',
      'st.name as stage_name',
      'st.state',
      'st.ord',
      'st.advance_per_group',
      'st.advance_best',
      'sr.group_rank',
      'sr.stage_rank',
      'sr.qualified',
      'nx.name as next_name',
    ])
    .where('s.registration_id', 'in', registrationIds)
    .where('st.state', '<>', 'draft')
    .orderBy('st.ord')
    .execute();
  for (const r of rows) {
    const completed = r.state === 'completed' && r.group_rank !== null;
    const placement: TeamPlacement = {
      stageId: Number(r.stage_id),
      stageName: r.stage_name,
      stageState: isStageState(r.state) ? r.state : 'published',
      groupId: Number(r.group_id),
      groupName: r.group_name,
      slot: Number(r.slot),
      outcome: completed
        ? {
            groupRank: Number(r.group_rank),
            stageRank: Number(r.stage_rank),
            qualified: Number(r.qualified) === 1,
            nextStageName: r.next_name ?? null,
            // Issue 27: the last stage (none after it) is the final, whatever it was set to advance.
            final: r.next_name == null || (Number(r.advance_per_group) === 0 && Number(r.advance_best) === 0),
          }
        : null,
    };
    const id = Number(r.registration_id);
    map.set(id, [...(map.get(id) ?? []), placement]);
  }
  return map;
}

/** Group id -> { group name, stage id, stage name, stage state } for the groups of these matches. */
export async function groupInfo(
  db: Trx,
  groupIds: readonly number[],
): Promise<Map<number, { groupName: string; groupOrder: number; stageId: number; stageName: string; state: string }>> {
  const ids = [...new Set(groupIds.filter((id) => id !== 0))];
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('stage_groups as g')
    .innerJoin('stages as s', 's.id', 'g.stage_id')
    .select(['g.id', 'g.name', 'g.ord', 's.id as stage_id', 's.name as stage_name', 's.state'])
    .where('g.id', 'in', ids)
    .execute();
  return new Map(
    rows.map((r) => [
      Number(r.id),
      { groupName: r.name, groupOrder: Number(r.ord), stageId: Number(r.stage_id), stageName: r.stage_name, state: r.state },
    ]),
  );
}

/** Issue 27: group matches marked not played (and still without results), for the result history. */
export async function notPlayedMatches(db: Trx, tournamentId: number) {
  const rows = await db
    .selectFrom('matches as m')
    .innerJoin('stage_groups as g', 'g.id', 'm.group_id')
    .innerJoin('stages as s', 's.id', 'g.stage_id')
    .select(['m.day', 'm.match_no', 'm.group_id', 'g.name as group_name', 's.name as stage_name', 'm.not_played_at', 'm.not_played_by'])
    .where('m.tournament_id', '=', tournamentId)
    .where('m.not_played_at', 'is not', null)
    .where(withoutResult)
    .orderBy('m.not_played_at', 'desc')
    .orderBy('m.day')
    .orderBy('m.match_no')
    .orderBy('g.ord')
    .execute();
  return rows.map((r) => ({
    markedAt: r.not_played_at!,
    markedBy: r.not_played_by ?? '',
    day: Number(r.day),
    match: Number(r.match_no),
    groupId: Number(r.group_id),
    groupName: r.group_name,
    stageName: r.stage_name,
  }));
}
