import { data } from '@remix-run/node';
import { ORGANISER_ABOUT_MAX, ORGANISER_NAME_MAX, OrganiserUpdateSchema, SLUG_PATTERN } from '@custom-room/contract';
import { LOGO_FIELD, LOGO_MESSAGES, MAX_UPLOAD_BYTES, REMOVE_LOGO_FIELD } from '@custom-room/contract/constants';
import type { DeskUser } from './desk.server';
import { pageError } from './errors.server';
import { formFailure, submitToGateway, type FieldErrors, type FormValues } from './forms.server';
import { gateway, type Answer } from './gateway.server';
import { readTournamentUpload } from './tournament-upload.server';

/**
 * Issue 29 (decision 068): the organiser's own page, edited at /admin/organiser. The rules are the
 * contract's (OrganiserUpdateSchema, the logo's messages); the gateway checks everything again.
 */

export const ORGANISER_TEXT_FIELDS = ['name', 'about', 'contact', 'whatsapp', 'instagram', 'youtube', 'discord'] as const;
/** The form's fields in the order it shows them (the error summary's order). */
export const ORGANISER_FORM_FIELDS: readonly string[] = [...ORGANISER_TEXT_FIELDS, LOGO_FIELD, REMOVE_LOGO_FIELD];
/** The chosen logo's file name, shown again when the form comes back (a browser cannot keep the file). */
export const LOGO_NAME_VALUE = 'logoName';
export const ORGANISER_SAVED = 'Your organiser page is saved.';
export const ORGANISER_SAVE_FAILED = 'Your organiser page was not saved';
export const NO_ORGANISER = 'You have no organiser page to edit.';

export type EditedOrganiser = Answer<'getOrganiser'>;

export function organiserFormRules() {
  return {
    maxLength: { name: ORGANISER_NAME_MAX, about: ORGANISER_ABOUT_MAX, contact: 120, link: 200 },
    logo: { maxBytes: MAX_UPLOAD_BYTES, ...LOGO_MESSAGES },
  };
}
export type OrganiserFormRules = ReturnType<typeof organiserFormRules>;

/**
 * Whose page: an organiser's own (any ?slug= is not its to choose); a site admin's ?slug=, or
 * without one its own organiser (the Site organiser, as the desk says). 404 for anyone with none.
 */
export async function organiserSlugFor(request: Request, desk: DeskUser): Promise<{ slug: string; chosen: boolean }> {
  const asked = new URL(request.url).searchParams.get('slug');
  if (desk.siteAdmin && asked !== null) {
    if (!SLUG_PATTERN.test(asked)) throw data({ message: 'No organiser has this page.' }, { status: 404 });
    return { slug: asked, chosen: true };
  }
  const organiser = desk.siteAdmin ? (await gateway.call(request, 'desk', {}).catch((err) => pageError(err))).organiser : desk.organiser;
  if (!organiser || (!desk.siteAdmin && organiser.status !== 'approved')) throw data({ message: NO_ORGANISER }, { status: 404 });
  return { slug: organiser.slug, chosen: false };
}

/** The page's current values as the form shows them. */
export function organiserValues(o: EditedOrganiser): FormValues {
  return {
    name: o.name,
    about: o.about,
    contact: o.contact ?? '',
    whatsapp: o.whatsapp ?? '',
    instagram: o.instagram ?? '',
    youtube: o.youtube ?? '',
    discord: o.discord ?? '',
  };
}

/** "About" is one paragraph (the contract refuses line breaks): a textarea's line breaks become spaces. */
const oneParagraph = (text: string) => text.replace(/[ \t]*(?:\r\n|\r|\n)+[ \t]*/g, ' ');

/**
 * The edit page's action: read the upload (the cover's reader and limits, the logo's messages), check
 * the fields with the contract's schema, then one multipart PUT to the gateway. Refused: the form's
 * failure (every value kept, each message by its field). Accepted: the gateway's answer.
 */
export async function submitOrganiserForm(request: Request, slug: string) {
  const upload = await readTournamentUpload(request, { field: LOGO_FIELD, messages: LOGO_MESSAGES });
  const values: FormValues = {};
  for (const name of [...ORGANISER_TEXT_FIELDS, REMOVE_LOGO_FIELD]) if (name in upload.fields) values[name] = upload.fields[name]!;
  if (upload.coverName) values[LOGO_NAME_VALUE] = upload.coverName;
  const fields: Record<string, string> = { ...upload.fields, about: oneParagraph(upload.fields.about ?? '') };
  const checked = OrganiserUpdateSchema.safeParse(fields);
  const { form: formError, ...uploadErrors } = upload.errors;
  const fieldErrors: FieldErrors = {};
  if (!checked.success) for (const issue of checked.error.issues) fieldErrors[String(issue.path[0] ?? 'form')] ??= issue.message;
  Object.assign(fieldErrors, uploadErrors);
  if (!checked.success || formError || Object.keys(fieldErrors).length > 0) {
    const logo = uploadErrors[LOGO_FIELD];
    const status = logo === LOGO_MESSAGES.tooLarge ? 413 : logo === LOGO_MESSAGES.wrongType ? 415 : 400;
    return { ok: false as const, failure: formFailure({ values, fieldErrors, formError: formError ?? null }, status) };
  }
  const form = new FormData();
  for (const name of ORGANISER_TEXT_FIELDS) form.append(name, fields[name] ?? '');
  if (checked.data.removeLogo) form.append(REMOVE_LOGO_FIELD, 'on');
  if (upload.cover) form.append(LOGO_FIELD, upload.cover, upload.cover.name);
  return submitToGateway(() => gateway.call(request, 'updateOrganiser', { params: { slug }, body: form }), {
    values,
    fields: ORGANISER_FORM_FIELDS,
    fallback: ORGANISER_SAVE_FAILED,
  });
}
