import type { Trx } from './index.js';

export interface Profile {
  fullName: string;
  bio: string;
  gender: string;
  dateOfBirth: string;
  location: string;
  profilePictureUrl: string;
}

const COLUMNS = ['full_name', 'bio', 'gender', 'date_of_birth', 'location', 'profile_picture_url'] as const;

type Row = { full_name: string; bio: string; gender: string; date_of_birth: string; location: string; profile_picture_url: string };

const toProfile = (r: Row): Profile => ({
  fullName: r.full_name,
  bio: r.bio,
  gender: r.gender,
  dateOfBirth: r.date_of_birth,
  location: r.location,
  profilePictureUrl: r.profile_picture_url,
});

const toColumns = (p: Profile) => ({
  full_name: p.fullName,
  bio: p.bio,
  gender: p.gender,
  date_of_birth: p.dateOfBirth,
  location: p.location,
  profile_picture_url: p.profilePictureUrl,
});

export async function getProfile(db: Trx, userId: number): Promise<Profile | undefined> {
  const row = await db.selectFrom('profiles').select(COLUMNS).where('user_id', '=', userId).executeTakeFirst();
  return row && toProfile(row);
}

/** Inserts the profile made at `at`; throws the driver's unique-violation error when the user already has one. */
export async function insertProfile(db: Trx, userId: number, profile: Profile, at: string): Promise<Profile> {
  await db
    .insertInto('profiles')
    .values({ user_id: userId, ...toColumns(profile), created_at: at, updated_at: at })
    .execute();
  return profile;
}

/** Replaces the user's profile at `at`; undefined when the user has none. */
export async function updateProfile(db: Trx, userId: number, profile: Profile, at: string): Promise<Profile | undefined> {
  const result = await db
    .updateTable('profiles')
    .set({ ...toColumns(profile), updated_at: at })
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? profile : undefined;
}
