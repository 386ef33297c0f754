import { z } from 'zod';
import { LOGO_FIELD, LOGO_WIDTHS, MAX_UPLOAD_BYTES, MIN_COVER_HEIGHT, MIN_COVER_WIDTH, REMOVE_LOGO_FIELD } from '../constants/images.js';
import {
  ANNOUNCEMENT_MAX,
  ORGANISER_ABOUT_MAX,
  ORGANISER_NAME_MAX,
  RESERVED_SLUGS,
  SLUG_MAX,
  SLUG_PATTERN,
} from '../constants/organisers.js';
import { IdSchema, nameText, singleLine } from './common.js';

/** Issue 29 (decision 065): organisers, tournament staff, the activity log and announcements. */

export const ORGANISER_STATUSES = ['pending', 'approved', 'withdrawn'] as const;
export type OrganiserStatus = (typeof ORGANISER_STATUSES)[number];
export const STAFF_ROLES = ['co-organiser', 'payments', 'lobby'] as const;
export type StaffRoleName = (typeof STAFF_ROLES)[number];
export const STAFF_ROLE_LABELS: Record<StaffRoleName, string> = {
  'co-organiser': 'Co-organiser',
  payments: 'Payments',
  lobby: 'Lobby manager',
};

/** A slug made from a name: "Team Xtreme Esports!" → "team-xtreme-esports". */
export function slugFrom(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/g, '');
}

const optionalText = (label: string, max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    singleLine(z.string({ invalid_type_error: `${label} must be text.` }).trim(), label)
      .max(max, `${label} must be at most ${max} characters.`)
      .optional(),
  );

/** A contact link: a full https URL of the service, or blank. */
const link = (label: string, hosts: readonly string[]) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'string' ? v.trim() : v),
    z
      .string({ invalid_type_error: `${label} must be a link.` })
      .max(200, `${label} must be at most 200 characters.`)
      .refine((v) => {
        try {
          const url = new URL(v);
          return url.protocol === 'https:' && hosts.some((h) => url.hostname === h || url.hostname.endsWith(`.${h}`));
        } catch {
          return false;
        }
      }, `${label} must be an https link to ${hosts[0]}.`)
      .optional(),
  );

export const OrganiserLinksSchema = z.object({
  whatsapp: link('WhatsApp link', ['wa.me', 'whatsapp.com']),
  instagram: link('Instagram link', ['instagram.com']),
  youtube: link('YouTube link', ['youtube.com', 'youtu.be']),
  discord: link('Discord link', ['discord.gg', 'discord.com']),
});

export const OrganiserBodySchema = OrganiserLinksSchema.extend({
  name: nameText('Organisation name', ORGANISER_NAME_MAX),
  slug: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'string' ? v.trim().toLowerCase() : v),
    z
      .string({ invalid_type_error: 'Page address must be text.' })
      .regex(SLUG_PATTERN, 'Page address: 3 to 40 lower-case letters, digits and hyphens.')
      .refine((v) => !RESERVED_SLUGS.includes(v), 'This page address is taken: choose another.')
      .optional()
      .describe('The page address /organisers/{slug}; made from the name when left out.'),
  ),
  about: optionalText('About', ORGANISER_ABOUT_MAX),
  contact: z
    .string({ required_error: 'Contact is required.', invalid_type_error: 'Contact must be text.' })
    .trim()
    .min(3, 'Contact is required: a phone number or an email the site admin can reach you at.')
    .max(120, 'Contact must be at most 120 characters.'),
  owner: optionalText('Owner', 60).describe(
    'Site admin only: the username or email of the account the organiser belongs to (approved at once).',
  ),
});
export type OrganiserBody = z.infer<typeof OrganiserBodySchema>;

/** A checkbox as a browser posts it ("on", or left out), or a JSON boolean. */
const flag = (label: string) =>
  z.preprocess(
    (v) => (typeof v === 'boolean' ? String(v) : v),
    z
      .string({ invalid_type_error: `${label} must be on or off.` })
      .trim()
      .toLowerCase()
      .optional()
      .refine((v) => v === undefined || ['', 'on', 'true', '1', 'off', 'false', '0'].includes(v), `${label} must be on or off.`)
      .transform((v) => v === 'on' || v === 'true' || v === '1'),
  );

/** PUT /organisers/{slug} (decision 068): the page's fields, and the logo removed; slug and owner stay as they are. */
export const OrganiserUpdateSchema = OrganiserBodySchema.extend({
  [REMOVE_LOGO_FIELD]: flag('Remove logo').describe('Removes the current logo (a new logo file in the same form wins).'),
});
export type OrganiserUpdate = z.infer<typeof OrganiserUpdateSchema>;

/** How the body is documented: JSON, or multipart/form-data with the same text fields and an optional logo file. */
export const OrganiserUpdateDocSchema = OrganiserUpdateSchema.extend({
  [LOGO_FIELD]: z
    .string()
    .optional()
    .describe(
      `multipart/form-data only: the logo, an image file (JPEG, PNG, WebP, GIF or AVIF), at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB, ` +
        `at least ${MIN_COVER_WIDTH}×${MIN_COVER_HEIGHT} pixels; stored as WebP ${LOGO_WIDTHS.join(' and ')} pixels wide. Left out: the logo stays.`,
    ),
});

export const OrganiserRefSchema = z.object({
  slug: z.string(),
  name: z.string(),
  logoUrl: z.string().nullable(),
});
export type OrganiserRef = z.infer<typeof OrganiserRefSchema>;

export const OrganiserSchema = OrganiserRefSchema.extend({
  id: z.number().int(),
  about: z.string(),
  whatsapp: z.string().nullable(),
  instagram: z.string().nullable(),
  youtube: z.string().nullable(),
  discord: z.string().nullable(),
  status: z.enum(ORGANISER_STATUSES),
  isSite: z.boolean(),
  /** Only to its owner and site admins. */
  contact: z.string().optional(),
  ownerUsername: z.string().nullable().optional(),
});
export type Organiser = z.infer<typeof OrganiserSchema>;

export const OrganiserPageSchema = OrganiserSchema.extend({
  tournaments: z.array(z.object({ id: z.number().int(), name: z.string(), game: z.string(), startDate: z.string(), phase: z.string() })),
});
export type OrganiserPage = z.infer<typeof OrganiserPageSchema>;

export const SlugParamsSchema = z.object({
  slug: z.string().regex(SLUG_PATTERN, 'Unknown organiser.'),
});
export const OrganiserListQuerySchema = z.object({
  status: z.enum(ORGANISER_STATUSES).optional().describe('Site admins only: organisers of this status (pending applications).'),
});
export const OrganiserDecisionSchema = z.object({
  decision: z.enum(['approve', 'withdraw'], {
    errorMap: () => ({ message: 'Decision must be approve or withdraw.' }),
  }),
});

export const StaffScopeSchema = z.object({
  stageId: IdSchema,
  groupId: IdSchema.nullable().optional().describe('One group of the stage; left out or null: every group of the stage.'),
});

export const StaffInviteSchema = z
  .object({
    who: z
      .string({ required_error: 'Username or email is required.', invalid_type_error: 'Username or email must be text.' })
      .trim()
      .min(1, 'Username or email is required.')
      .max(254, 'Username or email must be at most 254 characters.'),
    role: z.enum(STAFF_ROLES, { errorMap: () => ({ message: 'Role must be co-organiser, payments or lobby.' }) }),
    scopes: z.array(StaffScopeSchema).max(50, 'At most 50 stages or groups.').optional(),
  })
  .superRefine((v, ctx) => {
    if (v.role === 'lobby' && !(v.scopes && v.scopes.length > 0)) {
      ctx.addIssue({ code: 'custom', path: ['scopes'], message: 'Choose the stages or groups this lobby manager runs.' });
    }
    if (v.role !== 'lobby' && v.scopes && v.scopes.length > 0) {
      ctx.addIssue({ code: 'custom', path: ['scopes'], message: 'Only a lobby manager has stages or groups.' });
    }
  });
export type StaffInvite = z.infer<typeof StaffInviteSchema>;

export const StaffMemberSchema = z.object({
  userId: z.number().int(),
  username: z.string(),
  role: z.enum(STAFF_ROLES),
  status: z.enum(['invited', 'active']),
  scopes: z.array(
    z.object({ stageId: z.number().int(), stageName: z.string(), groupId: z.number().int().nullable(), groupName: z.string().nullable() }),
  ),
  invitedAt: z.string(),
  acceptedAt: z.string().nullable(),
});
export type StaffMember = z.infer<typeof StaffMemberSchema>;

export const StaffListSchema = z.object({
  owner: z.object({ organiser: OrganiserRefSchema, username: z.string().nullable() }),
  staff: z.array(StaffMemberSchema),
});
export type StaffList = z.infer<typeof StaffListSchema>;

export const StaffInvitationSchema = z.object({
  tournamentId: z.number().int(),
  tournamentName: z.string(),
  role: z.enum(STAFF_ROLES),
  /** Only in the answer to the owner's invite: the link the invitee opens (also sent to them as a notification). */
  token: z.string().optional(),
});

export const StaffUserParamsSchema = z.object({ id: IdSchema, userId: IdSchema });
export const InvitationParamsSchema = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{20,64}$/, 'This invitation link is not valid.') });

export const STANDING_KINDS = ['site-admin', 'owner', ...STAFF_ROLES] as const;
export type StandingKind = (typeof STANDING_KINDS)[number];

/** Decision 065: who holds each tournament right; the gateway enforces it, the web shows only what it allows. */
export const STANDING_RIGHTS: Record<'own' | 'run' | 'payments' | 'lobby', readonly StandingKind[]> = {
  own: ['site-admin', 'owner'],
  run: ['site-admin', 'owner', 'co-organiser'],
  payments: ['site-admin', 'owner', 'co-organiser', 'payments'],
  lobby: ['site-admin', 'owner', 'co-organiser', 'lobby'],
};
export const standingAllows = (kind: StandingKind | null | undefined, right: keyof typeof STANDING_RIGHTS) =>
  !!kind && STANDING_RIGHTS[right].includes(kind);
export const StandingSchema = z.object({
  kind: z.enum(STANDING_KINDS).nullable().describe('null: no part in this tournament.'),
  scopes: z.array(z.object({ stageId: z.number().int(), groupId: z.number().int().nullable() })),
});
export type StandingJson = z.infer<typeof StandingSchema>;

export const DeskSchema = z.object({
  organiser: OrganiserSchema.nullable(),
  siteAdmin: z.boolean(),
  tournaments: z.array(z.object({ id: z.number().int(), name: z.string(), kind: z.enum(STANDING_KINDS) })),
  invitations: z.array(StaffInvitationSchema),
});
export type Desk = z.infer<typeof DeskSchema>;

export const ActivitySchema = z.object({
  entries: z.array(z.object({ id: z.number().int(), at: z.string(), actor: z.string(), action: z.string(), detail: z.string() })),
});
export type Activity = z.infer<typeof ActivitySchema>;

export const AnnouncementBodySchema = z.object({
  body: z
    .string({ required_error: 'Message is required.', invalid_type_error: 'Message must be text.' })
    .trim()
    .min(1, 'Message is required.')
    .max(ANNOUNCEMENT_MAX, `Message must be at most ${ANNOUNCEMENT_MAX} characters.`),
  stageId: IdSchema.optional().describe('To one stage (every group of it); left out: the whole tournament.'),
  groupId: IdSchema.optional().describe('To one group.'),
});
export type AnnouncementBody = z.infer<typeof AnnouncementBodySchema>;

export const AnnouncementSchema = z.object({
  id: z.number().int(),
  body: z.string(),
  at: z.string(),
  author: z.string(),
  stageId: z.number().int().nullable(),
  groupId: z.number().int().nullable(),
  audience: z.string().describe('"Everyone", a stage name, or "Stage · Group".'),
});
export type Announcement = z.infer<typeof AnnouncementSchema>;
