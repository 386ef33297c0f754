import { hasZodFastifySchemaValidationErrors, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/auth.js';
import { HttpError, badRequest, conflict, notFound, type FieldErrors } from '../../lib/errors.js';
import {
  endpoints,
  impossibleResult,
  finishesTotalError,
  lobbyLimits,
  type MatchResultsBatch,
  placementPoints,
  PointsBreakdownSchema,
  PointsDaysSchema,
  PointsTableSchema,
  RESULT_HISTORY_LIMIT,
  ResultHistorySchema,
  TOURNAMENT_NOT_FOUND,
  GROUP_NOT_FOUND,
  STAGE_NOT_FOUND,
  winsFor,
} from '@custom-room/contract';
import {
  currentStage,
  findGroup,
  findStageRow,
  groupMatchesAt,
  groupMembers,
  groupsOfTeams,
  notPlayedMatches,
  stageStandings,
  type StageMember,
} from '../../db/stages.js';
import { rankStandings } from '../../lib/ranking.js';
import { isoAt } from '../../lib/clock.js';
import { listResultEdits, recordResultChange } from '../../db/result-history.js';
import { isUniqueViolation, nowIso, type Trx } from '../../db/index.js';
import { bumpGeneration } from '../../db/generation.js';
import { countRegistrations } from '../../db/registrations.js';
import {
  PLACEMENT_CONSTRAINT,
  findPlacementHolder,
  findTeamResult,
  getScoringTournament,
  getTournamentTeam,
  getTournamentTeams,
  breakdownResults,
  tableDays,
  listMatchResults,
  replaceMatchResults,
  teamStandings,
  upsertMatchResult,
  type NewMatchResult,
} from '../../db/results.js';

const NOT_REGISTERED = 'This team is not registered in the tournament.';

const placementTaken = (position: number, day: number, match: number, team: string) => {
  const message = `Placement ${position} in day ${day} match ${match} is already taken by ${team}.`;
  return conflict(message, { position: message });
};

async function requireTournament(db: Trx, id: number) {
  const tournament = await getScoringTournament(db, id);
  if (!tournament) throw notFound(TOURNAMENT_NOT_FOUND);
  return tournament;
}

/** The lobby of a match: every registered team, while tournaments have no stages (decision 029). */
async function matchLobby(db: Trx, tournament: { id: number; format: string }) {
  return lobbyLimits(await countRegistrations(db, tournament.id), tournament.format);
}

const IMPOSSIBLE = 'This result cannot happen in this match: please check the highlighted fields.';

/** Issue 27: the finishes the other teams of one match (one group's, or the implicit group's) have stored. */
async function otherFinishes(
  db: Trx,
  where: { tournamentId: number; day: number; match: number; groupId: number; exceptRegistrationId: number },
): Promise<number> {
  const row = await db
    .selectFrom('match_results')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('finishes'), eb.val(0)).as('total'))
    .where('tournament_id', '=', where.tournamentId)
    .where('day', '=', where.day)
    .where('match_no', '=', where.match)
    .where('group_id', '=', where.groupId)
    .where('registration_id', '<>', where.exceptRegistrationId)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** A stage or group table: every team of its groups, ranked, with its group and slot (decision 041). */
const rankStage = (members: StageMember[]) =>
  rankStandings(members).map((r) => ({
    rank: r.rank,
    teamId: r.teamId,
    teamName: r.teamName,
    positionPoints: r.positionPoints,
    finishes: r.finishes,
    wins: r.wins,
    totalPoints: r.totalPoints,
    matchesPlayed: r.matchesPlayed,
    groupName: (r as unknown as StageMember).groupName,
    slot: (r as unknown as StageMember).slot,
  }));

/**
 * Ranked standings of one day, or overall when day is undefined: of a group, of a stage, of the
 * current stage (the last one published) when none is named, or of the whole tournament when it has
 * no published stage (as before stages existed). Draft stages have no public table.
 */
export async function pointsTable(db: Trx, tid: number, day?: number, scope: { stage?: number; group?: number } = {}) {
  return (await scopedTable(db, tid, day, scope)).rows;
}

/** Where a table's query points: a group, a stage (the current one when none is named), or the whole tournament. 404 as the table. */
async function resolveScope(
  db: Trx,
  tid: number,
  scope: { stage?: number; group?: number },
): Promise<{ groupId: number; stageId: number } | { stageId: number; groupId?: undefined } | { stageId?: undefined; groupId?: undefined }> {
  await requireTournament(db, tid);
  if (scope.group !== undefined) {
    const group = await findGroup(db, tid, scope.group);
    if (!group || group.stage.state === 'draft' || (scope.stage !== undefined && group.stageId !== scope.stage))
      throw notFound(GROUP_NOT_FOUND);
    return { groupId: group.id, stageId: group.stageId };
  }
  const stage = scope.stage !== undefined ? await findStageRow(db, tid, scope.stage) : await currentStage(db, tid);
  if (scope.stage !== undefined && (!stage || stage.state === 'draft')) throw notFound(STAGE_NOT_FOUND);
  return stage ? { stageId: stage.id } : {};
}

/** The table's ranked rows and the scope they were resolved to (a group, a stage, or the whole tournament). */
async function scopedTable(db: Trx, tid: number, day?: number, scope: { stage?: number; group?: number } = {}) {
  const where = await resolveScope(db, tid, scope);
  if (where.groupId !== undefined)
    return {
      rows: rankStage(await stageStandings(db, where.stageId, { groupId: where.groupId, day })),
      where: { groupId: where.groupId },
    };
  if (where.stageId !== undefined)
    return { rows: rankStage(await stageStandings(db, where.stageId, { day })), where: { stageId: where.stageId } };
  return { rows: rankStandings(await teamStandings(db, tid, day)), where: {} };
}

/**
 * The table's rows, each with its placement and finishes in every match of the table (issue 20): the
 * columns are the matches with at least one result among the rows' teams, by day then number.
 */
async function pointsBreakdown(db: Trx, tid: number, day?: number, scope: { stage?: number; group?: number } = {}) {
  const { rows, where } = await scopedTable(db, tid, day, scope);
  const teams = new Set(rows.map((r) => r.teamId));
  const results = (await breakdownResults(db, { tournamentId: tid, day, ...where })).filter((r) => teams.has(r.teamId));
  const keyOf = (d: number, m: number) => `${d}:${m}`;
  const matches = [...new Map(results.map((r) => [keyOf(r.day, r.match), { day: r.day, match: r.match }])).values()].sort(
    (a, b) => a.day - b.day || a.match - b.match,
  );
  const column = new Map(matches.map((m, i) => [keyOf(m.day, m.match), i]));
  const cells = new Map<number, ({ position: number; finishes: number; absent?: true } | null)[]>();
  for (const r of rows)
    cells.set(
      r.teamId,
      matches.map(() => null),
    );
  for (const r of results) {
    cells.get(r.teamId)![column.get(keyOf(r.day, r.match))!] = {
      position: r.position,
      finishes: r.finishes,
      ...(r.absent ? { absent: true as const } : {}),
    };
  }
  return { matches, rows: rows.map((r) => ({ ...r, results: cells.get(r.teamId)! })) };
}

/**
 * The group whose match (day, match) this is (decision 041): the one named; else, when the number is
 * played in groups, the one the teams are in (or the only one); else 0, the implicit group. Checks the
 * group's stage takes results, and answers the group's teams (id -> slot).
 */
async function matchGroup(
  db: Trx,
  tid: number,
  day: number,
  match: number,
  groupId: number | undefined,
  teamIds: readonly number[],
): Promise<{ groupId: number; members?: Map<number, number>; name?: string }> {
  const scheduled = await groupMatchesAt(db, tid, day, match);
  let id = groupId;
  if (id === undefined) {
    if (scheduled.size === 0) return { groupId: 0 };
    const teamGroups = await groupsOfTeams(db, teamIds);
    const candidates = new Set(teamIds.flatMap((t) => (teamGroups.get(t) ?? []).filter((g) => scheduled.has(g))));
    if (candidates.size === 1) id = [...candidates][0];
    else if (scheduled.size === 1 && candidates.size === 0 && teamIds.length === 0) id = [...scheduled.keys()][0];
    else {
      const message = `Day ${day} match ${match} is played in ${scheduled.size} groups: say which one (groupId).`;
      throw badRequest(message, { groupId: message });
    }
  }
  const group = await findGroup(db, tid, id);
  if (!group) throw badRequest('This group is not in the tournament.', { groupId: 'This group is not in the tournament.' });
  if (!scheduled.has(group.id)) {
    const message = `Day ${day} match ${match} is not scheduled for Group ${group.name} of ${group.stage.name}.`;
    throw badRequest(message, { groupId: message });
  }
  if (group.stage.state === 'draft') throw conflict(`Publish ${group.stage.name}'s slot list before entering its results.`);
  if (group.stage.state === 'completed') throw conflict(`${group.stage.name} is completed: reopen it to change its results.`);
  return { groupId: group.id, members: await groupMembers(db, group.id), name: group.name };
}

/** 400 for teams outside the group and for absent rows with a placement or finishes, every one at once. */
function checkGroupRows(rows: readonly BatchRow[], teams: Map<number, string>, group: { members?: Map<number, number>; name?: string }) {
  const errors: FieldErrors = {};
  for (const row of rows) {
    if (group.members && !group.members.has(row.teamId))
      errors[`teamId.${row.teamId}`] = `${teams.get(row.teamId)} is not in Group ${group.name}.`;
    if (row.absent && (row.position > 0 || row.finishes > 0))
      errors[`absent.${row.teamId}`] = 'An absent team has no placement and no finishes.';
  }
  if (Object.keys(errors).length > 0) throw badRequest(Object.values(errors).join(' '), errors);
}

const listNames = (names: string[]) => (names.length <= 2 ? names.join(' and ') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);

/**
 * The batch form names its inputs `position.{teamId}`, so row errors are keyed the same way
 * (`results.3.position` becomes `position.42`) wherever the row's teamId can be read.
 */
function batchValidationError(error: unknown, body: unknown): unknown {
  if (!hasZodFastifySchemaValidationErrors(error)) return error;
  const rows = (body as { results?: unknown } | null)?.results;
  const errors: FieldErrors = {};
  for (const issue of error.validation) {
    const path = issue.instancePath.replace(/^\//, '').split('/').filter(Boolean);
    let field = path.join('.') || 'request';
    if (error.validationContext === 'body' && path[0] === 'results' && path.length >= 3 && Array.isArray(rows)) {
      const teamId = Number((rows[Number(path[1])] as { teamId?: unknown } | undefined)?.teamId);
      if (Number.isInteger(teamId) && teamId > 0) field = `${path.slice(2).join('.')}.${teamId}`;
    }
    errors[field] ??= issue.message;
  }
  return badRequest('Please check the highlighted fields.', errors);
}

type BatchRow = MatchResultsBatch['results'][number];

/** 400 for a team listed twice or not registered in the tournament, both reported at once. */
function checkTeams(rows: readonly BatchRow[], teams: Map<number, string>) {
  const errors: FieldErrors = {};
  const messages: string[] = [];
  const seen = new Set<number>();
  for (const { teamId } of rows) {
    if (!teams.has(teamId)) {
      const message = `Team ${teamId} is not registered in this tournament.`;
      if (!errors[`teamId.${teamId}`]) messages.push(message);
      errors[`teamId.${teamId}`] = message;
    } else if (seen.has(teamId)) {
      const message = `${teams.get(teamId)} is listed more than once.`;
      if (!errors[`teamId.${teamId}`]) messages.push(message);
      errors[`teamId.${teamId}`] = message;
    }
    seen.add(teamId);
  }
  if (messages.length > 0) throw badRequest(messages.join(' '), errors);
}

/** 400 for results the lobby makes impossible, every one at once, keyed {field}.{teamId} like the form's inputs. */
function checkPossible(rows: readonly BatchRow[], lobby: { teams: number; maxFinishes: number }) {
  const errors: FieldErrors = {};
  for (const row of rows) {
    for (const [field, message] of Object.entries(impossibleResult(row, lobby))) errors[`${field}.${row.teamId}`] = message;
  }
  if (Object.keys(errors).length > 0) throw badRequest(IMPOSSIBLE, errors);
}

/** 409 naming every team of every shared placement, with an error beside each of their positions. */
function checkPlacements(rows: readonly BatchRow[], teams: Map<number, string>) {
  const holders = new Map<number, number[]>();
  for (const { teamId, position } of rows) {
    if (position > 0) holders.set(position, [...(holders.get(position) ?? []), teamId]);
  }
  const errors: FieldErrors = {};
  const messages: string[] = [];
  for (const [position, teamIds] of [...holders].sort(([a], [b]) => a - b)) {
    if (teamIds.length < 2) continue;
    const names = teamIds.map((id) => teams.get(id)!);
    messages.push(`Placement ${position} is given to ${names.length === 2 ? 'both ' : ''}${listNames(names)}.`);
    for (const [i, id] of teamIds.entries()) {
      errors[`position.${id}`] = `Placement ${position} is also given to ${listNames(names.filter((_, j) => j !== i))}.`;
    }
  }
  if (messages.length > 0) throw conflict(`Two teams cannot share a placement. ${messages.join(' ')}`, errors);
}

const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    endpoints.submitResult.url,
    {
      // Before body validation, so an anonymous caller learns nothing about the payload rules.
      schema: endpoints.submitResult.schema,
    },
    async (request) => {
      const tid = request.params.id;
      const { day, match, teamId, position, finishes, groupId: requestedGroup, absent } = request.body;
      const wins = winsFor(position);
      let groupId = 0;
      try {
        return await app.store.writeTransaction(async (trx) => {
          // The tournament's row first, as the batch does: one lock order, so the two cannot deadlock (decision 032).
          const locked = await app.store.lockTournament(trx, tid);
          if (!locked || locked.deleted_at) throw notFound(TOURNAMENT_NOT_FOUND);
          const tournament = await requireTournament(trx, tid);
          const team = await getTournamentTeam(trx, tid, teamId);
          if (!team) throw badRequest(NOT_REGISTERED, { teamId: NOT_REGISTERED });
          const group = await matchGroup(trx, tid, day, match, requestedGroup, [team.id]);
          groupId = group.groupId;
          if (group.members && !group.members.has(team.id)) {
            const message = `${team.team_name} is not in Group ${group.name}.`;
            throw badRequest(message, { teamId: message });
          }
          if (absent && (position > 0 || finishes > 0)) {
            const message = 'An absent team has no placement and no finishes.';
            throw badRequest(message, { absent: message });
          }
          const lobby = group.members ? lobbyLimits(group.members.size, tournament.format) : await matchLobby(trx, tournament);
          const impossible = impossibleResult(request.body, lobby);
          if (Object.keys(impossible).length > 0) throw badRequest(IMPOSSIBLE, impossible);
          // Issue 27: with the other teams' finishes in this match, at most the lobby's players minus one.
          const others = await otherFinishes(trx, { tournamentId: tid, day, match, groupId, exceptRegistrationId: team.id });
          const tooMany = finishesTotalError(others + finishes, lobby.teams, tournament.format);
          if (tooMany) throw badRequest(tooMany, { finishes: tooMany });
          // A friendly check first; the partial unique index still decides under concurrency (caught below).
          const holder = await findPlacementHolder(trx, {
            tournamentId: tid,
            day,
            match,
            position,
            exceptRegistrationId: team.id,
            groupId,
          });
          if (holder) throw placementTaken(position, day, match, holder);
          const positionPoints = absent ? 0 : placementPoints(tournament.points_system, position);
          const totalPoints = positionPoints + finishes;
          const before = await findTeamResult(trx, { tournamentId: tid, day, match, registrationId: team.id });
          const id = await upsertMatchResult(
            trx,
            {
              tournamentId: tid,
              day,
              match,
              registrationId: team.id,
              position,
              wins,
              finishes,
              positionPoints,
              totalPoints,
              groupId,
              absent,
            },
            nowIso(),
          );
          await recordResultChange(trx, {
            tournamentId: tid,
            groupId,
            day,
            match,
            by: currentUser(request),
            at: isoAt(app.clock.now()),
            teams: [{ registrationId: team.id, before: before ?? null, after: { position, wins, finishes, absent: !!absent } }],
          });
          await bumpGeneration(trx, tid);
          return {
            id,
            tid,
            day,
            match,
            teamId: team.id,
            teamName: team.team_name,
            position,
            positionPoints,
            wins,
            finishes,
            totalPoints,
            ...(groupId !== 0 ? { groupId } : {}),
            ...(absent ? { absent: true } : {}),
          };
        });
      } catch (err) {
        if (!isUniqueViolation(err, PLACEMENT_CONSTRAINT)) throw err;
        const holder = await findPlacementHolder(app.store.db, {
          tournamentId: tid,
          day,
          match,
          position,
          exceptRegistrationId: teamId,
          groupId,
        });
        throw placementTaken(position, day, match, holder ?? 'another team');
      }
    },
  );

  app.put(
    endpoints.saveMatchResults.url,
    {
      // Room for MAX_MATCH_ROWS rows that also carry the ignored teamName and totalPoints.
      bodyLimit: 256 * 1024,
      attachValidation: true,
      schema: endpoints.saveMatchResults.schema,
    },
    async (request) => {
      if (request.validationError) throw batchValidationError(request.validationError, request.body);
      const { id: tid, day, match } = request.params;
      const rows = request.body.results;
      try {
        return await app.store.writeTransaction(async (trx) => {
          // Serialises batches of one tournament on PostgreSQL (SQLite holds the write lock already).
          const locked = await app.store.lockTournament(trx, tid);
          if (!locked || locked.deleted_at) throw notFound(TOURNAMENT_NOT_FOUND);
          const tournament = await requireTournament(trx, tid);
          const teams = await getTournamentTeams(trx, tid, [...new Set(rows.map((r) => r.teamId))]);
          checkTeams(rows, teams);
          const group = await matchGroup(trx, tid, day, match, request.body.groupId, [...teams.keys()]);
          checkGroupRows(rows, teams, group);
          const lobby = group.members ? lobbyLimits(group.members.size, tournament.format) : await matchLobby(trx, tournament);
          checkPossible(rows, lobby);
          // Issue 27: the whole match's finishes (the batch is the match), at most the lobby's players minus one.
          const tooMany = finishesTotalError(
            rows.reduce((sum, r) => sum + r.finishes, 0),
            lobby.teams,
            tournament.format,
          );
          if (tooMany) throw badRequest(tooMany, { finishes: tooMany });
          checkPlacements(rows, teams);
          const { groupId } = group;
          const results: NewMatchResult[] = rows.map(({ teamId, position, finishes, absent }) => {
            const positionPoints = absent ? 0 : placementPoints(tournament.points_system, position);
            return {
              tournamentId: tid,
              day,
              match,
              registrationId: teamId,
              position,
              wins: winsFor(position),
              finishes,
              positionPoints,
              totalPoints: positionPoints + finishes,
              groupId,
              absent: !!absent,
            };
          });
          const saved = await replaceMatchResults(trx, { tournamentId: tid, day, match, groupId }, results, nowIso());
          if (saved.changed) {
            // One change for the whole call, however many teams it touched (decision 048).
            const by = currentUser(request);
            await recordResultChange(trx, { tournamentId: tid, groupId, day, match, by, at: isoAt(app.clock.now()), teams: saved.teams });
            await bumpGeneration(trx, tid);
          }
          return listMatchResults(trx, { tournamentId: tid, day, match, groupId });
        });
      } catch (err) {
        if (err instanceof HttpError || !isUniqueViolation(err, PLACEMENT_CONSTRAINT)) throw err;
        // Only a per-team submission racing this batch can get here: the batch itself never shares a placement.
        throw conflict(`Day ${day} match ${match} was changed by someone else at the same moment. Reload it and submit again.`);
      }
    },
  );

  app.get(
    endpoints.matchResults.url,
    {
      schema: endpoints.matchResults.schema,
    },
    async (request) => {
      const tid = request.params.id;
      await requireTournament(app.store.db, tid);
      return listMatchResults(app.store.db, {
        tournamentId: tid,
        day: request.query.day,
        match: request.query.match,
        groupId: request.query.group,
      });
    },
  );

  app.get(
    endpoints.resultHistory.url,
    {
      schema: endpoints.resultHistory.schema,
    },
    (request, reply) => {
      const tid = request.params.id;
      const limit = request.query.limit ?? RESULT_HISTORY_LIMIT;
      const { before } = request.query;
      return app.answers.send(request, reply, {
        key: `history:${tid}:${limit}:${before ?? ''}`,
        tournamentId: tid,
        build: async () => {
          await requireTournament(app.store.db, tid);
          const history = await listResultEdits(app.store.db, tid, { limit, before });
          const notPlayed = before === undefined ? await notPlayedMatches(app.store.db, tid) : [];
          return notPlayed.length > 0 ? { ...history, notPlayed } : history;
        },
        schema: ResultHistorySchema,
      });
    },
  );

  app.get(
    endpoints.pointsTableDay.url,
    {
      schema: endpoints.pointsTableDay.schema,
    },
    (request, reply) => {
      const tid = request.params.id;
      const { stage, group } = request.query;
      const day = request.query.day === 0 ? undefined : request.query.day;
      return app.answers.send(request, reply, {
        key: `points:${tid}:${day ?? 'overall'}:${stage ?? ''}:${group ?? ''}`,
        tournamentId: tid,
        build: () => pointsTable(app.store.db, tid, day, { stage, group }),
        schema: PointsTableSchema,
      });
    },
  );

  app.get(
    endpoints.pointsBreakdown.url,
    {
      schema: endpoints.pointsBreakdown.schema,
    },
    (request, reply) => {
      const tid = request.params.id;
      const { stage, group } = request.query;
      const day = request.query.day === 0 ? undefined : request.query.day;
      return app.answers.send(request, reply, {
        key: `breakdown:${tid}:${day ?? 'overall'}:${stage ?? ''}:${group ?? ''}`,
        tournamentId: tid,
        build: () => pointsBreakdown(app.store.db, tid, day, { stage, group }),
        schema: PointsBreakdownSchema,
      });
    },
  );

  app.get(
    endpoints.pointsTableDays.url,
    {
      schema: endpoints.pointsTableDays.schema,
    },
    (request, reply) => {
      const tid = request.params.id;
      const { stage, group } = request.query;
      return app.answers.send(request, reply, {
        key: `days:${tid}:${stage ?? ''}:${group ?? ''}`,
        tournamentId: tid,
        build: async () => {
          const where = await resolveScope(app.store.db, tid, { stage, group });
          const inScope =
            where.groupId !== undefined ? { groupId: where.groupId } : where.stageId !== undefined ? { stageId: where.stageId } : {};
          return { days: await tableDays(app.store.db, { tournamentId: tid, ...inScope }) };
        },
        schema: PointsDaysSchema,
      });
    },
  );

  app.get(
    endpoints.pointsTableOverall.url,
    {
      schema: endpoints.pointsTableOverall.schema,
    },
    (request, reply) => {
      const tid = request.params.id;
      const { stage, group } = request.query;
      return app.answers.send(request, reply, {
        key: `points:${tid}:overall:${stage ?? ''}:${group ?? ''}`,
        tournamentId: tid,
        build: () => pointsTable(app.store.db, tid, undefined, { stage, group }),
        schema: PointsTableSchema,
      });
    },
  );
};

export default routes;
