import crypto from 'node:crypto';
import {
  STAFF_ROLE_LABELS,
  TOURNAMENT_NOT_FOUND,
  type Desk,
  type StaffInvite,
  type StaffList,
  type StandingJson,
} from '@custom-room/contract';
import { findOrganiserById, findOrganiserOfOwner } from '../db/organisers.js';
import { enqueueEvent } from '../db/outbox.js';
import {
  activateStaff,
  deleteStaff,
  deskTournaments,
  findStaffByToken,
  findStaffMember,
  insertStaff,
  listStaffRows,
  pendingInvitations,
  playsIn,
  stagesOfGroups,
  type StaffScope,
} from '../db/staff.js';
import { findStageRow } from '../db/stages.js';
import { getTournament } from '../db/tournaments.js';
import { findUserById, findUserByUsernameOrEmail } from '../db/users.js';
import { isoAt } from '../lib/clock.js';
import { badRequest, conflict, forbidden, notFound } from '../lib/errors.js';
import { isAdmin, type AuthUser } from '../plugins/auth.js';
import { recordActivity } from './activity.js';
import type { ServiceDeps } from './deps.js';
import { liveTournamentOr404, lockLiveTournamentOr404 } from './live-tournament.js';
import { organiserJson } from './organisers.js';
import { SITE_ADMIN, standingOn, type Standing } from './standing.js';

/** Issue 29 (decision 065): a tournament's crew: invitations, acceptance, removal, and who stands where. */

export const INVITATION_NOT_FOUND = 'This invitation is no longer open: ask the organiser for a new one.';

/** The caller's part in a tournament (for the web's panels). 404 when the tournament is missing. */
export async function standingJson(deps: ServiceDeps, user: AuthUser, tournamentId: number): Promise<StandingJson> {
  await liveTournamentOr404(deps.store.db, tournamentId);
  const standing: Standing | null = isAdmin(user) ? SITE_ADMIN : await standingOn(deps.store.db, user.id, tournamentId);
  if (!standing) return { kind: null, scopes: [] };
  return { kind: standing.kind, scopes: standing.kind === 'site-admin' ? [] : [...standing.scopes] };
}

/** The owner's invitation: an existing account, not a player of this tournament, not already on the crew. */
export async function inviteStaff(
  deps: ServiceDeps,
  by: AuthUser,
  tournamentId: number,
  invite: StaffInvite,
): Promise<{ tournamentId: number; tournamentName: string; role: StaffInvite['role']; token: string }> {
  return deps.store.writeTransaction(async (trx) => {
    await lockLiveTournamentOr404(deps.store, trx, tournamentId);
    const tournament = (await getTournament(trx, tournamentId))!;
    const user = await findUserByUsernameOrEmail(trx, invite.who);
    if (!user)
      throw badRequest('No account has this username or email.', { who: 'No account has this username or email: they sign up first.' });
    if (user.id === by.id) throw badRequest('You already run this tournament.', { who: 'You already run this tournament.' });
    const organiser = await findOrganiserOfOwner(trx, user.id);
    if (organiser && Number(organiser.id) === Number(tournament.organiser_id)) {
      throw badRequest('This account owns the tournament.', { who: 'This account owns the tournament.' });
    }
    if (await playsIn(trx, tournamentId, user.id)) {
      throw conflict('This account has a team in this tournament: a player cannot also be its staff.', {
        who: 'This account has a team in this tournament: a player cannot also be its staff.',
      });
    }
    if (await findStaffMember(trx, tournamentId, user.id)) {
      throw conflict('This account is already on the crew (or invited).', { who: 'This account is already on the crew (or invited).' });
    }
    const scopes = await checkedScopes(trx, tournamentId, invite.scopes ?? []);
    const token = crypto.randomBytes(24).toString('base64url');
    const at = deps.clock.now();
    await insertStaff(trx, { tournamentId, userId: user.id, role: invite.role, token, invitedBy: by.id }, scopes, isoAt(at));
    await enqueueEvent(
      trx,
      { kind: 'staff-invited', tournamentId, audience: { users: [user.id] }, data: { role: invite.role, token, by: by.username } },
      at,
    );
    await recordActivity(trx, { tournamentId, by, at }, 'staff-invited', `${user.username} as ${STAFF_ROLE_LABELS[invite.role]}`);
    return { tournamentId, tournamentName: tournament.name, role: invite.role, token };
  });
}

/** Each scope is a stage of this tournament, and its group (when named) a group of that stage. */
async function checkedScopes(
  trx: Parameters<typeof findStageRow>[0],
  tournamentId: number,
  scopes: readonly { stageId: number; groupId?: number | null }[],
) {
  const out: StaffScope[] = [];
  const groups = await stagesOfGroups(
    trx,
    tournamentId,
    scopes.flatMap((s) => (s.groupId ? [s.groupId] : [])),
  );
  for (const [i, s] of scopes.entries()) {
    if (!(await findStageRow(trx, tournamentId, s.stageId))) {
      throw badRequest('Choose a stage of this tournament.', { [`scopes.${i}.stageId`]: 'Choose a stage of this tournament.' });
    }
    if (s.groupId && groups.get(s.groupId) !== s.stageId) {
      throw badRequest('Choose a group of that stage.', { [`scopes.${i}.groupId`]: 'Choose a group of that stage.' });
    }
    out.push({ stageId: s.stageId, groupId: s.groupId ?? null });
  }
  return out;
}

/** The invitee accepts, signed in as the invited account. */
export async function acceptInvitation(deps: ServiceDeps, user: AuthUser, token: string) {
  return deps.store.writeTransaction(async (trx) => {
    const row = await findStaffByToken(trx, token);
    if (!row || row.status !== 'invited') throw notFound(INVITATION_NOT_FOUND);
    if (Number(row.user_id) !== user.id) throw forbidden('This invitation is for another account: log in as the invited account.');
    const tournamentId = Number(row.tournament_id);
    await lockLiveTournamentOr404(deps.store, trx, tournamentId);
    const tournament = (await getTournament(trx, tournamentId))!;
    if (await playsIn(trx, tournamentId, user.id)) {
      throw conflict('You have a team in this tournament: a player cannot also be its staff.');
    }
    const at = deps.clock.now();
    await activateStaff(trx, Number(row.id), isoAt(at));
    await recordActivity(trx, { tournamentId, by: user, at }, 'staff-joined', `${user.username} as ${STAFF_ROLE_LABELS[row.role]}`);
    return { tournamentId, tournamentName: tournament.name, role: row.role };
  });
}

/** The owner removes a crew member or withdraws an invitation: its next request has no right left. */
export async function removeStaff(deps: ServiceDeps, by: AuthUser, tournamentId: number, userId: number): Promise<void> {
  await deps.store.writeTransaction(async (trx) => {
    await lockLiveTournamentOr404(deps.store, trx, tournamentId);
    const row = await findStaffMember(trx, tournamentId, userId);
    if (!row) throw notFound('This account is not on the crew.');
    await deleteStaff(trx, Number(row.id));
    const at = deps.clock.now();
    const name = (await findUserById(trx, userId))?.username ?? `#${userId}`;
    await recordActivity(trx, { tournamentId, by, at }, 'staff-removed', `${name} (${STAFF_ROLE_LABELS[row.role]})`);
  });
}

/** The owner (through its organiser) and the crew. */
export async function staffList(deps: ServiceDeps, tournamentId: number): Promise<StaffList> {
  const db = deps.store.db;
  const tournament = await getTournament(db, tournamentId);
  if (!tournament) throw notFound(TOURNAMENT_NOT_FOUND);
  const organiser = (await findOrganiserById(db, Number(tournament.organiser_id)))!;
  const owner = organiser.owner_id == null ? null : ((await findUserById(db, Number(organiser.owner_id)))?.username ?? null);
  const json = organiserJson(organiser, false);
  const rows = await listStaffRows(db, tournamentId);
  return {
    owner: { organiser: { slug: json.slug, name: json.name, logoUrl: json.logoUrl }, username: owner },
    staff: rows.map((r) => ({
      userId: Number(r.user_id),
      username: r.username,
      role: r.role,
      status: r.status,
      scopes: r.scopes,
      invitedAt: r.invited_at,
      acceptedAt: r.accepted_at,
    })),
  };
}

/** The caller's desk: its organiser, the tournaments it works on, its open invitations. */
export async function deskOfUser(deps: ServiceDeps, user: AuthUser): Promise<Desk> {
  const db = deps.store.db;
  const organiser = await findOrganiserOfOwner(db, user.id);
  const [tournaments, invitations] = await Promise.all([deskTournaments(db, user.id), pendingInvitations(db, user.id)]);
  return {
    organiser: organiser ? organiserJson(organiser, true, user.username) : null,
    siteAdmin: isAdmin(user),
    tournaments: tournaments.map((t) => ({ id: t.id, name: t.name, kind: t.kind })),
    invitations: invitations.map((i) => ({
      tournamentId: Number(i.tournament_id),
      tournamentName: i.name,
      role: i.role,
      token: i.token ?? undefined,
    })),
  };
}
