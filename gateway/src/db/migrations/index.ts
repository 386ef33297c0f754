import * as m001 from './001-initial.js';
import * as m002 from './002-sessions.js';
import * as m003 from './003-login-protection.js';
import * as m004 from './004-cache-generation.js';
import * as m006 from './006-password-reset-requests.js';
import * as m007 from './007-image-jpeg.js';
import * as m008 from './008-name-skeletons.js';
import * as m009 from './009-payment-references.js';
import * as m010 from './010-stages.js';
import * as m011 from './011-outbox.js';
import * as m012 from './012-slot-life.js';
import * as m013 from './013-notifications.js';
import * as m014 from './014-character-ids.js';
import * as m015 from './015-result-history.js';
import * as m016 from './016-places-after-draw.js';
import * as m017 from './017-group-times-and-not-played.js';
import * as m018 from './018-tournament-payee.js';
import * as m019 from './019-organisers-and-staff.js';
import * as m020 from './020-captain-reports.js';
import * as m021 from './021-screenshot-checks.js';
import * as m022 from './022-ign-lookup.js';
import * as m023 from './023-statements.js';
import * as m024 from './024-refunds.js';
import * as m025 from './025-prizes.js';
import * as m026 from './026-prize-payouts.js';
import type { MigrationFile } from './kit.js';

/**
 * Every migration, in the order they run: by key, as Kysely's Migrator sorts them (it refuses a
 * database that ran a later key before an earlier one). Databases in the field have run them by key,
 * so a key never changes and a shipped migration is never edited: add a new file, NNN-name.ts, with
 * the next number and list it last.
 * - There is no 005: issue 16's payment references were 005 on their branch and became
 *   009-payment-references when they landed after 006-008 (decision 029); no database ran a 005.
 * - 014-character-ids was written before 013-notifications (their branches crossed); both run in key
 *   order, 013 first, on every database.
 */
export const MIGRATIONS: readonly MigrationFile[] = [
  m001,
  m002,
  m003,
  m004,
  m006,
  m007,
  m008,
  m009,
  m010,
  m011,
  m012,
  m013,
  m014,
  m015,
  m016,
  m017,
  m018,
  m019,
  m020,
  m021,
  m022,
  m023,
  m024,
  m025,
  m026,
];
