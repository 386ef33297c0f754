/** Issue 29 (decision 065): the organisers' limits, for the gateway's schemas and the browser's forms alike. */

export const ORGANISER_NAME_MAX = 60;
export const ORGANISER_ABOUT_MAX = 600;
export const ANNOUNCEMENT_MAX = 280;
export const SLUG_MAX = 40;
/** Lower-case letters, digits and single hyphens, 3 to 40 characters, as in /organisers/{slug}. */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){2,39}$/;
/** Addresses the site's own pages take under /organisers/ (a page at one of them could not be reached). */
export const RESERVED_SLUGS: readonly string[] = ['apply', 'new', 'edit', 'admin'];
