import { expect, type Browser, type Locator, type Page } from '@playwright/test';

/** Small steps shared by the specs: what a user does, found by role, label and text. */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const LONG_MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** An ISO instant at 12:00 UTC `days` from today: 17:30 in India, so its calendar date is the same in UTC and IST. */
export function noonUtcIn(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  d.setUTCHours(12, 0, 0, 0);
  return d.toISOString();
}

/** "5 Mar 2026" of a noonUtcIn() instant (spec §9: day, short month, year). */
export function shortDate(iso: string): string {
  const d = new Date(iso);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** "05 March 2026" of a noonUtcIn() instant (spec §9: home screen). */
export function longDate(iso: string): string {
  const d = new Date(iso);
  return `${String(d.getUTCDate()).padStart(2, '0')} ${LONG_MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** The value (<dd>) a description list gives for a term (<dt>) inside scope. */
export function fact(scope: Locator | Page, term: string): Locator {
  return scope
    .locator('dt')
    .filter({ hasText: new RegExp(`^\\s*${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`) })
    .locator('xpath=following-sibling::dd[1]');
}

/** Logs in through /login (whatever page the browser is on goes there first unless already on it). */
export async function logIn(page: Page, emailOrPhone: string, password: string, options: { from?: string } = {}) {
  if (options.from !== undefined || !new URL(page.url(), 'http://x').pathname.startsWith('/login'))
    await page.goto(options.from ?? '/login');
  await page.getByLabel('Email or phone').fill(emailOrPhone);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** The signed-in state the nav shows: the avatar link names the user. */
export async function expectSignedIn(page: Page, username: string) {
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: `Your profile (${username})` })).toBeVisible();
}

export async function expectSignedOut(page: Page) {
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile and login' })).toBeVisible();
}

/** Rows of the points table as [rank, team, placement points, finishes, wins, total]. */
export async function tableRows(page: Page): Promise<string[][]> {
  const rows = page.getByRole('table').locator('tbody tr');
  const out: string[][] = [];
  for (const row of await rows.all()) {
    out.push((await row.locator('th, td').allInnerTexts()).map((s) => s.trim()));
  }
  return out;
}

/** A phone (360 px, India's zone) signed in as `who`, on `to`: each actor of a journey in its own browser context. */
export async function signedInPhone(
  browser: Browser,
  baseURL: string,
  javaScript: boolean,
  who: { email: string; password: string },
  to: string,
) {
  const context = await browser.newContext({
    baseURL,
    javaScriptEnabled: javaScript,
    viewport: { width: 360, height: 800 },
    locale: 'en-IN',
    timezoneId: 'Asia/Kolkata',
  });
  const page = await context.newPage();
  await logIn(page, who.email, who.password, { from: `/login?${new URLSearchParams({ redirectTo: to })}` });
  await expect(page).toHaveURL(to);
  return page;
}
