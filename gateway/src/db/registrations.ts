import type { Selectable } from 'kysely';
import {
  CHARACTER_ID_FIELDS,
  type CharacterIdField,
  IGN_FIELDS,
  type IgnField,
  lowerName,
  nameKeys,
  type PaymentStatus,
  type Place,
  type Registration,
  type RejoinState,
  type ReleaseReason,
  type TeamFields,
  type TeamWithIds,
} from '@custom-room/contract';
import type { Trx } from './index.js';
import type { RegistrationsTable } from './schema.js';

// payment_utr stays inside the gateway: it mirrors payment_reference while it holds the claim.
export type RegistrationRow = Omit<Selectable<RegistrationsTable>, 'payment_utr'>;

/** Constraint names (PostgreSQL) and a column SQLite's message names, for isUniqueViolation. */
export const ONE_TEAM_PER_USER = { constraint: 'registrations_one_per_user', column: 'user_id' };
// A clash of names trips whichever of their unique indexes the database checks first (decision 033).
export const TEAM_NAME_TAKEN = [
  { constraint: 'registrations_team_name', column: 'team_name_lower' },
  { constraint: 'registrations_team_name_key', column: 'team_name_key' },
  { constraint: 'registrations_team_name_shape', column: 'team_name_shape' },
];
export const IGN_TAKEN = [
  { constraint: 'registration_igns_pk', column: 'ign_lower' },
  { constraint: 'registration_igns_key', column: 'ign_key' },
  { constraint: 'registration_igns_shape', column: 'ign_shape' },
];

/** What the unique indexes hold for a name: its lower-case form (decision 007) and its two keys (decision 033). */
export function nameColumns(name: string) {
  const { key, shape } = nameKeys(name);
  return { lower: lowerName(name), key, shape };
}
export const UTR_TAKEN_CONSTRAINT = { constraint: 'registrations_payment_utr', column: 'payment_utr' };

export const REGISTRATION_COLUMNS = [
  'registrations.id',
  'registrations.tournament_id',
  'registrations.user_id',
  'registrations.team_name',
  'registrations.team_name_lower',
  'registrations.team_name_key',
  'registrations.team_name_shape',
  'registrations.player1_username',
  'registrations.player2_username',
  'registrations.player3_username',
  'registrations.player4_username',
  'registrations.substitute1_username',
  'registrations.substitute2_username',
  'registrations.payment_status',
  'registrations.payment_reference',
  'registrations.created_at',
  'registrations.updated_at',
  'registrations.place',
  'registrations.placed_at',
  'registrations.pay_by',
  'registrations.released_at',
  'registrations.released_reason',
  'registrations.rejoin',
] as const;

/** What a registration's answer needs besides its row (decision 043). */
export interface PlaceContext {
  entryFee: number;
  waitlistPosition: number | null;
}

/** Placed and paid, or placed in a free tournament: the team plays. */
export const isConfirmedTeam = (row: { place: string; payment_status: string }, entryFee: number) =>
  row.place === 'placed' && (Number(entryFee) <= 0 || row.payment_status === 'verified');

export function toRegistration(row: RegistrationRow, context: PlaceContext): Registration {
  const placed = row.place === 'placed';
  const confirmed = isConfirmedTeam(row, context.entryFee);
  return {
    rid: row.id,
    tid: row.tournament_id,
    teamName: row.team_name,
    player1Username: row.player1_username,
    player2Username: row.player2_username,
    player3Username: row.player3_username,
    player4Username: row.player4_username,
    substitute1Username: row.substitute1_username,
    substitute2Username: row.substitute2_username,
    paymentStatus: row.payment_status as PaymentStatus,
    paymentReference: row.payment_reference,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    place: row.place as Place,
    confirmed,
    payBy: placed && !confirmed && row.payment_status !== 'verified' ? row.pay_by : null,
    waitlistPosition: row.place === 'waitlist' ? context.waitlistPosition : null,
    placedAt: row.placed_at,
    releasedAt: row.released_at,
    releasedReason: (row.released_reason as ReleaseReason | null) ?? null,
    ...(row.rejoin ? { rejoin: row.rejoin as RejoinState } : {}),
  };
}

/** The tournament columns registration rules need; soft-deleted tournaments count as missing. */
export function findLiveTournament(db: Trx, id: number) {
  return db
    .selectFrom('tournaments')
    .select([
      'id',
      'status',
      'start_date',
      'max_teams',
      'registration_open',
      'registration_close',
      'entry_fee',
      'payment_deadline_hours',
      'payment_deadline_at',
    ])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** The user's team in the tournament: the latest one (after a withdrawal the captain may register again). */
export function findUserRegistration(db: Trx, tournamentId: number, userId: number): Promise<RegistrationRow | undefined> {
  return db
    .selectFrom('registrations')
    .select(REGISTRATION_COLUMNS)
    .where('tournament_id', '=', tournamentId)
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The tournament's registrations among ids, by rid. */
export function findRegistrationsByIds(db: Trx, tournamentId: number, ids: readonly number[]): Promise<RegistrationRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('registrations')
    .select(REGISTRATION_COLUMNS)
    .where('tournament_id', '=', tournamentId)
    .where('id', 'in', ids)
    .orderBy('id')
    .execute();
}

export function findRegistrationById(db: Trx, id: number): Promise<RegistrationRow | undefined> {
  return db.selectFrom('registrations').select(REGISTRATION_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** The tournaments where the user has a team holding or waiting for a place. */
export async function findTournamentsOfUser(db: Trx, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('registrations')
    .select('tournament_id')
    .where('user_id', '=', userId)
    .where('place', 'in', ['placed', 'waitlist'])
    .execute();
  return rows.map((r) => r.tournament_id);
}

/** Whether the user has a team holding or waiting for a place (released and withdrawn teams do not count). */
export async function hasRegistration(db: Trx, tournamentId: number, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('registrations')
    .select('id')
    .where('tournament_id', '=', tournamentId)
    .where('user_id', '=', userId)
    .where('place', 'in', ['placed', 'waitlist'])
    .executeTakeFirst();
  return !!row;
}

/** Placed teams: Max Teams counts these only (decision 043). */
export async function countRegistrations(db: Trx, tournamentId: number): Promise<number> {
  const row = await db
    .selectFrom('registrations')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('tournament_id', '=', tournamentId)
    .where('place', '=', 'placed')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** True when a team of the tournament has this name or one that looks the same (decision 033). */
export async function isTeamNameTaken(db: Trx, tournamentId: number, teamName: string, exceptRegistrationId?: number): Promise<boolean> {
  const { key, shape } = nameKeys(teamName);
  let query = db
    .selectFrom('registrations')
    .select('id')
    .where('tournament_id', '=', tournamentId)
    .where('place', 'in', ['placed', 'waitlist'])
    .where((eb) => eb.or([eb('team_name_key', '=', key), eb('team_name_shape', '=', shape)]));
  if (exceptRegistrationId !== undefined) query = query.where('id', '!=', exceptRegistrationId);
  return !!(await query.executeTakeFirst());
}

/** The registrations column of each IGN field. */
export const IGN_COLUMNS = {
  player1Username: 'player1_username',
  player2Username: 'player2_username',
  player3Username: 'player3_username',
  player4Username: 'player4_username',
  substitute1Username: 'substitute1_username',
  substitute2Username: 'substitute2_username',
} as const satisfies Record<IgnField, keyof RegistrationsTable>;

/**
 * Decision 052: what a team (and, registering, its account) shares with a team the organiser removed from
 * the tournament and has not allowed back: the account, the team name, an IGN or a character ID (each
 * compared as the unique indexes compare them). Empty when nothing does.
 */
export async function findBarredClashes(
  db: Trx,
  tournamentId: number,
  team: TeamFields & Record<CharacterIdField, string>,
  userId?: number,
): Promise<{ teamName: string; account: boolean; fields: (keyof TeamWithIds)[] }[]> {
  const barred = await db
    .selectFrom('registrations')
    .select(['id', 'user_id', 'team_name', 'team_name_key', 'team_name_shape', ...IGN_FIELDS.map((f) => IGN_COLUMNS[f])])
    .where('tournament_id', '=', tournamentId)
    .where('rejoin', '=', 'barred')
    .execute();
  if (barred.length === 0) return [];
  const ids = await db
    .selectFrom('left_character_ids')
    .select(['registration_id', 'character_id'])
    .where(
      'registration_id',
      'in',
      barred.map((b) => b.id),
    )
    .execute();
  const name = nameKeys(team.teamName);
  const igns = teamIgns(team);
  const clashes = [];
  for (const b of barred) {
    const fields: (keyof TeamWithIds)[] = [];
    if (b.team_name_key === name.key || b.team_name_shape === name.shape) fields.push('teamName');
    const theirs = teamIgns(Object.fromEntries(IGN_FIELDS.map((f) => [f, b[IGN_COLUMNS[f]]])) as Record<IgnField, string>);
    for (const i of igns) if (theirs.some((t) => t.key === i.key || t.shape === i.shape)) fields.push(i.field);
    const theirIds = new Set(ids.filter((r) => Number(r.registration_id) === Number(b.id)).map((r) => r.character_id));
    for (const field of CHARACTER_ID_FIELDS) if (team[field] !== '' && theirIds.has(team[field])) fields.push(field);
    const account = userId !== undefined && Number(b.user_id) === userId;
    if (account || fields.length > 0) clashes.push({ teamName: b.team_name, account, fields });
  }
  return clashes;
}

/** The team's IGNs with their stored forms, skipping empty optional slots. */
export function teamIgns(team: Record<IgnField, string>): { field: IgnField; ign: string; lower: string; key: string; shape: string }[] {
  return IGN_FIELDS.filter((field) => team[field] !== '').map((field) => ({ field, ign: team[field], ...nameColumns(team[field]) }));
}

/** Fields of team whose IGN, or a look-alike of it, already plays for another team of the tournament. */
export async function findIgnClashes(
  db: Trx,
  tournamentId: number,
  team: Record<IgnField, string>,
  exceptRegistrationId?: number,
): Promise<{ field: IgnField; ign: string }[]> {
  const igns = teamIgns(team);
  if (igns.length === 0) return [];
  let query = db
    .selectFrom('registration_igns')
    .select(['ign_key', 'ign_shape'])
    .where('tournament_id', '=', tournamentId)
    .where((eb) =>
      eb.or([
        eb(
          'ign_key',
          'in',
          igns.map((i) => i.key),
        ),
        eb(
          'ign_shape',
          'in',
          igns.map((i) => i.shape),
        ),
      ]),
    );
  if (exceptRegistrationId !== undefined) query = query.where('registration_id', '!=', exceptRegistrationId);
  const rows = await query.execute();
  const [keys, shapes] = [new Set(rows.map((r) => r.ign_key)), new Set(rows.map((r) => r.ign_shape))];
  return igns.filter((i) => keys.has(i.key) || shapes.has(i.shape)).map(({ field, ign }) => ({ field, ign }));
}

function teamColumns(team: TeamFields) {
  const name = nameColumns(team.teamName);
  return {
    team_name: team.teamName,
    team_name_lower: name.lower,
    team_name_key: name.key,
    team_name_shape: name.shape,
    player1_username: team.player1Username,
    player2_username: team.player2Username,
    player3_username: team.player3Username,
    player4_username: team.player4Username,
    substitute1_username: team.substitute1Username,
    substitute2_username: team.substitute2Username,
  };
}

async function insertIgns(db: Trx, tournamentId: number, registrationId: number, team: TeamFields) {
  const rows = teamIgns(team).map((i) => ({
    tournament_id: tournamentId,
    registration_id: registrationId,
    ign_lower: i.lower,
    ign_key: i.key,
    ign_shape: i.shape,
  }));
  if (rows.length > 0) await db.insertInto('registration_igns').values(rows).execute();
}

/** Inserts the team and its IGN rows; throws the driver's unique violation on a clash. Call inside a transaction. */
export async function insertRegistration(
  db: Trx,
  tournamentId: number,
  userId: number,
  team: TeamFields,
  at: { place: 'placed' | 'waitlist'; payBy: string | null; now: string },
): Promise<RegistrationRow> {
  const { now } = at;
  const row = await db
    .insertInto('registrations')
    .values({
      tournament_id: tournamentId,
      user_id: userId,
      ...teamColumns(team),
      payment_status: 'pending',
      payment_reference: '',
      created_at: now,
      updated_at: now,
      place: at.place,
      placed_at: at.place === 'placed' ? now : null,
      pay_by: at.place === 'placed' ? at.payBy : null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await insertIgns(db, tournamentId, row.id, team);
  return row;
}

/** Replaces the team's fields and IGN rows at `at`; throws the driver's unique violation on a clash. Call inside a transaction. */
export async function updateRegistrationTeam(
  db: Trx,
  registrationId: number,
  tournamentId: number,
  team: TeamFields,
  at: string,
): Promise<RegistrationRow> {
  await db
    .updateTable('registrations')
    .set({ ...teamColumns(team), updated_at: at })
    .where('id', '=', registrationId)
    .execute();
  await db.deleteFrom('registration_igns').where('registration_id', '=', registrationId).execute();
  await insertIgns(db, tournamentId, registrationId, team);
  const row = await findRegistrationById(db, registrationId);
  if (!row) throw new Error(`registration ${registrationId} vanished during update`);
  return row;
}

/**
 * The registration's payment as it stands, for a status change that depends on it. With lock (PostgreSQL)
 * the rows stay locked until the transaction ends, so a player's new reference waits for the admin's
 * decision instead of slipping in under it; SQLite's write transaction holds the whole database already.
 */
export async function findPaymentsForUpdate(db: Trx, registrationIds: readonly number[], lock: boolean) {
  if (registrationIds.length === 0) return [];
  const query = db
    .selectFrom('registrations')
    .select(['id', 'tournament_id', 'team_name', 'payment_status', 'payment_reference'])
    .where('id', 'in', registrationIds)
    .orderBy('id');
  return (lock ? query.forUpdate() : query).execute();
}

/** Whether another registration (of any tournament) carries this UPI reference. */
export async function isReferenceTaken(db: Trx, reference: string, exceptRegistrationId: number): Promise<boolean> {
  const row = await db
    .selectFrom('registrations')
    .select('id')
    .where('payment_reference', '=', reference)
    .where('id', '!=', exceptRegistrationId)
    .executeTakeFirst();
  return !!row;
}

/** Admins may set any status (at `at`); the reference the player gave stays for the record. */
export async function setPayment(db: Trx, registrationId: number, status: PaymentStatus, at: string): Promise<RegistrationRow | undefined> {
  return db
    .updateTable('registrations')
    .set({ payment_status: status, updated_at: at })
    .where('id', '=', registrationId)
    .returningAll()
    .executeTakeFirst();
}

/** The ids among registrationIds that are not registrations of this tournament. */
export async function findForeignRegistrations(db: Trx, tournamentId: number, registrationIds: readonly number[]): Promise<number[]> {
  const own = await db
    .selectFrom('registrations')
    .select('id')
    .where('tournament_id', '=', tournamentId)
    .where('id', 'in', registrationIds)
    .execute();
  const ids = new Set(own.map((r) => Number(r.id)));
  return registrationIds.filter((id) => !ids.has(id));
}

/**
 * Sets the payment status of several registrations of one tournament at `at`; those already in that status
 * are not rewritten. Returns the listed registrations by rid. Call inside a transaction after
 * findForeignRegistrations found none.
 */
export async function setPayments(
  db: Trx,
  tournamentId: number,
  registrationIds: readonly number[],
  status: PaymentStatus,
  at: string,
): Promise<RegistrationRow[]> {
  await db
    .updateTable('registrations')
    .set({ payment_status: status, updated_at: at })
    .where('tournament_id', '=', tournamentId)
    .where('id', 'in', registrationIds)
    .where('payment_status', '!=', status)
    .execute();
  return db
    .selectFrom('registrations')
    .select(REGISTRATION_COLUMNS)
    .where('tournament_id', '=', tournamentId)
    .where('id', 'in', registrationIds)
    .orderBy('id')
    .execute();
}

/**
 * The player's report of a UPI payment (a normalised UTR); undefined when an admin has already verified
 * it (checked in the same statement). Throws the driver's unique violation (UTR_TAKEN_CONSTRAINT) when
 * another registration holds the UTR.
 */
export async function submitPayment(db: Trx, registrationId: number, utr: string, nowMs: number): Promise<RegistrationRow | undefined> {
  const now = new Date(nowMs).toISOString();
  return (
    db
      .updateTable('registrations')
      .set({ payment_status: 'submitted', payment_reference: utr, payment_utr: utr, updated_at: now })
      .where('id', '=', registrationId)
      .where('payment_status', '!=', 'verified')
      .where('place', '=', 'placed')
      // Decision 043: past its deadline the place is lost, even before the sweep has released it.
      // (A submitted payment keeps it while the organiser checks: its reference may still be corrected.)
      .where((eb) => eb.or([eb('pay_by', 'is', null), eb('pay_by', '>', now), eb('payment_status', '=', 'submitted')]))
      .returningAll()
      .executeTakeFirst()
  );
}

/** 1 for the first waitlisted team of its tournament. */
export async function waitlistPosition(db: Trx, registration: { id: number; tournament_id: number; place: string }) {
  if (registration.place !== 'waitlist') return null;
  const row = await db
    .selectFrom('registrations')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('tournament_id', '=', registration.tournament_id)
    .where('place', '=', 'waitlist')
    .where('id', '<=', registration.id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
