/**
 * Why /login was asked for, by the page the user comes back to (?redirectTo=): the notice above the
 * login form (spec §8). One row per protected page; the first pattern that matches the path wins.
 * Pure: safe in the browser bundle.
 */
const LOGIN_REASONS: readonly { path: RegExp; message: string }[] = [
  { path: /^\/tournament\/[^/]+\/matches\/?$/, message: 'Please log in to view matches.' },
  { path: /^\/team\/[^/]+\/?$/, message: 'You must be logged in to view team details.' },
  { path: /^\/tournaments\/[^/]+\/update-team\/?$/, message: 'You must be logged in to update the team.' },
];

/** The message for a redirectTo path (its query and hash are ignored), or null when the page needs none. */
export function loginReason(redirectTo: string | null | undefined): string | null {
  if (!redirectTo) return null;
  const path = redirectTo.split(/[?#]/, 1)[0]!;
  return LOGIN_REASONS.find((r) => r.path.test(path))?.message ?? null;
}

/** The tournament a redirectTo path registers a team for (/register/{id}, the Register button's target), or null. */
export function registeringFor(redirectTo: string | null | undefined): number | null {
  const match = /^\/register\/(\d{1,9})\/?(?=[?#]|$)/.exec(redirectTo ?? '');
  return match && Number(match[1]) > 0 ? Number(match[1]) : null;
}
