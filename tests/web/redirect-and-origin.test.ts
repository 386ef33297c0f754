import { describe, expect, it } from 'vitest';
import { safeRedirectPath } from '~/utils/redirect';
import { requireSameOrigin } from '~/utils/security.server';

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

function post(headers: Record<string, string>) {
  return new Request('http://localhost:3000/login', { method: 'POST', headers });
}

function statusOf(fn: () => void): number | null {
  try {
    fn();
    return null;
  } catch (err) {
    return (err as { init?: ResponseInit }).init?.status ?? -1;
  }
}

describe('requireSameOrigin', () => {
  it('accepts same-origin posts', () => {
    expect(statusOf(() => requireSameOrigin(post({ origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' })))).toBeNull();
    expect(statusOf(() => requireSameOrigin(post({ origin: 'http://localhost:3000' })))).toBeNull();
  });

  it('refuses a cross-site Sec-Fetch-Site with 403', () => {
    expect(statusOf(() => requireSameOrigin(post({ 'sec-fetch-site': 'cross-site' })))).toBe(403);
    expect(statusOf(() => requireSameOrigin(post({ 'sec-fetch-site': 'same-site', origin: 'http://localhost:3000' })))).toBe(403);
  });

  it('refuses a foreign or opaque Origin with 403', () => {
    expect(statusOf(() => requireSameOrigin(post({ origin: 'https://evil.example' })))).toBe(403);
    expect(statusOf(() => requireSameOrigin(post({ origin: 'null' })))).toBe(403);
  });
});
