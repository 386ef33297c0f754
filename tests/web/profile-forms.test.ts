import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { captureLogs } from '../support/logs';
import { cookieOf, formPost, json, startGatewayStub, thrown, unwrap, useStubEnv, type GatewayStub } from './support/gateway-stub';

// Route modules are imported after the environment points at the stub gateway.
let stub: GatewayStub;
let create: typeof import('~/routes/profile.create');
let edit: typeof import('~/routes/profile.edit');
let session: typeof import('~/utils/session.server');
let forms: typeof import('~/utils/forms.server');

const args = (request: Request) => ({ request, params: {}, context: {} });

beforeAll(async () => {
  stub = await startGatewayStub();
  await useStubEnv(stub);
  create = await import('~/routes/profile.create');
  edit = await import('~/routes/profile.edit');
  session = await import('~/utils/session.server');
  forms = await import('~/utils/forms.server');
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.seen.length = 0;
});

const CREATE = 'http://localhost/profile/create';
const EDIT = 'http://localhost/profile/edit';

const filled = {
  fullName: '  Asha Rao ',
  bio: 'IGL for Team Soul.\nSniper on weekends.',
  gender: 'Female',
  dateOfBirth: '2001-03-05',
  location: ' Pune ',
  profilePictureUrl: 'https://cdn.example/asha.png',
};
const sent = { ...filled, fullName: 'Asha Rao', location: 'Pune' };

let token: string;
async function signedIn(url: string, fields?: Record<string, string>, headers: Record<string, string> = {}) {
  token = await stub.token({ username: 'player_one' });
  const res = await session.createUserSession(new Request('http://localhost/login'), token, 'player_one', '/');
  const cookie = cookieOf(res);
  return fields ? formPost(url, fields, { cookie, ...headers }) : new Request(url, { headers: { cookie } });
}

/** The flash message the redirect carries, as the next page reads it. */
async function flashOf(res: Response) {
  return (await session.readFlash(new Request('http://localhost/profile', { headers: { cookie: cookieOf(res) } }))).message;
}

const gatewayCalls = () => stub.seen.filter((r) => r.url.startsWith('/api/'));

describe('who may use the profile forms', () => {
  it.each([
    ['create', CREATE, '/login?redirectTo=%2Fprofile%2Fcreate'],
    ['edit', EDIT, '/login?redirectTo=%2Fprofile%2Fedit'],
  ])('sends anonymous visitors of %s to log in and back (loader and action)', async (name, url, location) => {
    const route = name === 'create' ? create : edit;
    for (const run of [() => route.loader(args(new Request(url))), () => route.action(args(formPost(url, filled)))]) {
      const res = (await thrown(run)) as Response;
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(location);
    }
    expect(gatewayCalls()).toHaveLength(0);
  });

  it('ends the session and goes to /login on a gateway 401', async () => {
    stub.answer((_req, res) => json(res, 401, { message: 'Unauthorized' }));
    for (const [route, url, back] of [
      [create, CREATE, '%2Fprofile%2Fcreate'],
      [edit, EDIT, '%2Fprofile%2Fedit'],
    ] as const) {
      for (const request of [await signedIn(url), await signedIn(url, filled)]) {
        const run = request.method === 'GET' ? () => route.loader(args(request)) : () => route.action(args(request));
        const res = (await thrown(run)) as Response;
        expect(res.status).toBe(302);
        expect(res.headers.get('location')).toBe(`/login?redirectTo=${back}`);
        expect(res.headers.get('set-cookie')).toMatch(/__session=;/);
      }
    }
  });
});

describe('/profile/create', () => {
  it('shows the form when there is no profile yet, with the gateway’s genders', async () => {
    stub.answer((_req, res) => json(res, 404, { message: 'No Profile Found' }));
    const result = await create.loader(args(await signedIn(CREATE)));
    expect(result.rules.genders).toEqual(['Male', 'Female', 'Other']);
    expect(result.rules.earliestBirthDate).toBe('1900-01-01');
    expect(gatewayCalls().at(-1)).toMatchObject({ method: 'GET', url: '/api/profile/get' });
  });

  it('goes to /profile/edit when the player already has a profile', async () => {
    stub.answer((_req, res) => json(res, 200, sent));
    const res = (await thrown(async () => create.loader(args(await signedIn(CREATE))))) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/profile/edit');
  });

  it('shows the 503 page when the gateway cannot be reached', async () => {
    stub.answer((_req, res) => res.socket?.destroy());
    const logs = captureLogs();
    const request = await signedIn(CREATE);
    expect(unwrap(await thrown(() => create.loader(args(request)))).status).toBe(503);
    expect(logs).toContainEqual(expect.objectContaining({ level: 'error', msg: 'gateway unreachable' }));
  });

  it('sends the six profile fields, trimmed, with the bearer token, then redirects to /profile with a flash', async () => {
    stub.answer((_req, res) => json(res, 201, sent));
    const res = (await create.action(args(await signedIn(CREATE, { ...filled, extra: 'dropped' })))) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/profile');
    expect(await flashOf(res)).toBe('Profile created.');
    expect(gatewayCalls()).toHaveLength(1);
    expect(gatewayCalls()[0]).toMatchObject({ method: 'POST', url: '/api/profile/create', body: sent });
    expect(Object.keys(gatewayCalls()[0]!.body as object).sort()).toEqual([
      'bio',
      'dateOfBirth',
      'fullName',
      'gender',
      'location',
      'profilePictureUrl',
    ]);
    expect(gatewayCalls()[0]!.headers.authorization).toBe(`Bearer ${token}`);
  });

  it('sends only the full name when nothing else is given (the rest as "")', async () => {
    stub.answer((_req, res) => json(res, 201, { ...sent }));
    await create.action(args(await signedIn(CREATE, { fullName: 'Asha' })));
    expect(gatewayCalls()[0]!.body).toEqual({
      fullName: 'Asha',
      bio: '',
      gender: '',
      dateOfBirth: '',
      location: '',
      profilePictureUrl: '',
    });
  });

  it('refuses an empty name and a javascript: picture URL with 400, messages by the fields and every input kept', async () => {
    const input = { ...filled, fullName: '   ', profilePictureUrl: 'javascript:alert(1)' };
    const { status, body } = unwrap(await create.action(args(await signedIn(CREATE, input))));
    expect(status).toBe(400);
    expect(body.fieldErrors).toEqual({
      fullName: 'Full name is required.',
      profilePictureUrl: 'Profile picture URL must be a web address starting with http:// or https://.',
    });
    expect(body.values).toEqual(input);
    expect(gatewayCalls()).toHaveLength(0);
  });

  it.each([
    ['gender', 'Robot', 'Gender must be Male, Female, Other or left empty.'],
    ['dateOfBirth', '2001-02-30', 'Date of birth must be a real date in the form YYYY-MM-DD.'],
    ['dateOfBirth', '1899-12-31', 'Date of birth must be in 1900 or later.'],
    ['dateOfBirth', `${new Date().getUTCFullYear() + 1}-01-01`, 'Date of birth cannot be in the future.'],
    ['bio', 'x'.repeat(501), 'Bio must be at most 500 characters.'],
    ['profilePictureUrl', 'ftp://files.example/me.png', 'Profile picture URL must be a web address starting with http:// or https://.'],
  ])('checks %s with the gateway’s rule (%j)', async (field, value, message) => {
    const { status, body } = unwrap(await create.action(args(await signedIn(CREATE, { ...filled, [field]: value }))));
    expect(status).toBe(400);
    expect(body.fieldErrors).toEqual({ [field]: message });
    expect(body.values[field]).toBe(value);
  });

  it('places the gateway’s field errors beside their fields and keeps the input', async () => {
    stub.answer((_req, res) =>
      json(res, 400, { message: 'Invalid input.', errors: { location: 'Location must be at most 100 characters.' } }),
    );
    const { status, body } = unwrap(await create.action(args(await signedIn(CREATE, filled))));
    expect(status).toBe(400);
    expect(body).toEqual({ values: filled, fieldErrors: { location: 'Location must be at most 100 characters.' }, formError: null });
  });

  it('says "Failed to create profile. Please try again." when the gateway refuses without a message', async () => {
    stub.answer((_req, res) => {
      res.statusCode = 403;
      res.end();
    });
    const { status, body } = unwrap(await create.action(args(await signedIn(CREATE, filled))));
    expect(status).toBe(403);
    expect(body).toEqual({ values: filled, fieldErrors: {}, formError: 'Failed to create profile. Please try again.' });
  });

  it('goes to /profile/edit with a message when a profile exists already (409)', async () => {
    stub.answer((_req, res) => json(res, 409, { message: 'You already have a profile.' }));
    const res = (await thrown(async () => create.action(args(await signedIn(CREATE, filled))))) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/profile/edit');
    expect(await flashOf(res)).toBe('You already have a profile. Make your changes here.');
  });

  it('keeps the form and says the server could not be reached when the gateway is down', async () => {
    stub.answer((_req, res) => res.socket?.destroy());
    const logs = captureLogs();
    const { status, body } = unwrap(await create.action(args(await signedIn(CREATE, filled))));
    expect(status).toBe(503);
    expect(body).toEqual({ values: filled, fieldErrors: {}, formError: forms.UNAVAILABLE_FORM_MESSAGE });
    expect(logs).toContainEqual(expect.objectContaining({ level: 'error', msg: 'gateway unreachable' }));
  });
});

describe('/profile/edit', () => {
  it('prefills the form from the gateway', async () => {
    stub.answer((_req, res) => json(res, 200, sent));
    const result = await edit.loader(args(await signedIn(EDIT)));
    expect(result?.profile).toEqual(sent);
    expect(result?.rules.genders).toEqual(['Male', 'Female', 'Other']);
  });

  it('sends a player without a profile to /profile/create', async () => {
    stub.answer((_req, res) => json(res, 404, { message: 'No Profile Found' }));
    const res = (await thrown(async () => edit.loader(args(await signedIn(EDIT))))) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/profile/create');
  });

  it('shows the error page for other loader failures', async () => {
    stub.answer((_req, res) => json(res, 403, { message: 'Forbidden' }));
    expect(unwrap(await thrown(async () => edit.loader(args(await signedIn(EDIT))))).status).toBe(403);
    stub.answer((_req, res) => json(res, 500, { message: 'boom' }));
    const logs = captureLogs();
    expect(unwrap(await thrown(async () => edit.loader(args(await signedIn(EDIT))))).status).toBe(503);
    expect(logs).toContainEqual(expect.objectContaining({ level: 'error', msg: 'gateway error', status: 500 }));
  });

  it('PUTs the six fields and redirects to /profile with "Profile updated."', async () => {
    stub.answer((_req, res) => json(res, 200, sent));
    const res = (await edit.action(args(await signedIn(EDIT, filled)))) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/profile');
    expect(await flashOf(res)).toBe('Profile updated.');
    expect(gatewayCalls()).toEqual([expect.objectContaining({ method: 'PUT', url: '/api/profile/update', body: sent })]);
  });

  it('refuses an empty full name with 400 and keeps every input', async () => {
    const input = { ...filled, fullName: '' };
    const { status, body } = unwrap(await edit.action(args(await signedIn(EDIT, input))));
    expect(status).toBe(400);
    expect(body).toEqual({ values: input, fieldErrors: { fullName: 'Full name is required.' }, formError: null });
    expect(gatewayCalls()).toHaveLength(0);
  });

  it('places gateway field errors, or says "Failed to update profile."', async () => {
    stub.answer((_req, res) =>
      json(res, 400, { message: 'Invalid input.', errors: { profilePictureUrl: 'Profile picture URL must be at most 500 characters.' } }),
    );
    let { status, body } = unwrap(await edit.action(args(await signedIn(EDIT, filled))));
    expect(status).toBe(400);
    expect(body.fieldErrors).toEqual({ profilePictureUrl: 'Profile picture URL must be at most 500 characters.' });
    expect(body.values).toEqual(filled);

    stub.answer((_req, res) => {
      res.statusCode = 422;
      res.end();
    });
    ({ status, body } = unwrap(await edit.action(args(await signedIn(EDIT, filled)))));
    expect(status).toBe(422);
    expect(body.formError).toBe('Failed to update profile.');
  });

  it('goes to /profile/create when the profile is gone (404)', async () => {
    stub.answer((_req, res) => json(res, 404, { message: 'No Profile Found' }));
    const res = (await thrown(async () => edit.action(args(await signedIn(EDIT, filled))))) as Response;
    expect(res.headers.get('location')).toBe('/profile/create');
    expect(await flashOf(res)).toBe('You have no profile yet. Create one here.');
  });
});
