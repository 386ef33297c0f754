import { describe, expect, it } from 'vitest';
import { safeRedirectPath } from '~/utils/redirect';
import { crossSiteReason } from '../../server/form-guard';

describe('safeRedirectPath', () => {
  it('keeps relative paths with their query', () => {
    expect(safeRedirectPath('/profile')).toBe('/profile');
    expect(safeRedirectPath('/tournaments/3?tab=points')).toBe('/tournaments/3?tab=points');
  });

  it.each([
    'https://evil.example/',
    'http://evil.example',
    '//evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    'javascript:alert(1)',
    'profile',
    '/../etc',
    '',
  ])('refuses %j', (to) => {
    expect(safeRedirectPath(to)).toBe('/');
    expect(safeRedirectPath(to, '/login')).toBe('/login');
  });

  it('treats a missing value as the fallback', () => {
    expect(safeRedirectPath(null)).toBe('/');
    expect(safeRedirectPath(undefined, '/x')).toBe('/x');
  });
});

/** The headers of a post to http://localhost:3000/login, as the web server receives them. */
function post(headers: Record<string, string>) {
  return { host: 'localhost:3000', ...headers };
}

// The web app's one cross-site check is the server's form guard (decision 036), which sees every POST
// before Remix: server/form-guard.ts. tests/web/server-form-guard.test.ts runs it over every action route.
describe('crossSiteReason (the form guard of the web server)', () => {
  it('accepts same-origin posts', () => {
    expect(crossSiteReason(post({ origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' }))).toBeNull();
    expect(crossSiteReason(post({ origin: 'http://localhost:3000' }))).toBeNull();
    expect(crossSiteReason(post({ 'sec-fetch-site': 'none' }))).toBeNull();
  });

  it('refuses a cross-site Sec-Fetch-Site', () => {
    expect(crossSiteReason(post({ 'sec-fetch-site': 'cross-site' }))).toBe('sec-fetch-site cross-site');
    expect(crossSiteReason(post({ 'sec-fetch-site': 'same-site', origin: 'http://localhost:3000' }))).toBe('sec-fetch-site same-site');
  });

  it('refuses a foreign, opaque or unreadable Origin', () => {
    expect(crossSiteReason(post({ origin: 'https://evil.example' }))).toBe('origin evil.example');
    expect(crossSiteReason(post({ origin: 'null' }))).toBe('origin null');
    expect(crossSiteReason(post({ origin: 'not a url' }))).toBe('origin unreadable');
    // Another port of the same host is another origin.
    expect(crossSiteReason(post({ origin: 'http://localhost:4000' }))).toBe('origin localhost:4000');
  });

  it("compares with X-Forwarded-Host when it is there (only a trusted proxy's survives, server/forwarded.ts)", () => {
    expect(crossSiteReason(post({ origin: 'https://cr.example', 'x-forwarded-host': 'cr.example' }))).toBeNull();
    expect(crossSiteReason(post({ origin: 'http://localhost:3000', 'x-forwarded-host': 'cr.example' }))).toBe('origin localhost:3000');
  });
});
