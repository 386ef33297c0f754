import { CHARACTER_ID_FIELDS, CHARACTER_ID_OF, type CharacterIdField, IGN_FIELDS, type IgnField } from '@custom-room/contract';
import type { Trx } from './index.js';

/**
 * Decision 046: in-game character IDs, one row each in registration_character_ids beside the team's
 * registration. Kept apart from registrations.ts: registrations carry no character columns, and the
 * answers get the IDs from characterIdsOf.
 */

export type CharacterIds = Record<CharacterIdField, string>;
type TeamIds = Record<IgnField | CharacterIdField, string>;

/** For isUniqueViolation: the primary key (tournament, character ID). */
export const CHARACTER_ID_TAKEN = { constraint: 'registration_character_ids_pk', column: 'character_id' };

const none = (): CharacterIds => Object.fromEntries(CHARACTER_ID_FIELDS.map((f) => [f, ''])) as CharacterIds;

/** The team's character IDs that are set, with the IGN field each belongs to. */
function teamCharacterIds(team: TeamIds): { field: IgnField; id: string }[] {
  return IGN_FIELDS.map((field) => ({ field, id: team[CHARACTER_ID_OF[field]] })).filter((c) => c.id !== '');
}

/** The team's character ID fields that already play for another team of the tournament. */
export async function findCharacterIdClashes(
  db: Trx,
  tournamentId: number,
  team: TeamIds,
  exceptRegistrationId?: number,
): Promise<{ field: CharacterIdField; id: string }[]> {
  const ids = teamCharacterIds(team);
  if (ids.length === 0) return [];
  let query = db
    .selectFrom('registration_character_ids')
    .select('character_id')
    .where('tournament_id', '=', tournamentId)
    .where(
      'character_id',
      'in',
      ids.map((c) => c.id),
    );
  if (exceptRegistrationId !== undefined) query = query.where('registration_id', '!=', exceptRegistrationId);
  const taken = new Set((await query.execute()).map((r) => r.character_id));
  return ids.filter((c) => taken.has(c.id)).map((c) => ({ field: CHARACTER_ID_OF[c.field], id: c.id }));
}

/** Replaces the registration's character IDs; throws the driver's unique violation (CHARACTER_ID_TAKEN) on a clash. */
export async function saveCharacterIds(db: Trx, tournamentId: number, registrationId: number, team: TeamIds): Promise<void> {
  await db.deleteFrom('registration_character_ids').where('registration_id', '=', registrationId).execute();
  const rows = teamCharacterIds(team).map((c) => ({
    tournament_id: tournamentId,
    registration_id: registrationId,
    field: c.field,
    character_id: c.id,
  }));
  if (rows.length > 0) await db.insertInto('registration_character_ids').values(rows).execute();
}

/** The character IDs of each registration ('' where none), by registration id; a team that left keeps its own. */
export async function characterIdsOf(db: Trx, registrationIds: readonly number[]): Promise<Map<number, CharacterIds>> {
  const byRegistration = new Map<number, CharacterIds>(registrationIds.map((id) => [id, none()]));
  if (registrationIds.length === 0) return byRegistration;
  const [held, left] = await Promise.all(
    (['registration_character_ids', 'left_character_ids'] as const).map((table) =>
      db.selectFrom(table).select(['registration_id', 'field', 'character_id']).where('registration_id', 'in', registrationIds).execute(),
    ),
  );
  // Decision 052: a team that left keeps on record the IDs it entered (left_character_ids).
  for (const row of [...left!, ...held!]) {
    const ids = byRegistration.get(Number(row.registration_id));
    const field = CHARACTER_ID_OF[row.field as IgnField];
    if (ids && field) ids[field] = row.character_id;
  }
  return byRegistration;
}

/** The registrations with their character IDs added. */
export async function withCharacterIds<T extends { rid: number }>(db: Trx, registrations: T[]): Promise<(T & CharacterIds)[]> {
  const ids = await characterIdsOf(
    db,
    registrations.map((r) => r.rid),
  );
  return registrations.map((r) => ({ ...r, ...(ids.get(r.rid) ?? none()) }));
}

/** What the character ID rules of a tournament depend on; undefined when it is missing or deleted. */
export async function findIdentityRules(
  db: Trx,
  tournamentId: number,
): Promise<{ game: string; requireCharacterIds: boolean } | undefined> {
  const row = await db
    .selectFrom('tournaments')
    .select(['game', 'require_character_ids'])
    .where('id', '=', tournamentId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row && { game: row.game, requireCharacterIds: Number(row.require_character_ids) === 1 };
}

/** The phone and email of each team's captain (the account that registered it), by registration id: for the organiser only. */
export async function captainContacts(db: Trx, tournamentId: number): Promise<Map<number, { captainPhone: string; captainEmail: string }>> {
  const rows = await db
    .selectFrom('registrations')
    .innerJoin('users', 'users.id', 'registrations.user_id')
    .select(['registrations.id as rid', 'users.phone', 'users.email'])
    .where('registrations.tournament_id', '=', tournamentId)
    .execute();
  return new Map(rows.map((r) => [Number(r.rid), { captainPhone: r.phone, captainEmail: r.email }]));
}
