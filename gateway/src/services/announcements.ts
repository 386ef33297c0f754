import type { Announcement, AnnouncementBody } from '@custom-room/contract';
import { groupIdsOfStage, insertAnnouncement, listAnnouncements, roomsOf } from '../db/announcements.js';
import { bumpGeneration } from '../db/generation.js';
import { confirmedTeams } from '../db/notify-events.js';
import { enqueueEvent, type Audience } from '../db/outbox.js';
import { stagesOfGroups } from '../db/staff.js';
import { findStageRow } from '../db/stages.js';
import { getTournament } from '../db/tournaments.js';
import { isoAt } from '../lib/clock.js';
import { badRequest, forbidden, notFound } from '../lib/errors.js';
import type { AuthUser } from '../plugins/auth.js';
import type { ServiceDeps } from './deps.js';
import { lockLiveTournamentOr404 } from './live-tournament.js';
import { inScope, NOT_YOUR_GROUP, type Standing } from './standing.js';

/** Issue 29 (decision 065): a short message from the crew to a tournament, a stage or a group. */

export const ANNOUNCEMENTS_SHOWN = 50;
export const ROOM_IN_MESSAGE =
  'This message contains a room ID or password: rooms go on the room card, where only the group’s teams see them.';

type Row = Awaited<ReturnType<typeof listAnnouncements>>[number];

function toJson(row: Row): Announcement {
  const stage = row.stage_name ?? null;
  const group = row.group_name ?? null;
  return {
    id: Number(row.id),
    body: row.body,
    at: row.at,
    author: row.author_name,
    stageId: row.stage_id == null ? null : Number(row.stage_id),
    groupId: row.group_id == null ? null : Number(row.group_id),
    audience: group ? `${stage ?? 'Stage'} · Group ${group}` : (stage ?? 'Everyone'),
  };
}

export async function announcementsOf(deps: ServiceDeps, tournamentId: number): Promise<Announcement[]> {
  if (!(await getTournament(deps.store.db, tournamentId))) throw notFound('Tournament not found.');
  return (await listAnnouncements(deps.store.db, tournamentId, ANNOUNCEMENTS_SHOWN)).map(toJson);
}

/**
 * Posts an announcement and tells its audience (the site's list, email and push, through the outbox). A
 * group's audience is its teams; a stage's, the teams of its groups; the tournament's, its confirmed teams.
 * Refused: a group or stage not of this tournament, a lobby manager outside its groups, a room ID or password
 * of a group the message reaches (a whole-tournament message is checked against every room).
 */
export async function postAnnouncement(
  deps: ServiceDeps,
  by: AuthUser,
  standing: Standing | undefined,
  tournamentId: number,
  body: AnnouncementBody,
): Promise<Announcement> {
  return deps.store.writeTransaction(async (trx) => {
    await lockLiveTournamentOr404(deps.store, trx, tournamentId);
    let stageId = body.stageId ?? null;
    const groupId = body.groupId ?? null;
    if (groupId) {
      const stageOfGroup = (await stagesOfGroups(trx, tournamentId, [groupId])).get(groupId);
      if (stageOfGroup === undefined || (stageId && stageId !== stageOfGroup)) {
        throw badRequest('Choose a group of this tournament.', { groupId: 'Choose a group of this tournament.' });
      }
      stageId = stageOfGroup;
    } else if (stageId && !(await findStageRow(trx, tournamentId, stageId))) {
      throw badRequest('Choose a stage of this tournament.', { stageId: 'Choose a stage of this tournament.' });
    }
    if (standing?.kind === 'lobby') {
      const allowed =
        stageId !== null &&
        (groupId ? inScope(standing, stageId, groupId) : standing.scopes.some((s) => s.stageId === stageId && s.groupId === null));
      if (!allowed) throw forbidden(NOT_YOUR_GROUP);
    }
    const groups = groupId ? [groupId] : stageId ? await groupIdsOfStage(trx, stageId) : null;
    const text = body.body.toLowerCase();
    if ((await roomsOf(trx, tournamentId, groups)).some((secret) => text.includes(secret.toLowerCase()))) {
      throw badRequest(ROOM_IN_MESSAGE, { body: ROOM_IN_MESSAGE });
    }
    const at = deps.clock.now();
    const id = await insertAnnouncement(
      trx,
      { tournamentId, stageId, groupId, authorId: by.id, authorName: by.username, body: body.body },
      isoAt(at),
    );
    const tournament = (await getTournament(trx, tournamentId))!;
    const audience: Audience = groups
      ? { groups }
      : { registrations: await confirmedTeams(trx, tournamentId, Number(tournament.entry_fee)) };
    // The tournament's and group's pages list it: their cached copies are stale from now (decision 024).
    await bumpGeneration(trx, tournamentId);
    await enqueueEvent(trx, { kind: 'announcement', tournamentId, audience, data: { announcementId: id, body: body.body } }, at);
    const row = (await listAnnouncements(trx, tournamentId, ANNOUNCEMENTS_SHOWN)).find((r) => Number(r.id) === id)!;
    return toJson(row);
  });
}
