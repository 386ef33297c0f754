import { EARLIEST_BIRTH_DATE, GENDERS } from '@custom-room/contract';
import type { ProfileFormRules } from '~/components/profile-form';

/** The profile forms check the contract's ProfileBodySchema, the gateway's own rules (decision 035); the gateway checks again. */

export const PROFILE_CREATE_FAILED = 'Failed to create profile. Please try again.';
export const PROFILE_UPDATE_FAILED = 'Failed to update profile.';

/** What the form shows of those rules: the gender choices and the date of birth bounds. */
export function profileFormRules(now = Date.now()): ProfileFormRules {
  return {
    genders: GENDERS.filter((g) => g !== ''),
    earliestBirthDate: EARLIEST_BIRTH_DATE,
    // As the gateway: today where it is latest on Earth (UTC+14).
    latestBirthDate: new Date(now + 14 * 3_600_000).toISOString().slice(0, 10),
  };
}
