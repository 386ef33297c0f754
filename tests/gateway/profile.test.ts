import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startGateway, type TestGateway } from './helpers.js';

const FULL = {
  fullName: 'Asha Verma',
  bio: 'IGL for Team Nova. Erangel main.',
  gender: 'Female',
  dateOfBirth: '2001-08-15',
  location: 'Pune, Maharashtra',
  profilePictureUrl: 'https://cdn.example.com/avatars/asha.png',
};

const EMPTY_OPTIONALS = { bio: '', gender: '', dateOfBirth: '', location: '', profilePictureUrl: '' };

/** A date n days from today (UTC), as YYYY-MM-DD. */
const dayFromToday = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

describe('profile', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(() => gw.stop());

  const get = (token?: string) => gw.api.get('/api/profile/get', token);
  const create = (body: unknown, token?: string) => gw.api.post('/api/profile/create', body, token);
  const update = (body: unknown, token?: string) => gw.api.put('/api/profile/update', body, token);

  it('answers 401 without a valid token, before looking at the body', async () => {
    for (const res of [await get(), await create(FULL), await update(FULL), await create({}), await get('not-a-token')]) {
      expect(res.status).toBe(401);
      expect(res.body.message).toBeTruthy();
    }
  });

  it('answers 404 "No Profile Found" before a profile is created', async () => {
    const user = await createUser(gw.api);
    const res = await get(user.token);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'No Profile Found' });
  });

  it('creates the profile once and returns it', async () => {
    const user = await createUser(gw.api);
    const created = await create(FULL, user.token);
    expect(created.status).toBe(201);
    expect(created.body).toEqual(FULL);
    expect((await get(user.token)).body).toEqual(FULL);

    const again = await create({ ...FULL, fullName: 'Someone Else' }, user.token);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'You already have a profile.' });
    expect((await get(user.token)).body).toEqual(FULL);
  });

  it('answers 409, never 500, when two creates race', async () => {
    const user = await createUser(gw.api);
    const results = await Promise.all([create(FULL, user.token), create(FULL, user.token), create(FULL, user.token)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });

  it('fills missing optional fields with "" and trims text', async () => {
    const user = await createUser(gw.api);
    const res = await create({ fullName: '  Ravi Kumar  ', location: null }, user.token);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ fullName: 'Ravi Kumar', ...EMPTY_OPTIONALS });
  });

  it('updates the whole profile; optional fields left out become ""', async () => {
    const user = await createUser(gw.api);
    expect((await create(FULL, user.token)).status).toBe(201);
    const changed = { ...FULL, fullName: 'Asha V.', gender: 'Other', location: 'Mumbai' };
    const res = await update(changed, user.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(changed);
    expect((await get(user.token)).body).toEqual(changed);

    const cleared = await update({ fullName: 'Asha V.' }, user.token);
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual({ fullName: 'Asha V.', ...EMPTY_OPTIONALS });
    expect((await get(user.token)).body).toEqual({ fullName: 'Asha V.', ...EMPTY_OPTIONALS });
  });

  it('answers 404 to an update before a profile exists, and creates nothing', async () => {
    const user = await createUser(gw.api);
    const res = await update(FULL, user.token);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'No Profile Found' });
    expect((await get(user.token)).status).toBe(404);
  });

  it.each([
    ['fullName', { fullName: undefined }, 'Full name is required.'],
    ['fullName', { fullName: '   ' }, 'Full name is required.'],
    ['fullName', { fullName: 'x'.repeat(101) }, 'Full name must be at most 100 characters.'],
    ['bio', { bio: 'x'.repeat(501) }, 'Bio must be at most 500 characters.'],
    ['gender', { gender: 'male' }, 'Gender must be Male, Female, Other or left empty.'],
    ['gender', { gender: 'Unknown' }, 'Gender must be Male, Female, Other or left empty.'],
    ['dateOfBirth', { dateOfBirth: '15-08-2001' }, 'Date of birth must be a real date in the form YYYY-MM-DD.'],
    ['dateOfBirth', { dateOfBirth: '2023-02-30' }, 'Date of birth must be a real date in the form YYYY-MM-DD.'],
    ['dateOfBirth', { dateOfBirth: '2001-08-15T00:00:00Z' }, 'Date of birth must be a real date in the form YYYY-MM-DD.'],
    ['dateOfBirth', { dateOfBirth: '1899-12-31' }, 'Date of birth must be in 1900 or later.'],
    ['dateOfBirth', { dateOfBirth: dayFromToday(2) }, 'Date of birth cannot be in the future.'],
    ['location', { location: 'x'.repeat(101) }, 'Location must be at most 100 characters.'],
    [
      'profilePictureUrl',
      { profilePictureUrl: 'javascript:alert(1)' },
      'Profile picture URL must be a web address starting with http:// or https://.',
    ],
    [
      'profilePictureUrl',
      { profilePictureUrl: 'data:image/png;base64,AAAA' },
      'Profile picture URL must be a web address starting with http:// or https://.',
    ],
    [
      'profilePictureUrl',
      { profilePictureUrl: 'ftp://files.example.com/a.png' },
      'Profile picture URL must be a web address starting with http:// or https://.',
    ],
    [
      'profilePictureUrl',
      { profilePictureUrl: 'not a url' },
      'Profile picture URL must be a web address starting with http:// or https://.',
    ],
    [
      'profilePictureUrl',
      { profilePictureUrl: `https://example.com/${'a'.repeat(481)}` },
      'Profile picture URL must be at most 500 characters.',
    ],
    ['bio', { bio: 42 }, 'Bio must be text.'],
  ])('rejects a bad %s on create and update (%j)', async (field, override, message) => {
    const user = await createUser(gw.api);
    const created = await create({ ...FULL, ...override }, user.token);
    expect(created.status).toBe(400);
    expect(created.body.errors).toEqual({ [field]: message });
    expect((await get(user.token)).status).toBe(404);

    expect((await create(FULL, user.token)).status).toBe(201);
    const updated = await update({ ...FULL, ...override }, user.token);
    expect(updated.status).toBe(400);
    expect(updated.body.errors).toEqual({ [field]: message });
    expect((await get(user.token)).body).toEqual(FULL);
  });

  it.each([
    { gender: 'Male' },
    { gender: 'Other' },
    { dateOfBirth: '1900-01-01' },
    { dateOfBirth: dayFromToday(0) },
    { dateOfBirth: '2000-02-29' },
    { profilePictureUrl: 'http://example.com/me.jpg' },
    { fullName: 'x'.repeat(100), bio: 'y'.repeat(500), location: 'z'.repeat(100) },
  ])('accepts the edge value %j', async (override) => {
    const user = await createUser(gw.api);
    const res = await create({ ...FULL, ...override }, user.token);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ ...FULL, ...override });
  });

  it("keeps each user's profile to that user", async () => {
    const asha = await createUser(gw.api);
    const ravi = await createUser(gw.api);
    expect((await create(FULL, asha.token)).status).toBe(201);

    // Ravi sees no profile and cannot change Asha's by updating.
    expect((await get(ravi.token)).status).toBe(404);
    expect((await update({ ...FULL, fullName: 'Hijacked' }, ravi.token)).status).toBe(404);
    expect((await get(asha.token)).body).toEqual(FULL);

    // Ravi's own profile is separate, and Asha's creating again does not touch it.
    const raviProfile = { fullName: 'Ravi Kumar', ...EMPTY_OPTIONALS, gender: 'Male' };
    expect((await create(raviProfile, ravi.token)).status).toBe(201);
    expect((await update({ ...FULL, bio: 'changed by Asha' }, asha.token)).status).toBe(200);
    expect((await get(ravi.token)).body).toEqual(raviProfile);
    expect((await get(asha.token)).body).toEqual({ ...FULL, bio: 'changed by Asha' });
  });

  it('documents the profile calls in the OpenAPI description', async () => {
    const paths = (await gw.api.get('/openapi.json')).body.paths;
    expect(paths['/api/profile/get'].get.security).toEqual([{ bearerAuth: [] }]);
    expect(paths['/api/profile/create'].post).toBeDefined();
    expect(paths['/api/profile/update'].put).toBeDefined();
  });
});
