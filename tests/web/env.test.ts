import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { getEnv, resetEnvForTests, socialLinks } from '~/utils/env.server';

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  resetEnvForTests();
});

/** A fresh environment; DATA_DIR is a new temp dir unless given, so no secret lands in the repo. */
function withEnv(vars: Record<string, string | undefined>) {
  process.env = { ...saved, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'env-')), ...vars };
  resetEnvForTests();
}

describe('web configuration', () => {
  it('names the bad variable in one line', () => {
    withEnv({ APP_TIME_ZONE: 'Mars/Olympus' });
    expect(() => getEnv()).toThrow(/^APP_TIME_ZONE: must be an IANA time zone/);
    withEnv({ GATEWAY_URL: 'not a url' });
    expect(() => getEnv()).toThrow(/^GATEWAY_URL: /);
    withEnv({ SESSION_SECRET: 'short' });
    expect(() => getEnv()).toThrow(/^SESSION_SECRET: each secret must be at least 16 characters/);
  });

  it('generates a session secret into DATA_DIR once and reuses it; SESSION_SECRET lists several for rotation', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'env-'));
    withEnv({ DATA_DIR: dir, SESSION_SECRET: undefined });
    const first = getEnv().sessionSecrets;
    expect(first).toHaveLength(1);
    expect(first[0]!.length).toBeGreaterThanOrEqual(32);
    resetEnvForTests();
    expect(getEnv().sessionSecrets).toEqual(first);
    withEnv({ SESSION_SECRET: 'new-secret-0123456789, old-secret-0123456789' });
    expect(getEnv().sessionSecrets).toEqual(['new-secret-0123456789', 'old-secret-0123456789']);
  });

  it('shows only the configured social links, in a fixed order', () => {
    withEnv({ SOCIAL_YOUTUBE_URL: 'https://youtube.com/@customroom', SOCIAL_INSTAGRAM_URL: 'https://instagram.com/customroom' });
    expect(socialLinks(getEnv())).toEqual([
      { label: 'Instagram', href: 'https://instagram.com/customroom' },
      { label: 'YouTube', href: 'https://youtube.com/@customroom' },
    ]);
    withEnv({ SOCIAL_X_URL: 'javascript:alert(1)' });
    expect(() => getEnv()).toThrow(/^SOCIAL_X_URL: /);
  });
});
