import type { FastifyInstance, FastifyRequest, onResponseHookHandler } from 'fastify';
import { endpoints, type EndpointName } from '@custom-room/contract';
import { insertActivity } from '../db/activity.js';
import { activityNames } from '../db/staff.js';
import { isoAt } from '../lib/clock.js';
import { tournamentOfCall } from './auth.js';

/**
 * Issue 29 (decision 065): every successful staff write of a tournament is logged with who, what and
 * when, from one place, so a new staff call is logged without anyone remembering to. Crew changes are
 * logged by their services, in their own transactions.
 */

/** What each logged call reads as. */
const ACTIONS: Partial<Record<EndpointName, string>> = {
  updateTournament: 'Changed the tournament',
  deleteTournament: 'Deleted the tournament',
  submitResult: 'Entered a result',
  saveMatchResults: 'Saved match results',
  releaseTeam: 'Released a team',
  removeTeam: 'Removed a team',
  allowReturn: 'Allowed a team back',
  setPaymentStatuses: 'Set payments',
  setPaymentStatus: 'Set a payment',
  createMatch: 'Posted a match room',
  updateMatch: 'Changed a match room',
  createStage: 'Added a stage',
  updateStage: 'Changed a stage',
  deleteStage: 'Deleted a stage',
  inviteTeam: 'Invited a team to a stage',
  removeInvite: 'Withdrew a stage invitation',
  drawGroups: 'Drew the groups',
  moveSlot: 'Moved a slot',
  fillSlot: 'Filled an empty slot',
  publishStage: 'Published a stage',
  completeStage: 'Completed a stage',
  reopenStage: 'Reopened a stage',
  scheduleStage: 'Scheduled a stage',
  resolveNoShows: 'Settled the no-shows',
  setStageRooms: 'Posted rooms',
  postAnnouncement: 'Posted an announcement',
  // Issue 30 (decision 071).
  confirmLobby: 'Confirmed a lobby',
  setReporting: 'Opened or closed reporting',
  setReportSettings: 'Changed the report settings',
  resolveDispute: 'Resolved a dispute',
  // Issue 31 (decision 081).
  uploadStatement: 'Uploaded a statement',
  setStatementColumns: "Picked a statement's columns",
  verifyStatement: 'Verified payments from a statement',
  recordRefund: 'Recorded a refund',
  setPrizes: 'Set the prize table',
  // Decision 085.
  awardPrizes: "Named the special prizes' winners",
  remindWinners: 'Asked the winners for their UPI IDs',
  recordPayout: 'Recorded a prize payout',
};

const BY_ROUTE = new Map<string, EndpointName>(
  (Object.entries(endpoints) as [EndpointName, { method: string; url: string }][]).map(([name, e]) => [`${e.method} ${e.url}`, name]),
);

type Loose = Record<string, unknown>;
const num = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined);

/** The words after the action: the team(s), stage, group, day and match, status, as the call names them. */
async function detailOf(app: FastifyInstance, request: FastifyRequest, tournamentId: number): Promise<string> {
  const params = (request.params ?? {}) as Loose;
  const body = (request.body ?? {}) as Loose;
  const rids = [num(params.rid), num(params.teamId), ...(Array.isArray(body.rids) ? body.rids.map(num) : [])].filter(
    (x): x is number => x !== undefined,
  );
  const names = await activityNames(app.store.db, tournamentId, {
    registrationIds: rids,
    stageId: num(params.stageId) ?? num(body.stageId),
    groupId: num(body.groupId) ?? num(((request.query ?? {}) as Loose).group),
    matchIds: Array.isArray(body.rooms) ? body.rooms.map((r) => num((r as Loose)?.id)).filter((x): x is number => x !== undefined) : [],
  });
  const parts: string[] = [];
  if (names.teams.length > 0)
    parts.push(
      names.teams.length > 3 ? `${names.teams.slice(0, 3).join(', ')} and ${names.teams.length - 3} more` : names.teams.join(', '),
    );
  if (typeof body.paymentStatus === 'string') parts.push(`payment ${body.paymentStatus}`);
  if (names.stage) parts.push(names.stage);
  else if (typeof body.name === 'string' && request.routeOptions.url?.endsWith('/stages')) parts.push(body.name); // a new stage
  if (names.group) parts.push(`Group ${names.group}`);
  const day = num(params.day) ?? num(body.day);
  const match = num(params.match) ?? num(body.match) ?? num(body.matchNo);
  if (day && match) parts.push(`day ${day} match ${match}`);
  // Which rooms: each match by group, day and number (many: how many).
  if (Array.isArray(body.rooms))
    parts.push(names.matches.length > 0 && names.matches.length <= 3 ? names.matches.join(', ') : `${body.rooms.length} rooms`);
  if (typeof body.action === 'string') parts.push(body.action);
  // An announcement's own words (public anyway), shortened.
  if (typeof body.body === 'string') parts.push(`“${body.body.length > 80 ? `${body.body.slice(0, 79)}…` : body.body}”`);
  return parts.join(' · ');
}

/**
 * Logs the staff writes that succeed (after the answer is sent: a failure to log never fails the
 * call). The hook is on those routes only: public reads carry nothing.
 */
export function activityLog(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    const name = methods.map((m) => BY_ROUTE.get(`${m} ${route.url}`)).find(Boolean);
    const action = name && ACTIONS[name];
    if (!name || !action) return;
    const log: onResponseHookHandler = async (request, reply) => {
      if (reply.statusCode >= 300 || !request.user) return;
      try {
        const tournamentId = await tournamentOfCall(app.store.db, `${request.method} ${route.url}`, request.params, request.body);
        if (!tournamentId) return;
        const detail = await detailOf(app, request, tournamentId);
        await insertActivity(
          app.store.db,
          { tournamentId, actorId: request.user.id, actorName: request.user.username, action, detail },
          isoAt(app.clock.now()),
        );
      } catch (err) {
        request.log.error({ err }, 'activity: could not log a staff write');
      }
    };
    route.onResponse = [...[route.onResponse ?? []].flat(), log];
  });
}
