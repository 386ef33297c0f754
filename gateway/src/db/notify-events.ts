import type { Trx } from './index.js';
import { enqueueEvent, type Audience } from './outbox.js';

/** The room of a match as a write saw it. */
export interface MatchRoom {
  id: number;
  tournament_id: number;
  day: number;
  match_no: number;
  group_id: number;
  room_id: string;
  room_password: string;
}

/**
 * Issue 19, "room details posted or changed" (decision 044): records the event in the write's transaction
 * when the match now has a room and it differs from before. Audience: the group's teams once its stage is
 * published (players see a group's room only then: decision 041), or the tournament's confirmed teams for
 * a match outside the stages. The event names the match, never the room ID or password.
 */
export async function enqueueRoomPosted(
  trx: Trx,
  match: MatchRoom,
  before: Pick<MatchRoom, 'room_id' | 'room_password'> | undefined,
  now: number,
) {
  if (match.room_id === '') return false;
  if (before && before.room_id === match.room_id && before.room_password === match.room_password) return false;
  const tid = Number(match.tournament_id);
  const groupId = Number(match.group_id);
  let audience: Audience;
  const data: Record<string, unknown> = {
    matchId: Number(match.id),
    day: Number(match.day),
    matchNo: Number(match.match_no),
    changed: !!before && before.room_id !== '',
  };
  if (groupId !== 0) {
    const group = await trx
      .selectFrom('stage_groups as g')
      .innerJoin('stages as s', 's.id', 'g.stage_id')
      .select(['g.name', 's.name as stage_name', 's.state'])
      .where('g.id', '=', groupId)
      .executeTakeFirst();
    if (!group || group.state === 'draft') return false;
    audience = { groups: [groupId] };
    data.groupName = group.name;
    data.stageName = group.stage_name;
  } else {
    const tournament = await trx.selectFrom('tournaments').select('entry_fee').where('id', '=', tid).executeTakeFirst();
    const teams = await confirmedTeams(trx, tid, Number(tournament?.entry_fee ?? 0));
    if (teams.length === 0) return false;
    audience = { registrations: teams };
  }
  return enqueueEvent(trx, { kind: 'room-posted', tournamentId: tid, audience, data }, now);
}

/** The confirmed teams of a tournament (decisions 029, 043): placed, and payment verified or entry free. */
export async function confirmedTeams(trx: Trx, tournamentId: number, entryFee: number): Promise<number[]> {
  let query = trx
    .selectFrom('registrations')
    .select('id')
    .where('tournament_id', '=', tournamentId)
    .where('place', '=', 'placed')
    .orderBy('id');
  if (entryFee > 0) query = query.where('payment_status', '=', 'verified');
  return (await query.execute()).map((r) => Number(r.id));
}
