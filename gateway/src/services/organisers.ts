import {
  RESERVED_SLUGS,
  slugFrom,
  type Organiser,
  type OrganiserBody,
  type OrganiserPage,
  type OrganiserStatus,
  type OrganiserUpdate,
} from '@custom-room/contract';
import { bumpGeneration } from '../db/generation.js';
import { insertImage, logoUrl, type ProcessedImage } from '../db/images.js';
import { isUniqueViolation, type Trx } from '../db/index.js';
import {
  findOrganiserBySlug,
  findOrganiserOfOwner,
  insertOrganiser,
  listOrganisers,
  organiserTournaments,
  setOrganiserStatus,
  updateOrganiser,
  usernamesOf,
  type OrganiserRow,
} from '../db/organisers.js';
import { listOrganiserTournaments, phaseOf } from '../db/tournaments.js';
import { findUserById, findUserByUsernameOrEmail } from '../db/users.js';
import { isoAt } from '../lib/clock.js';
import { badRequest, conflict, forbidden, notFound } from '../lib/errors.js';
import { isAdmin, type AuthUser } from '../plugins/auth.js';
import type { ServiceDeps } from './deps.js';

/** Issue 29 (decision 065): applying to organise, approval by a site admin, and the organiser's page. */

export const ORGANISER_NOT_FOUND = 'No organiser has this page.';

export function organiserJson(row: OrganiserRow, full: boolean, ownerUsername?: string | null): Organiser {
  return {
    id: Number(row.id),
    slug: row.slug,
    name: row.name,
    logoUrl: row.logo_image_id ? logoUrl(row.logo_image_id) : null,
    about: row.about,
    whatsapp: row.whatsapp,
    instagram: row.instagram,
    youtube: row.youtube,
    discord: row.discord,
    status: row.status,
    isSite: Number(row.is_site) === 1,
    ...(full ? { contact: row.contact, ownerUsername: ownerUsername ?? null } : {}),
  };
}

const values = (body: OrganiserBody) => ({
  name: body.name,
  about: body.about ?? '',
  contact: body.contact,
  whatsapp: body.whatsapp ?? null,
  instagram: body.instagram ?? null,
  youtube: body.youtube ?? null,
  discord: body.discord ?? null,
});

/**
 * A signed-in user applies (pending); a site admin naming an owner creates it approved for that
 * account. One organiser per account; the slug is unique (409 with the field's message).
 */
export async function applyOrganiser(deps: ServiceDeps, caller: AuthUser, body: OrganiserBody): Promise<Organiser> {
  const admin = isAdmin(caller);
  if (body.owner && !admin) throw forbidden('Only a site admin creates an organiser for another account.');
  const at = isoAt(deps.clock.now());
  const slug = body.slug ?? slugFrom(body.name);
  if (slug.length < 3)
    throw badRequest('Choose a page address.', { slug: 'Page address: 3 to 40 lower-case letters, digits and hyphens.' });
  // A name like "Apply" would make the address of one of the site's own pages.
  if (RESERVED_SLUGS.includes(slug)) throw conflict('This page address is taken.', { slug: 'This page address is taken: choose another.' });
  return deps.store.writeTransaction(async (trx) => {
    const owner = body.owner ? await findUserByUsernameOrEmail(trx, body.owner) : await findUserById(trx, caller.id);
    if (!owner) throw badRequest('No account has this username or email.', { owner: 'No account has this username or email.' });
    if (await findOrganiserOfOwner(trx, owner.id)) {
      throw conflict('This account already has an organiser.', { name: 'This account already has an organiser.' });
    }
    const status: OrganiserStatus = admin && body.owner ? 'approved' : 'pending';
    try {
      await insertOrganiser(
        trx,
        { slug, ...values(body) },
        { id: owner.id, status, approvedBy: status === 'approved' ? caller.id : null },
        at,
      );
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      throw conflict('This page address is taken.', { slug: 'This page address is taken: choose another.' });
    }
    const row = (await findOrganiserBySlug(trx, slug))!;
    return organiserJson(row, true, owner.username);
  });
}

/** The organiser's page: approved ones for everyone; pending or withdrawn ones for their owner and site admins only. */
export async function organiserPage(deps: ServiceDeps, slug: string, caller: AuthUser | null): Promise<OrganiserPage> {
  const row = await findOrganiserBySlug(deps.store.db, slug);
  const mine = !!row && !!caller && Number(row.owner_id) === caller.id;
  if (!row || (row.status !== 'approved' && !mine && !isAdmin(caller))) throw notFound(ORGANISER_NOT_FOUND);
  const now = deps.clock.now();
  const done = new Set(['completed', 'cancelled']);
  const tournaments = (await listOrganiserTournaments(deps.store.db, Number(row.id)))
    .map((t) => ({ id: Number(t.id), name: t.name, game: t.game, startDate: t.start_date, phase: phaseOf(t, now) }))
    // Open first: every tournament not over, soonest first; then the finished ones, latest first.
    .sort(
      (a, b) => Number(done.has(a.phase)) - Number(done.has(b.phase)) || (done.has(a.phase) ? b.startDate.localeCompare(a.startDate) : 0),
    );
  const owner = mine || isAdmin(caller) ? await ownerName(deps.store.db, row) : undefined;
  return { ...organiserJson(row, mine || isAdmin(caller), owner), tournaments };
}

async function ownerName(db: Trx, row: OrganiserRow): Promise<string | null> {
  return row.owner_id == null ? null : ((await findUserById(db, Number(row.owner_id)))?.username ?? null);
}

const NOT_YOURS = 'Only its owner changes this page.';

/** The organiser's row when the caller may change its page: 404 no such organiser, 403 not its owner nor a site admin. */
async function editableRow(db: Trx, slug: string, caller: AuthUser): Promise<OrganiserRow> {
  const row = await findOrganiserBySlug(db, slug);
  if (!row) throw notFound(ORGANISER_NOT_FOUND);
  if (Number(row.owner_id) !== caller.id && !isAdmin(caller)) throw forbidden(NOT_YOURS);
  return row;
}

/** Before a logo is decoded (CPU-heavy): the 404 and 403 the change would answer, so a stranger's upload costs no image work. */
export async function checkOrganiserEditable(deps: ServiceDeps, slug: string, caller: AuthUser): Promise<void> {
  await editableRow(deps.store.db, slug, caller);
}

/**
 * The owner or a site admin changes the page (not its slug, nor its owner). logo: a new logo, already
 * processed (decision 068); without one, removeLogo clears the current logo, and otherwise it stays.
 */
export async function changeOrganiser(
  deps: ServiceDeps,
  slug: string,
  caller: AuthUser,
  body: OrganiserUpdate,
  logo?: ProcessedImage,
): Promise<Organiser> {
  return deps.store.writeTransaction(async (trx) => {
    const row = await editableRow(trx, slug, caller);
    const at = isoAt(deps.clock.now());
    if (logo) await insertImage(trx, logo, at);
    const logoImageId = logo ? logo.id : body.removeLogo ? null : undefined;
    await updateOrganiser(trx, Number(row.id), { ...values(body), logoImageId }, at);
    // Tournament answers carry the organiser's name and logo: cached ones are rebuilt.
    for (const t of await organiserTournaments(trx, Number(row.id))) await bumpGeneration(trx, Number(t.id));
    return organiserJson((await findOrganiserBySlug(trx, slug))!, true, await ownerName(trx, row));
  });
}

/** A site admin approves an application or withdraws an organiser (the Site organiser stays). */
export async function decideOrganiser(
  deps: ServiceDeps,
  slug: string,
  caller: AuthUser,
  decision: 'approve' | 'withdraw',
): Promise<Organiser> {
  return deps.store.writeTransaction(async (trx) => {
    const row = await findOrganiserBySlug(trx, slug);
    if (!row) throw notFound(ORGANISER_NOT_FOUND);
    if (Number(row.is_site) === 1 && decision === 'withdraw') throw conflict('The Site organiser cannot be withdrawn.');
    await setOrganiserStatus(trx, Number(row.id), decision === 'approve' ? 'approved' : 'withdrawn', caller.id, isoAt(deps.clock.now()));
    for (const t of await organiserTournaments(trx, Number(row.id))) await bumpGeneration(trx, Number(t.id));
    return organiserJson((await findOrganiserBySlug(trx, slug))!, true, await ownerName(trx, row));
  });
}

/** Approved organisers for everyone; a site admin may list those of any status. */
export async function organisersList(
  deps: ServiceDeps,
  caller: AuthUser | null,
  status: OrganiserStatus | undefined,
): Promise<Organiser[]> {
  if (status && status !== 'approved' && !isAdmin(caller)) throw forbidden('Only site admins see applications.');
  const rows = await listOrganisers(deps.store.db, status ? 'all' : 'approved');
  const admin = isAdmin(caller);
  const shown = rows.filter((r) => !status || r.status === status);
  // A site admin sees whose account each organiser is (the list it approves from).
  const owners = admin
    ? await usernamesOf(
        deps.store.db,
        shown.flatMap((r) => (r.owner_id == null ? [] : [Number(r.owner_id)])),
      )
    : null;
  return shown.map((r) => organiserJson(r, admin, owners && r.owner_id != null ? (owners.get(Number(r.owner_id)) ?? null) : undefined));
}
