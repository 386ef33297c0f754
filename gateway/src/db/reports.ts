import { sql } from 'kysely';
import { IGN_COLUMNS } from './registrations.js';
import type { Trx } from './types.js';

/** Issue 30 (decision 071): teams' reports of group-matches, where reporting stands, players' finishes. */

/** One group-match of a tournament (group 0: a match outside groups). */
export interface GroupMatchKey {
  tournamentId: number;
  groupId: number;
  day: number;
  match: number;
}

const whereMatch =
  (key: GroupMatchKey, prefix = '') =>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the same four columns on several tables
  (qb: any) =>
    qb
      .where(`${prefix}tournament_id`, '=', key.tournamentId)
      .where(`${prefix}group_id`, '=', key.groupId)
      .where(`${prefix}day`, '=', key.day)
      .where(`${prefix}match_no`, '=', key.match);

export interface StoredPlayer {
  ign: string;
  finishes: number;
}

export interface ReportRow {
  id: number;
  tournament_id: number;
  group_id: number;
  day: number;
  match_no: number;
  registration_id: number;
  team_name: string;
  position: number;
  finishes: number;
  players: string;
  screenshot_id: string;
  reported_by: number;
  reported_by_name: string;
  created_at: string;
  updated_at: string;
  screenshot_checked_at: string | null;
}

const REPORT_COLUMNS = [
  'mr.id',
  'mr.tournament_id',
  'mr.group_id',
  'mr.day',
  'mr.match_no',
  'mr.registration_id',
  'r.team_name',
  'mr.position',
  'mr.finishes',
  'mr.players',
  'mr.screenshot_id',
  'mr.reported_by',
  'mr.reported_by_name',
  'mr.created_at',
  'mr.updated_at',
  'mr.screenshot_checked_at',
] as const;

function reportsQuery(db: Trx) {
  return db.selectFrom('match_reports as mr').innerJoin('registrations as r', 'r.id', 'mr.registration_id').select(REPORT_COLUMNS);
}

/** Every report of one group-match, in placement order. */
export async function reportsOfMatch(db: Trx, key: GroupMatchKey): Promise<ReportRow[]> {
  const rows = await reportsQuery(db).$call(whereMatch(key, 'mr.')).orderBy('mr.position').orderBy('mr.id').execute();
  return rows as ReportRow[];
}

/** One team's report of one group-match. */
export async function findReport(db: Trx, key: GroupMatchKey, registrationId: number): Promise<ReportRow | undefined> {
  const row = await reportsQuery(db).$call(whereMatch(key, 'mr.')).where('mr.registration_id', '=', registrationId).executeTakeFirst();
  return row as ReportRow | undefined;
}

export async function reportById(db: Trx, tournamentId: number, reportId: number): Promise<ReportRow | undefined> {
  const row = await reportsQuery(db).where('mr.tournament_id', '=', tournamentId).where('mr.id', '=', reportId).executeTakeFirst();
  return row as ReportRow | undefined;
}

/** A team's reports in a tournament (its own page). */
export async function reportsOfTeam(db: Trx, tournamentId: number, registrationId: number): Promise<ReportRow[]> {
  const rows = await reportsQuery(db)
    .where('mr.tournament_id', '=', tournamentId)
    .where('mr.registration_id', '=', registrationId)
    .execute();
  return rows as ReportRow[];
}

export interface ReportValues {
  position: number;
  finishes: number;
  players: readonly StoredPlayer[];
  screenshotId: string;
  /** A screenshot sent with this report, still to compare with earlier reports (decision 077). */
  newScreenshot: boolean;
  by: { id: number; username: string };
}

/** A team's first report; answers its id (the unique key refuses a second one: the caller maps it to 409). */
export async function insertReport(trx: Trx, key: GroupMatchKey, registrationId: number, v: ReportValues, at: string): Promise<number> {
  const row = await trx
    .insertInto('match_reports')
    .values({
      tournament_id: key.tournamentId,
      group_id: key.groupId,
      day: key.day,
      match_no: key.match,
      registration_id: registrationId,
      position: v.position,
      finishes: v.finishes,
      players: JSON.stringify(v.players),
      screenshot_id: v.screenshotId,
      reported_by: v.by.id,
      reported_by_name: v.by.username,
      created_at: at,
      updated_at: at,
      screenshot_checked_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateReport(trx: Trx, reportId: number, v: ReportValues, at: string): Promise<void> {
  await trx
    .updateTable('match_reports')
    .set({
      position: v.position,
      finishes: v.finishes,
      players: JSON.stringify(v.players),
      screenshot_id: v.screenshotId,
      reported_by: v.by.id,
      reported_by_name: v.by.username,
      updated_at: at,
      ...(v.newScreenshot ? { screenshot_checked_at: null } : {}),
    })
    .where('id', '=', reportId)
    .execute();
}

// --- Where reporting stands ---

export interface ReportingRow {
  closed_at: string | null;
  confirmed_at: string | null;
  confirmed_by_name: string | null;
  provisional_until: string | null;
  reminded_at: string | null;
}

export async function reportingOf(db: Trx, key: GroupMatchKey): Promise<ReportingRow | undefined> {
  return db
    .selectFrom('match_reporting')
    .select(['closed_at', 'confirmed_at', 'confirmed_by_name', 'provisional_until', 'reminded_at'])
    .$call(whereMatch(key))
    .executeTakeFirst();
}

/** The reporting rows of a tournament's group-matches, keyed "group:day:match". */
export async function reportingOfTournament(db: Trx, tournamentId: number): Promise<Map<string, ReportingRow>> {
  const rows = await db.selectFrom('match_reporting').selectAll().where('tournament_id', '=', tournamentId).execute();
  return new Map(rows.map((r) => [`${r.group_id}:${r.day}:${r.match_no}`, r]));
}

/** Changes where reporting stands for a group-match (a row is made the first time). */
export async function setReporting(trx: Trx, key: GroupMatchKey, patch: Partial<ReportingRow>): Promise<void> {
  const existing = await reportingOf(trx, key);
  if (existing) {
    await trx.updateTable('match_reporting').set(patch).$call(whereMatch(key)).execute();
    return;
  }
  await trx
    .insertInto('match_reporting')
    .values({
      tournament_id: key.tournamentId,
      group_id: key.groupId,
      day: key.day,
      match_no: key.match,
      closed_at: null,
      confirmed_at: null,
      confirmed_by_name: null,
      provisional_until: null,
      reminded_at: null,
      ...patch,
    })
    .execute();
}

// --- Players' finishes ---

/** Sets the players' finishes of these teams in one match (a team absent from `teams` keeps its rows). */
export async function replaceResultPlayers(
  trx: Trx,
  key: GroupMatchKey,
  teams: ReadonlyMap<number, readonly StoredPlayer[] | null>,
): Promise<void> {
  const ids = [...teams.keys()];
  if (ids.length === 0) return;
  await trx.deleteFrom('result_players').$call(whereMatch(key)).where('registration_id', 'in', ids).execute();
  const values = [...teams].flatMap(([registrationId, players]) =>
    (players ?? []).map((p) => ({
      tournament_id: key.tournamentId,
      group_id: key.groupId,
      day: key.day,
      match_no: key.match,
      registration_id: registrationId,
      ign: p.ign,
      finishes: p.finishes,
    })),
  );
  if (values.length > 0) await trx.insertInto('result_players').values(values).execute();
}

/** Drops every players' row of a match whose team no longer has a result there. */
export async function dropOrphanPlayers(trx: Trx, key: GroupMatchKey): Promise<void> {
  await trx
    .deleteFrom('result_players')
    .where('registration_id', 'not in', (eb) =>
      eb
        .selectFrom('match_results')
        .select('registration_id')
        .where('tournament_id', '=', key.tournamentId)
        .where('group_id', '=', key.groupId)
        .where('day', '=', key.day)
        .where('match_no', '=', key.match),
    )
    .$call(whereMatch(key))
    .execute();
}

/** Each player's finishes and matches in a tournament, within these groups (null: all), most finishes first. */
export async function playerTotals(db: Trx, tournamentId: number, groupIds: readonly number[] | null) {
  if (groupIds?.length === 0) return [];
  let query = db
    .selectFrom('result_players as p')
    .innerJoin('registrations as r', 'r.id', 'p.registration_id')
    .select((eb) => [
      'p.registration_id',
      'r.team_name',
      eb.fn.max('p.ign').as('ign'),
      eb.fn.sum<number>('p.finishes').as('finishes'),
      eb.fn.countAll<number>().as('matches'),
    ])
    .where('p.tournament_id', '=', tournamentId)
    .groupBy(['p.registration_id', 'r.team_name', sql`lower(p.ign)`]);
  if (groupIds) query = query.where('p.group_id', 'in', groupIds);
  const rows = await query.execute();
  return rows.map((r) => ({
    registrationId: Number(r.registration_id),
    teamName: r.team_name,
    ign: String(r.ign),
    finishes: Number(r.finishes),
    matches: Number(r.matches),
  }));
}

// --- Who may report for a team, and the team's matches ---

/** A team as reporting needs it: its captain, place and payment, and its roster's names. */
export type TeamRow = {
  id: number;
  user_id: number;
  team_name: string;
  place: string;
  payment_status: string;
} & Record<(typeof IGN_COLUMNS)[keyof typeof IGN_COLUMNS], string>;

const TEAM_COLUMNS = ['id', 'user_id', 'team_name', 'place', 'payment_status', ...Object.values(IGN_COLUMNS)] as const;

/** A team's roster: its players' and substitutes' names as registered. */
export const rosterOf = (team: TeamRow) =>
  Object.values(IGN_COLUMNS)
    .map((column) => team[column])
    .filter((n) => n.trim() !== '');

/**
 * The placed team a user belongs to in a tournament: the one it registered, else the one whose roster
 * names its username (decision 071: the roster's names are site usernames, spec §5).
 */
export async function teamOfUser(db: Trx, tournamentId: number, user: { id: number; username: string }): Promise<TeamRow | undefined> {
  const own = await db
    .selectFrom('registrations')
    .select(TEAM_COLUMNS)
    .where('tournament_id', '=', tournamentId)
    .where('user_id', '=', user.id)
    .where('place', '=', 'placed')
    .executeTakeFirst();
  if (own) return own as TeamRow;
  const named = await db
    .selectFrom('registrations')
    .select(TEAM_COLUMNS)
    .where('tournament_id', '=', tournamentId)
    .where('place', '=', 'placed')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('registration_igns')
        .select('registration_id')
        .where('tournament_id', '=', tournamentId)
        .where('ign_lower', '=', user.username.toLowerCase()),
    )
    .executeTakeFirst();
  return named as TeamRow | undefined;
}

export async function teamsByIds(db: Trx, tournamentId: number, ids: readonly number[]): Promise<TeamRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('registrations')
    .select(TEAM_COLUMNS)
    .where('tournament_id', '=', tournamentId)
    .where('id', 'in', ids)
    .execute();
  return rows as TeamRow[];
}

/** Matches with their group and its stage (none for group 0): the base of the schedule's queries. */
const matchesWithStages = (db: Trx) =>
  db.selectFrom('matches as m').leftJoin('stage_groups as g', 'g.id', 'm.group_id').leftJoin('stages as s', 's.id', 'g.stage_id');

/** The group-matches on a tournament's schedule (or those of one day and match number), with their group's stage (none for group 0). */
export function scheduledMatches(db: Trx, tournamentId: number, only?: { day: number; match: number }, groups?: ReadonlySet<number>) {
  let query = matchesWithStages(db)
    .select([
      'm.id',
      'm.day',
      'm.match_no',
      'm.time',
      'm.group_id',
      'm.not_played_at',
      'g.name as group_name',
      'g.stage_id',
      's.name as stage_name',
      's.state as stage_state',
      's.match_minutes as stage_match_minutes',
    ])
    .where('m.tournament_id', '=', tournamentId);
  // One match number (a report's, the lobby's): only its groups' rows, not the whole schedule.
  if (only) query = query.where('m.day', '=', only.day).where('m.match_no', '=', only.match);
  // A team's groups (0: the matches outside the stages): its rows only, not 40 groups' (issue 32).
  if (groups) {
    if (groups.size === 0) return Promise.resolve([]);
    query = query.where('m.group_id', 'in', [...groups]);
  }
  return query.orderBy('m.day').orderBy('m.match_no').orderBy('m.group_id').execute();
}
export type ScheduledMatch = Awaited<ReturnType<typeof scheduledMatches>>[number];

// --- Settings ---

export async function reportSettingsOf(db: Trx, tournamentId: number) {
  const t = await db
    .selectFrom('tournaments')
    .select(['match_minutes', 'dispute_minutes'])
    .where('id', '=', tournamentId)
    .executeTakeFirstOrThrow();
  const stages = await db
    .selectFrom('stages')
    .select(['id', 'name', 'match_minutes'])
    .where('tournament_id', '=', tournamentId)
    .orderBy('ord')
    .execute();
  return { matchMinutes: Number(t.match_minutes), disputeMinutes: Number(t.dispute_minutes), stages };
}

export async function setTournamentReportSettings(
  trx: Trx,
  tournamentId: number,
  patch: { match_minutes?: number; dispute_minutes?: number },
) {
  if (Object.keys(patch).length > 0) await trx.updateTable('tournaments').set(patch).where('id', '=', tournamentId).execute();
}

export async function setStageMatchMinutes(trx: Trx, tournamentId: number, stageId: number, minutes: number): Promise<boolean> {
  const result = await trx
    .updateTable('stages')
    .set({ match_minutes: minutes })
    .where('id', '=', stageId)
    .where('tournament_id', '=', tournamentId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** What reporting needs of a live tournament. */
export function reportTournament(db: Trx, tournamentId: number) {
  return db
    .selectFrom('tournaments')
    .select(['id', 'name', 'start_date', 'format', 'entry_fee', 'match_minutes', 'dispute_minutes'])
    .where('id', '=', tournamentId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}
export type ReportTournament = NonNullable<Awaited<ReturnType<typeof reportTournament>>>;

export const REPORT_CONSTRAINT = { constraint: 'match_reports_team', column: 'registration_id' } as const;

/** The groups (of any stage) a team plays in. */
export async function groupsOfTeam(db: Trx, registrationId: number): Promise<number[]> {
  const rows = await db.selectFrom('group_slots').select('group_id').where('registration_id', '=', registrationId).execute();
  return rows.map((r) => Number(r.group_id));
}

/** Scheduled matches of tournaments starting in [from, to], with what a report reminder needs (issue 30). */
export function reminderCandidates(db: Trx, from: string, to: string) {
  return matchesWithStages(db)
    .innerJoin('tournaments as t', 't.id', 'm.tournament_id')
    .leftJoin('match_reporting as mr', (join) =>
      join
        .onRef('mr.tournament_id', '=', 'm.tournament_id')
        .onRef('mr.group_id', '=', 'm.group_id')
        .onRef('mr.day', '=', 'm.day')
        .onRef('mr.match_no', '=', 'm.match_no'),
    )
    .select([
      'm.id',
      'm.tournament_id',
      'm.day',
      'm.match_no',
      'm.time',
      'm.group_id',
      'm.not_played_at',
      'g.name as group_name',
      's.state as stage_state',
      's.match_minutes as stage_match_minutes',
      't.start_date',
      't.entry_fee',
      't.match_minutes',
    ])
    .where('t.deleted_at', 'is', null)
    .where('t.start_date', '>=', from)
    .where('t.start_date', '<=', to)
    .where('m.not_played_at', 'is', null)
    .where('mr.closed_at', 'is', null)
    .where('mr.confirmed_at', 'is', null)
    .execute();
}

/** The teams of a group-match that have reported it. */
export async function reportedTeams(db: Trx, key: GroupMatchKey): Promise<Set<number>> {
  const rows: { registration_id: number }[] = await db
    .selectFrom('match_reports')
    .select('registration_id')
    .$call(whereMatch(key))
    .execute();
  return new Set(rows.map((r) => Number(r.registration_id)));
}
