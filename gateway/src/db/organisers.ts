import type { Selectable } from 'kysely';
import type { OrganisersTable } from './schema.js';
import type { Trx } from './types.js';

/** Issue 29 (decision 065): organisers, who own tournaments. */

export type OrganiserRow = Selectable<OrganisersTable>;

export const SITE_SLUG = 'site';

export function findOrganiserBySlug(db: Trx, slug: string): Promise<OrganiserRow | undefined> {
  return db.selectFrom('organisers').selectAll().where('slug', '=', slug).executeTakeFirst();
}

export function findOrganiserById(db: Trx, id: number): Promise<OrganiserRow | undefined> {
  return db.selectFrom('organisers').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The organiser a user owns (of any status), or undefined. */
export function findOrganiserOfOwner(db: Trx, userId: number): Promise<OrganiserRow | undefined> {
  return db.selectFrom('organisers').selectAll().where('owner_id', '=', userId).executeTakeFirst();
}

/** The Site organiser's id (migration 019 made it). */
export async function siteOrganiserId(db: Trx): Promise<number> {
  const row = await db.selectFrom('organisers').select('id').where('is_site', '=', 1).executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Gives the Site organiser to the first site admin when nobody owns it yet (a new database). */
export async function claimSiteOrganiser(db: Trx, userId: number, at: string): Promise<void> {
  await db
    .updateTable('organisers')
    .set({ owner_id: userId, updated_at: at })
    .where('is_site', '=', 1)
    .where('owner_id', 'is', null)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('organisers as o').select('o.id').where('o.owner_id', '=', userId))))
    .execute();
}

export interface OrganiserValues {
  slug: string;
  name: string;
  about: string;
  contact: string;
  whatsapp: string | null;
  instagram: string | null;
  youtube: string | null;
  discord: string | null;
  logoImageId?: string | null;
}

export async function insertOrganiser(
  db: Trx,
  values: OrganiserValues,
  owner: { id: number; status: OrganiserRow['status']; approvedBy: number | null },
  at: string,
): Promise<number> {
  const row = await db
    .insertInto('organisers')
    .values({
      slug: values.slug,
      name: values.name,
      about: values.about,
      contact: values.contact,
      whatsapp: values.whatsapp,
      instagram: values.instagram,
      youtube: values.youtube,
      discord: values.discord,
      logo_image_id: values.logoImageId ?? null,
      owner_id: owner.id,
      status: owner.status,
      approved_by: owner.approvedBy,
      approved_at: owner.status === 'approved' ? at : null,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateOrganiser(db: Trx, id: number, values: Omit<OrganiserValues, 'slug'>, at: string): Promise<void> {
  await db
    .updateTable('organisers')
    .set({
      name: values.name,
      about: values.about,
      contact: values.contact,
      whatsapp: values.whatsapp,
      instagram: values.instagram,
      youtube: values.youtube,
      discord: values.discord,
      ...(values.logoImageId !== undefined ? { logo_image_id: values.logoImageId } : {}),
      updated_at: at,
    })
    .where('id', '=', id)
    .execute();
}

export async function setOrganiserStatus(db: Trx, id: number, status: OrganiserRow['status'], by: number, at: string): Promise<void> {
  await db
    .updateTable('organisers')
    .set({ status, updated_at: at, ...(status === 'approved' ? { approved_by: by, approved_at: at } : {}) })
    .where('id', '=', id)
    .execute();
}

/** Every organiser, for a site admin's list (pending first), or the approved ones for the public. */
export function listOrganisers(db: Trx, which: 'all' | 'approved'): Promise<OrganiserRow[]> {
  let q = db.selectFrom('organisers').selectAll();
  if (which === 'approved') q = q.where('status', '=', 'approved');
  return q.orderBy('status', 'desc').orderBy('name').execute();
}

/** The usernames of these accounts (owners of organisers), by id. */
export async function usernamesOf(db: Trx, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [Number(r.id), r.username] as const));
}

/** An organiser's live tournaments for its page: open and upcoming first (by start), then finished (latest first). */
export function organiserTournaments(db: Trx, organiserId: number) {
  return db
    .selectFrom('tournaments')
    .select(['id', 'name', 'game', 'start_date', 'end_date', 'status', 'registration_open', 'registration_close'])
    .where('organiser_id', '=', organiserId)
    .where('deleted_at', 'is', null)
    .orderBy('start_date', 'asc')
    .orderBy('id', 'asc')
    .execute();
}
