import { type AdminRegistration, type Registration, type UserRegistration } from '@custom-room/contract';
import type { Trx } from './index.js';
import { REGISTRATION_COLUMNS, toRegistration, waitlistPosition } from './registrations.js';
import { phaseOf } from './tournaments.js';

/** The two lists of teams: a player's own teams, and every team of a tournament for its organiser. */

/** A team of the organiser's list as stored: its answer, its account and the teams sharing its UPI reference. */
export interface TournamentTeamRow {
  registration: Registration;
  username: string;
  sameReferenceAs: AdminRegistration['sameReferenceAs'];
}

const coverImageUrl = (imageId: string | null) => (imageId ? `/images/${imageId}.webp` : null);

/** The user's teams with a summary of each tournament, newest first; soft-deleted tournaments are left out. */
export async function listUserRegistrations(db: Trx, userId: number, nowMs: number): Promise<UserRegistration[]> {
  const rows = await db
    .selectFrom('registrations')
    .innerJoin('tournaments', 'tournaments.id', 'registrations.tournament_id')
    .select(REGISTRATION_COLUMNS)
    .select([
      'tournaments.name as t_name',
      'tournaments.game as t_game',
      'tournaments.status as t_status',
      'tournaments.start_date as t_start_date',
      'tournaments.end_date as t_end_date',
      'tournaments.entry_fee as t_entry_fee',
      'tournaments.cover_image_id as t_cover_image_id',
      // Issue 27: what the derived phase reads (decision 051).
      'tournaments.registration_open as t_registration_open',
      'tournaments.registration_close as t_registration_close',
      (eb) =>
        eb
          .selectFrom('stages as s')
          .whereRef('s.tournament_id', '=', 'tournaments.id')
          .select(eb.fn.countAll().as('n'))
          .as('t_stage_count'),
      (eb) =>
        eb
          .selectFrom('stages as s')
          .whereRef('s.tournament_id', '=', 'tournaments.id')
          .where('s.state', '<>', 'draft')
          .select(eb.fn.countAll().as('n'))
          .as('t_stages_started'),
      (eb) =>
        eb
          .selectFrom('stages as s')
          .whereRef('s.tournament_id', '=', 'tournaments.id')
          .select('s.state')
          .orderBy('s.ord', 'desc')
          .limit(1)
          .as('t_last_stage_state'),
    ])
    .where('registrations.user_id', '=', userId)
    .where('tournaments.deleted_at', 'is', null)
    .orderBy('registrations.created_at', 'desc')
    .orderBy('registrations.id', 'desc')
    .execute();
  // After a withdrawal the captain may register again: the latest team of each tournament stands for it.
  const seen = new Set<number>();
  const latest = rows.filter((row) => !seen.has(row.tournament_id) && seen.add(row.tournament_id));
  const positions = await Promise.all(latest.map((row) => waitlistPosition(db, row)));
  return latest.map((row, i) => ({
    ...toRegistration(row, { entryFee: Number(row.t_entry_fee), waitlistPosition: positions[i]! }),
    tournament: {
      id: row.tournament_id,
      name: row.t_name,
      game: row.t_game,
      status: row.t_status,
      startDate: row.t_start_date,
      endDate: row.t_end_date,
      entryFee: Number(row.t_entry_fee),
      coverImageUrl: coverImageUrl(row.t_cover_image_id),
      phase: phaseOf(
        {
          status: row.t_status,
          registration_open: row.t_registration_open,
          registration_close: row.t_registration_close,
          start_date: row.t_start_date,
          end_date: row.t_end_date,
          stage_count: row.t_stage_count,
          stages_started: row.t_stages_started,
          last_stage_state: row.t_last_stage_state,
        },
        nowMs,
      ),
    },
  }));
}

/**
 * Every team of a tournament (released and withdrawn ones too, with their place) with its account's username
 * and the other registrations sharing its UPI reference, in registration order (the organiser's list
 * orders them: services/registrations).
 */
export async function listTournamentRegistrations(db: Trx, tournamentId: number, entryFee: number): Promise<TournamentTeamRow[]> {
  const [rows, shared] = await Promise.all([
    db
      .selectFrom('registrations')
      .innerJoin('users', 'users.id', 'registrations.user_id')
      .select(REGISTRATION_COLUMNS)
      .select('users.username as username')
      .where('registrations.tournament_id', '=', tournamentId)
      .orderBy('registrations.id')
      .execute(),
    // Only older data can share a reference (decision 029): the unique payment_utr stops new pairs.
    db
      .selectFrom('registrations as r')
      .innerJoin('registrations as o', (join) => join.onRef('o.payment_reference', '=', 'r.payment_reference').onRef('o.id', '!=', 'r.id'))
      .select(['r.id as rid', 'o.id as other_rid', 'o.tournament_id as other_tid', 'o.team_name as other_team'])
      .where('r.tournament_id', '=', tournamentId)
      .where('r.payment_reference', '<>', '')
      .orderBy('o.id')
      .execute(),
  ]);
  const sameAs = new Map<number, AdminRegistration['sameReferenceAs']>();
  for (const s of shared) {
    const list = sameAs.get(Number(s.rid)) ?? [];
    list.push({ rid: Number(s.other_rid), tid: Number(s.other_tid), teamName: s.other_team });
    sameAs.set(Number(s.rid), list);
  }
  let waiting = 0;
  return rows.map((row) => ({
    registration: toRegistration(row, { entryFee, waitlistPosition: row.place === 'waitlist' ? ++waiting : null }),
    username: row.username,
    sameReferenceAs: sameAs.get(row.id) ?? [],
  }));
}
