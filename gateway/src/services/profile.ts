import { NO_PROFILE, PROFILE_EXISTS } from '@custom-room/contract';
import { isUniqueViolation } from '../db/index.js';
import { insertProfile, updateProfile, type Profile } from '../db/profiles.js';
import { isoAt } from '../lib/clock.js';
import { conflict, notFound } from '../lib/errors.js';
import type { ServiceDeps } from './deps.js';

/** The caller's own profile: one per account, made once and then replaced. */

/** Makes the user's profile now; 409 when the user has one already. */
export async function createProfile({ store, clock }: ServiceDeps, userId: number, profile: Profile) {
  try {
    return await insertProfile(store.db, userId, profile, isoAt(clock.now()));
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(PROFILE_EXISTS);
    throw err;
  }
}

/** Replaces the user's profile now; 404 when the user has none. */
export async function replaceProfile({ store, clock }: ServiceDeps, userId: number, profile: Profile) {
  const replaced = await updateProfile(store.db, userId, profile, isoAt(clock.now()));
  if (!replaced) throw notFound(NO_PROFILE);
  return replaced;
}
