// Migrations one file each (issue 28): the list in migrations/index.ts names every file once, in the
// order they run, under the keys databases in the field have recorded.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../gateway/src/db/migrations/index.js';

const FOLDER = path.resolve(import.meta.dirname, '../../gateway/src/db/migrations');

/** The keys as the single-function list had them (and as kysely_migration records them): never change one. */
const SHIPPED_KEYS = [
  '001-initial',
  '002-sessions',
  '003-login-protection',
  '004-cache-generation',
  '006-password-reset-requests',
  '007-image-jpeg',
  '008-name-skeletons',
  '009-payment-references',
  '010-stages',
  '011-outbox',
  '012-slot-life',
  '013-notifications',
  '014-character-ids',
  '015-result-history',
  '016-places-after-draw',
  '017-group-times-and-not-played',
  '018-tournament-payee',
];

describe('the migrations list', () => {
  const keys = MIGRATIONS.map((m) => m.key);

  it('lists every migration file once, under its file name', () => {
    const files = fs
      .readdirSync(FOLDER)
      .filter((f) => /^\d{3}-.+\.ts$/.test(f))
      .map((f) => f.replace(/\.ts$/, ''));
    expect([...keys].sort()).toEqual([...files].sort());
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('runs them in key order, the order Kysely applies them', () => {
    expect(keys).toEqual([...keys].sort());
  });

  it('keeps the keys databases have run, the new ones only after them', () => {
    expect(keys.slice(0, SHIPPED_KEYS.length)).toEqual(SHIPPED_KEYS);
  });
});
