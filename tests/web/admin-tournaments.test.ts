import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tournamentJson } from '../support';
import {
  besidesDesk,
  cookieOf,
  EMPTY_DESK,
  formPost,
  json,
  startGatewayStub,
  thrown,
  unwrap,
  useStubEnv,
  type GatewayStub,
  type SeenRequest,
} from './support/gateway-stub';

/** The admin tournament screens (issue 8, first half): access, the add/update form's upload, delete, the manage list. */

let stub: GatewayStub;
let session: typeof import('~/utils/session.server');
let login: typeof import('~/routes/login');
let layout: typeof import('~/routes/admin');
let index: typeof import('~/routes/admin._index');
let add: typeof import('~/routes/admin.add-tournament');
let update: typeof import('~/routes/admin.update-tournament.$id');
let manage: typeof import('~/routes/admin.manage-tournaments');
let manageChild: typeof import('~/routes/admin.manage-tournament');
let del: typeof import('~/routes/admin.delete-tournament.$id');

const BASE = 'http://localhost';
const args = (request: Request, params: Record<string, string> = {}) => ({ request, params, context: {} });

/** A real 1×1-pixel PNG's first bytes are enough for the web app's check; the gateway (stubbed here) decodes it. */
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]);

const FORM = {
  name: 'Monsoon Cup',
  game: 'BGMI',
  description: 'Squad tournament',
  overview: 'Erangel and Miramar, 3 days.',
  registrationOpen: '2026-01-01T10:00',
  registrationClose: '2030-03-04T21:30',
  startDate: '2030-03-05T18:30',
  endDate: '2030-03-07T23:00',
  maxTeams: '16',
  entryFee: '150',
  prizePool: '₹25,000',
  format: 'Squad',
  platform: 'Mobile',
  status: 'Registration Ongoing',
  pointsSystem: 'bmps-15',
};

// The gateway's answer (tests/support builder): Monsoon Cup, id 42, with a cover.
const TOURNAMENT = tournamentJson({
  coverImageUrl: '/images/0123456789abcdef0123456789abcdef.webp',
  coverImageWidth: 1200,
  coverImageHeight: 675,
});

beforeAll(async () => {
  stub = await startGatewayStub();
  process.env.APP_TIME_ZONE = 'Asia/Kolkata';
  await useStubEnv(stub);
  session = await import('~/utils/session.server');
  login = await import('~/routes/login');
  layout = await import('~/routes/admin');
  index = await import('~/routes/admin._index');
  add = await import('~/routes/admin.add-tournament');
  update = await import('~/routes/admin.update-tournament.$id');
  manage = await import('~/routes/admin.manage-tournaments');
  manageChild = await import('~/routes/admin.manage-tournament');
  del = await import('~/routes/admin.delete-tournament.$id');
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.seen.length = 0;
  stub.answer((_req, res) => json(res, 500, { message: 'unexpected call' }));
});

async function cookieFor(roles: string[], username = roles.includes('ROLE_ADMIN') ? 'organiser' : 'player_one') {
  const token = await stub.token({ username, roles });
  const res = await session.createUserSession(new Request(`${BASE}/login`), token, username, '/');
  return { token, cookie: cookieOf(res) };
}

function get(path: string, cookie?: string) {
  return new Request(`${BASE}${path}`, { headers: cookie ? { cookie } : {} });
}

interface Upload {
  name?: string;
  filename: string;
  type: string;
  bytes: Uint8Array;
}

/** A multipart form post as a browser sends the tournament form (files after the text fields). */
function multipartPost(path: string, fields: Record<string, string>, files: Upload[], cookie?: string) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const f of files) form.append(f.name ?? 'coverImage', new File([new Uint8Array(f.bytes)], f.filename, { type: f.type }));
  return new Request(`${BASE}${path}`, {
    method: 'POST',
    body: form,
    headers: { origin: BASE, 'sec-fetch-site': 'same-origin', ...(cookie ? { cookie } : {}) },
  });
}

/** The multipart body the stub received, parsed (file bytes are not compared: the stub decodes the body as text). */
async function receivedForm(seen: SeenRequest): Promise<FormData> {
  return new Response(seen.body as string, { headers: { 'content-type': String(seen.headers['content-type']) } }).formData();
}

async function flashOf(res: Response): Promise<string | null> {
  return (await session.readFlash(get('/', cookieOf(res)))).message;
}

const ADMIN_LOADERS = (): [string, (a: ReturnType<typeof args>) => unknown, Record<string, string>][] => [
  ['/admin', layout.loader, {}],
  ['/admin', index.loader, {}],
  ['/admin/add-tournament', add.loader, {}],
  ['/admin/update-tournament/42', update.loader, { id: '42' }],
  ['/admin/manage-tournaments', manage.loader, {}],
  ['/admin/manage-tournament', manageChild.loader, {}],
  ['/admin/delete-tournament/42', del.loader, { id: '42' }],
];
const ADMIN_ACTIONS = (): [string, (a: ReturnType<typeof args>) => unknown, Record<string, string>][] => [
  ['/admin/add-tournament', add.action, {}],
  ['/admin/update-tournament/42', update.action, { id: '42' }],
  ['/admin/delete-tournament/42', del.action, { id: '42' }],
];

describe('admin access', () => {
  it('sends anonymous visitors from every admin loader and action to /login?redirectTo=<that page>', async () => {
    for (const [path, loader, params] of ADMIN_LOADERS()) {
      const res = (await thrown(() => loader(args(get(path), params)))) as Response;
      expect(res.status, path).toBe(302);
      expect(res.headers.get('location'), path).toBe(`/login?${new URLSearchParams({ redirectTo: path })}`);
    }
    for (const [path, action, params] of ADMIN_ACTIONS()) {
      const res = (await thrown(() =>
        action(args(formPost(`${BASE}${path}`, { returnTo: '/admin/manage-tournaments' }), params)),
      )) as Response;
      expect(res.status, path).toBe(302);
      expect(res.headers.get('location'), path).toBe(`/login?${new URLSearchParams({ redirectTo: path })}`);
    }
    expect(stub.seen).toEqual([]);
  });

  it('sends a signed-in player to the same login without ending the session, and calls no gateway admin route', async () => {
    const { cookie } = await cookieFor(['ROLE_USER']);
    stub.answer((_req, res) => json(res, 200, EMPTY_DESK)); // a player is only asked whether it has a desk
    for (const [path, loader, params] of ADMIN_LOADERS()) {
      const res = (await thrown(() => loader(args(get(`${path}?x=1`, cookie), params)))) as Response;
      expect(res.status, path).toBe(302);
      expect(res.headers.get('location'), path).toBe(`/login?${new URLSearchParams({ redirectTo: `${path}?x=1` })}`);
      expect(res.headers.get('set-cookie'), `${path} must keep the player's session`).toBeNull();
    }
    for (const [path, action, params] of ADMIN_ACTIONS()) {
      const res = (await thrown(() => action(args(formPost(`${BASE}${path}`, {}, { cookie }), params)))) as Response;
      expect(res.headers.get('location'), path).toBe(`/login?${new URLSearchParams({ redirectTo: path })}`);
      expect(res.headers.get('set-cookie'), path).toBeNull();
    }
    expect(besidesDesk(stub.seen)).toEqual([]);
    // The session still works.
    expect((await session.getUser(get('/', cookie)))?.username).toBe('player_one');
  });

  it('login: a player headed for an admin page sees the organiser notice instead of a redirect back (no loop)', async () => {
    // The gateway accepts each session's token: the login page asks it before sending anyone on (decision 031).
    stub.answer((req, res) => {
      const claims = decodeJwt(String(req.headers.authorization).slice('Bearer '.length));
      json(res, 200, {
        id: Number(claims.sub),
        username: claims.username,
        email: 'p@example.com',
        phone: '9876543210',
        roles: claims.roles,
      });
    });
    const { cookie } = await cookieFor(['ROLE_USER']);
    const page = await login.loader(args(get('/login?redirectTo=%2Fadmin%2Fadd-tournament', cookie)));
    expect(page).toEqual({ redirectTo: '/admin/add-tournament', organiser: { signedInAs: 'player_one' } });

    const anonymous = await login.loader(args(get('/login?redirectTo=%2Fadmin')));
    expect(anonymous).toEqual({ redirectTo: '/admin', organiser: { signedInAs: null } });

    // Elsewhere a signed-in player still goes straight on, and an admin goes on to the admin page.
    const elsewhere = (await thrown(() => login.loader(args(get('/login?redirectTo=%2Fmy-tournaments', cookie))))) as Response;
    expect(elsewhere.headers.get('location')).toBe('/my-tournaments');
    const admin = await cookieFor(['ROLE_USER', 'ROLE_ADMIN']);
    const on = (await thrown(() => login.loader(args(get('/login?redirectTo=%2Fadmin%2Fadd-tournament', admin.cookie))))) as Response;
    expect(on.headers.get('location')).toBe('/admin/add-tournament');
    // "/administrator" is not an admin page.
    expect(session.isAdminPath('/administrator')).toBe(false);
    expect(session.isAdminPath('/admin?x=1')).toBe(true);
  });
});

describe('add tournament', () => {
  it('gives the form its rules: statuses, points systems with their placement points, limits', async () => {
    const { cookie } = await cookieFor(['ROLE_ADMIN']);
    const { rules } = await add.loader(args(get('/admin/add-tournament', cookie)));
    expect(rules.statuses).toEqual(['Upcoming', 'Registration Ongoing', 'Registration Closed', 'Ongoing', 'Completed', 'Cancelled']);
    expect(rules.pointsSystems).toContainEqual({ id: 'bgis-10', points: [10, 6, 5, 4, 3, 2, 1, 1] });
    expect(rules.pointsSystems.map((s) => s.id)).toEqual(['bgis-10', 'bmps-15', 'freefire-12']);
    expect(rules.timeZone).toBe('Asia/Kolkata');
    expect(rules.maxLength).toMatchObject({ name: 100, game: 50, description: 5000 });
  });

  it('sends the spec field names and the cover as multipart, dates from India time to UTC, then flashes success', async () => {
    stub.answer((_req, res) => json(res, 200, TOURNAMENT));
    const { cookie, token } = await cookieFor(['ROLE_ADMIN']);
    const res = (await add.action(
      args(multipartPost('/admin/add-tournament', FORM, [{ filename: 'cover.png', type: 'image/png', bytes: PNG }], cookie)),
    )) as Response;

    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/admin/42');
    expect(await flashOf(res)).toBe('Tournament added successfully!');

    expect(stub.seen).toHaveLength(1);
    const call = stub.seen[0]!;
    expect(call).toMatchObject({ method: 'POST', url: '/tournaments/add' });
    expect(call.headers.authorization).toBe(`Bearer ${token}`);
    expect(call.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const sent = await receivedForm(call);
    const text = Object.fromEntries([...sent].filter(([, v]) => typeof v === 'string'));
    expect(text).toEqual({
      ...FORM,
      registrationOpen: '2026-01-01T04:30:00.000Z',
      registrationClose: '2030-03-04T16:00:00.000Z',
      startDate: '2030-03-05T13:00:00.000Z',
      endDate: '2030-03-07T17:30:00.000Z',
    });
    const cover = sent.get('coverImage') as File;
    expect(cover).toBeInstanceOf(File);
    expect(cover.name).toBe('cover.png');
  });

  it('sends no coverImage part when no file was chosen (the browser sends an empty nameless part)', async () => {
    stub.answer((_req, res) => json(res, 200, TOURNAMENT));
    const { cookie } = await cookieFor(['ROLE_ADMIN']);
    const res = (await add.action(
      args(
        multipartPost('/admin/add-tournament', FORM, [{ filename: '', type: 'application/octet-stream', bytes: new Uint8Array() }], cookie),
      ),
    )) as Response;
    expect(res.status).toBe(302);
    const sent = await receivedForm(stub.seen[0]!);
    expect(sent.has('coverImage')).toBe(false);
  });

  it('answers 400 with every value kept and a message by each field, without calling the gateway', async () => {
    const { cookie } = await cookieFor(['ROLE_ADMIN']);
    const input = { ...FORM, name: '  ', maxTeams: 'many', entryFee: '', startDate: '', endDate: '2030-03-05T10:00', status: 'Maybe' };
    const { status, body } = unwrap(await add.action(args(multipartPost('/admin/add-tournament', input, [], cookie))));
    expect(status).toBe(400);
    expect(body.values).toEqual(input);
    expect(body.fieldErrors).toEqual({
      name: 'Name is required.',
      maxTeams: 'Max teams must be a whole number.',
      entryFee: 'Entry fee is required.',
      startDate: 'Start is required: enter a date and time.',
      status: expect.stringMatching(/^Status must be one of: Upcoming, Registration Ongoing/),
    });
    const unchosen = unwrap(await add.action(args(multipartPost('/admin/add-tournament', { ...FORM, status: '' }, [], cookie))));
    expect(unchosen.body.fieldErrors).toEqual({ status: 'Choose a status.' });
    expect(stub.seen).toEqual([]);
  });

  it('checks date order with the gateway’s rules, on the UTC instants', async () => {
    const { cookie } = await cookieFor(['ROLE_ADMIN']);
    const input = { ...FORM, endDate: '2030-03-05T18:30' };
    const { status, body } = unwrap(await add.action(args(multipartPost('/admin/add-tournament', input, [], cookie))));
    expect(status).toBe(400);
    expect(body.fieldErrors).toEqual({ endDate: 'The end must be after the start.' });
  });

  it('refuses a cover that is not an image by its bytes, whatever type the browser declared, keeping the values', async () => {
    const { cookie } = await cookieFor(['ROLE_ADMIN']);
    const notes = { filename: 'notes.png', type: 'image/png', bytes: Buffer.from('These are my notes, not a picture at all. '.repeat(4)) };
    const { status, body } = unwrap(await add.action(args(multipartPost('/admin/add-tournament', FORM, [notes], cookie))));
    expect(status).toBe(415);
    expect(body.fieldErrors).toEqual({ coverImage: 'Please upload only image files.' });
    expect(body.values).toEqual({ ...FORM, coverImageName: 'notes.png' });
    expect(stub.seen).toEqual([]);

    const tiny = { filename: 'x.txt', type: 'text/plain', bytes: Buffer.from('hi') };
    expect(unwrap(await add.action(args(multipartPost('/admin/add-tournament', FORM, [tiny], cookie)))).body.fieldErrors).toEqual({
      coverImage: 'Please upload only image files.',
    });
  });

  it('refuses a cover over 5 MB and a second file, each with its own message', async () => {
    const { cookie } = await cookieFor(['ROLE_ADMIN']);
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const large = unwrap(
      await add.action(
        args(multipartPost('/admin/add-tournament', FORM, [{ filename: 'big.png', type: 'image/png', bytes: big }], cookie)),
      ),
    );
    expect(large.status).toBe(413);
    expect(large.body.fieldErrors).toEqual({ coverImage: 'The cover image is larger than 5 MB.' });
    expect(large.body.values.name).toBe('Monsoon Cup');

    const two = [
      { filename: 'a.png', type: 'image/png', bytes: PNG },
      { filename: 'b.png', type: 'image/png', bytes: PNG },
    ];
    const many = unwrap(await add.action(args(multipartPost('/admin/add-tournament', FORM, two, cookie))));
    expect(many.status).toBe(400);
    expect(many.body.fieldErrors).toEqual({ coverImage: 'Please upload only one cover image.' });
    expect(stub.seen).toEqual([]);
  });

  it('puts the gateway’s own refusals (an image too small, a field) by their fields, with the values kept', async () => {
    stub.answer((_req, res) =>
      json(res, 400, {
        message: 'Please check the highlighted fields.',
        errors: { coverImage: 'The cover image is too small: at least 200×100 pixels.' },
      }),
    );
    const { cookie } = await cookieFor(['ROLE_ADMIN']);
    const { status, body } = unwrap(
      await add.action(
        args(multipartPost('/admin/add-tournament', FORM, [{ filename: 'small.png', type: 'image/png', bytes: PNG }], cookie)),
      ),
    );
    expect(status).toBe(400);
    expect(body.fieldErrors).toEqual({ coverImage: 'The cover image is too small: at least 200×100 pixels.' });
    expect(body.values).toEqual({ ...FORM, coverImageName: 'small.png' });

    stub.answer((_req, res) => {
      res.statusCode = 403;
      res.end();
    });
    const refused = unwrap(await add.action(args(multipartPost('/admin/add-tournament', FORM, [], cookie))));
    expect(refused.status).toBe(403);
    expect(refused.body.formError).toBe('Error adding tournament');
  });
});

describe('update tournament', () => {
  it('prefills the form with the tournament, its dates as India-time datetime-local values', async () => {
    stub.answer((_req, res) => json(res, 200, TOURNAMENT));
    const { cookie } = await cookieFor(['ROLE_ADMIN']);
    const page = await update.loader(args(get('/admin/update-tournament/42', cookie), { id: '42' }));
    expect(stub.seen.at(-1)).toMatchObject({ method: 'GET', url: '/tournaments/42' });
    // Decision 046: the checkbox comes unticked ('') for a tournament that does not require character IDs.
    expect(page.values).toEqual({
      ...FORM,
      requireCharacterIds: '',
      paymentDeadlineHours: '',
      paymentDeadlineAt: '',
      payeeUpiId: '',
      payeeName: '',
    });
    expect(page.cover).toEqual({ url: TOURNAMENT.coverImageUrl, width: 1200, height: 675 });
  });

  it('answers 404 for a tournament the gateway does not know', async () => {
    stub.answer((_req, res) => json(res, 404, { message: 'Tournament not found.' }));
    const { cookie } = await cookieFor(['ROLE_ADMIN']);
    expect(unwrap(await thrown(() => update.loader(args(get('/admin/update-tournament/9', cookie), { id: '9' })))).status).toBe(404);
    expect(unwrap(await thrown(() => update.loader(args(get('/admin/update-tournament/x', cookie), { id: 'x' })))).status).toBe(404);
  });

  it('PUTs the fields (no cover part: the current cover stays) and flashes success', async () => {
    stub.answer((_req, res) => json(res, 200, { ...TOURNAMENT, name: 'Monsoon Cup II' }));
    const { cookie } = await cookieFor(['ROLE_ADMIN']);
    const res = (await update.action(
      args(multipartPost('/admin/update-tournament/42', { ...FORM, name: 'Monsoon Cup II', entryFee: '200' }, [], cookie), { id: '42' }),
    )) as Response;
    expect(res.headers.get('location')).toBe('/admin/manage-tournaments');
    expect(await flashOf(res)).toBe('Tournament updated successfully!');
    const call = stub.seen.at(-1)!;
    expect(call).toMatchObject({ method: 'PUT', url: '/tournaments/admin/update/42' });
    const sent = await receivedForm(call);
    expect(sent.get('name')).toBe('Monsoon Cup II');
    expect(sent.get('entryFee')).toBe('200');
    expect(sent.get('startDate')).toBe('2030-03-05T13:00:00.000Z');
    expect(sent.has('coverImage')).toBe(false);
  });

  it('shows "Failed to update tournament." or the gateway’s field message when it refuses', async () => {
    stub.answer((_req, res) =>
      json(res, 409, {
        message: '5 teams are already registered',
        errors: { maxTeams: '5 teams are already registered: Max teams cannot be lower than that.' },
      }),
    );
    const { cookie } = await cookieFor(['ROLE_ADMIN']);
    const conflict = unwrap(
      await update.action(args(multipartPost('/admin/update-tournament/42', { ...FORM, maxTeams: '4' }, [], cookie), { id: '42' })),
    );
    expect(conflict.status).toBe(409);
    expect(conflict.body.fieldErrors).toEqual({ maxTeams: '5 teams are already registered: Max teams cannot be lower than that.' });
    expect(conflict.body.values.maxTeams).toBe('4');

    stub.answer((_req, res) => {
      res.statusCode = 404;
      res.end();
    });
    const gone = unwrap(await update.action(args(multipartPost('/admin/update-tournament/42', FORM, [], cookie), { id: '42' })));
    expect(gone.body.formError).toBe('Failed to update tournament.');
  });
});

describe('manage and delete', () => {
  it('lists every tournament for Edit and Delete (both manage paths), or "Failed to fetch tournaments."', async () => {
    stub.answer((_req, res) => json(res, 200, [TOURNAMENT]));
    const { cookie } = await cookieFor(['ROLE_ADMIN']);
    for (const [loader, path] of [
      [manage.loader, '/admin/manage-tournaments'],
      [manageChild.loader, '/admin/manage-tournament'],
    ] as const) {
      const { status, body } = unwrap(await loader(args(get(path, cookie))));
      expect(status).toBe(200);
      expect(body).toEqual({
        tournaments: [{ id: 42, name: 'Monsoon Cup', game: 'BGMI', status: 'Registration Ongoing', starts: '5 Mar 2030', teams: '3/16' }],
        error: null,
      });
    }
    stub.answer((_req, res) => json(res, 400, { message: 'nope' }));
    const failed = unwrap(await manage.loader(args(get('/admin/manage-tournaments', cookie))));
    expect(failed.body).toEqual({ tournaments: [], error: 'Failed to fetch tournaments.' });
    expect(failed.status).toBe(400);
  });

  it('the confirmation page names the tournament; confirming DELETEs /tournaments/admin/delete{id} and flashes success', async () => {
    stub.answer((req, res) =>
      req.method === 'GET' ? json(res, 200, TOURNAMENT) : json(res, 200, { message: 'Tournament deleted successfully!' }),
    );
    const { cookie } = await cookieFor(['ROLE_ADMIN']);
    const page = await del.loader(args(get('/admin/delete-tournament/42?returnTo=%2Fadmin%2Fmanage-tournament', cookie), { id: '42' }));
    expect(page).toMatchObject({ id: 42, name: 'Monsoon Cup', returnTo: '/admin/manage-tournament' });
    // Anywhere else is no place to return to.
    const elsewhere = await del.loader(args(get('/admin/delete-tournament/42?returnTo=https%3A%2F%2Fevil.example', cookie), { id: '42' }));
    expect(elsewhere.returnTo).toBe('/admin/manage-tournaments');

    const res = (await del.action(
      args(formPost(`${BASE}/admin/delete-tournament/42`, { returnTo: '/admin/manage-tournament' }, { cookie }), { id: '42' }),
    )) as Response;
    expect(stub.seen.at(-1)).toMatchObject({ method: 'DELETE', url: '/tournaments/admin/delete42' });
    expect(res.headers.get('location')).toBe('/admin/manage-tournament');
    expect(await flashOf(res)).toBe('Tournament deleted successfully!');
  });

  it('a refused delete shows "Failed to delete tournament." on the confirmation page', async () => {
    stub.answer((_req, res) => json(res, 403, { message: 'Admins only.' }));
    const { cookie } = await cookieFor(['ROLE_ADMIN']);
    const { status, body } = unwrap(await del.action(args(formPost(`${BASE}/admin/delete-tournament/42`, {}, { cookie }), { id: '42' })));
    expect(status).toBe(403);
    expect(body.error).toBe('Failed to delete tournament. Admins only.');
  });

  it('/admin opens the manage list', async () => {
    const { cookie } = await cookieFor(['ROLE_ADMIN']);
    const res = (await thrown(() => index.loader(args(get('/admin', cookie))))) as Response;
    expect(res.headers.get('location')).toBe('/admin/manage-tournament');
  });
});

describe('payment deadline (issue 19, decision 047)', () => {
  it('sends hours as digits and an empty fixed time as "" (none); a fixed time goes from India time to UTC', async () => {
    stub.answer((_req, res) => json(res, 200, TOURNAMENT));
    const { cookie } = await cookieFor(['ROLE_ADMIN']);
    const post = (fields: Record<string, string>) =>
      update.action(args(multipartPost('/admin/update-tournament/42', { ...FORM, ...fields }, [], cookie), { id: '42' }));
    await post({ paymentDeadlineHours: '6', paymentDeadlineAt: '' });
    let sent = await receivedForm(stub.seen.at(-1)!);
    expect([sent.get('paymentDeadlineHours'), sent.get('paymentDeadlineAt')]).toEqual(['6', '']);

    await post({ paymentDeadlineHours: '', paymentDeadlineAt: '2030-03-04T21:00' });
    sent = await receivedForm(stub.seen.at(-1)!);
    expect([sent.get('paymentDeadlineHours'), sent.get('paymentDeadlineAt')]).toEqual(['', '2030-03-04T15:30:00.000Z']);
  });

  it('refuses both at once, hours out of range and a time that is not one, by their fields, without calling the gateway', async () => {
    const { cookie } = await cookieFor(['ROLE_ADMIN']);
    const post = async (fields: Record<string, string>) =>
      unwrap(await update.action(args(multipartPost('/admin/update-tournament/42', { ...FORM, ...fields }, [], cookie), { id: '42' })));
    const both = await post({ paymentDeadlineHours: '6', paymentDeadlineAt: '2030-03-04T21:00' });
    let body = both.body;
    expect(both.status).toBe(400);
    expect(body.fieldErrors).toEqual({
      paymentDeadlineAt: 'Choose hours after registering or a fixed time for the payment deadline, not both.',
    });
    expect(body.values).toMatchObject({ paymentDeadlineHours: '6', paymentDeadlineAt: '2030-03-04T21:00' });
    ({ body } = await post({ paymentDeadlineHours: '721', paymentDeadlineAt: 'soon' }));
    expect(Object.keys(body.fieldErrors).sort()).toEqual(['paymentDeadlineAt', 'paymentDeadlineHours']);
    expect(body.fieldErrors.paymentDeadlineAt).toBe('Enter a date and time, for example 05/03/2026 18:30.');
    expect(body.fieldErrors.paymentDeadlineHours).toMatch(/720/);
    expect(stub.seen).toHaveLength(0);
  });

  it('prefills the deadline the tournament has', async () => {
    stub.answer((_req, res) => json(res, 200, { ...TOURNAMENT, paymentDeadlineAt: '2030-03-04T15:30:00.000Z' }));
    const { cookie } = await cookieFor(['ROLE_ADMIN']);
    let page = await update.loader(args(get('/admin/update-tournament/42', cookie), { id: '42' }));
    expect(page.values).toMatchObject({ paymentDeadlineHours: '', paymentDeadlineAt: '2030-03-04T21:00' });
    stub.answer((_req, res) => json(res, 200, { ...TOURNAMENT, paymentDeadlineHours: 6 }));
    page = await update.loader(args(get('/admin/update-tournament/42', cookie), { id: '42' }));
    expect(page.values).toMatchObject({ paymentDeadlineHours: '6', paymentDeadlineAt: '' });
  });
});

// Issue 27 item 10 (decision 055): the payee is set on the tournament form; the variables are only the default.
describe('payee (issue 27)', () => {
  it('sends the UPI ID and name as typed (trimmed), "" for none, and refuses a bad UPI ID by its field', async () => {
    stub.answer((_req, res) => json(res, 200, TOURNAMENT));
    const { cookie } = await cookieFor(['ROLE_ADMIN']);
    const post = (fields: Record<string, string>) =>
      update.action(args(multipartPost('/admin/update-tournament/42', { ...FORM, ...fields }, [], cookie), { id: '42' }));
    await post({ payeeUpiId: ' cup.org@okaxis ', payeeName: ' Cup Org ' });
    let sent = await receivedForm(stub.seen.at(-1)!);
    expect([sent.get('payeeUpiId'), sent.get('payeeName')]).toEqual(['cup.org@okaxis', 'Cup Org']);
    await post({ payeeUpiId: '', payeeName: '' });
    sent = await receivedForm(stub.seen.at(-1)!);
    expect([sent.get('payeeUpiId'), sent.get('payeeName')]).toEqual(['', '']);

    const before = stub.seen.length;
    const bad = unwrap(await post({ payeeUpiId: 'cup.org', payeeName: 'Cup Org' }));
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors).toEqual({ payeeUpiId: 'UPI ID must look like handle@provider, for example organiser@okaxis.' });
    expect(bad.body.values).toMatchObject({ payeeUpiId: 'cup.org', payeeName: 'Cup Org' });
    expect(stub.seen.length).toBe(before);
  });

  it("prefills the tournament's payee; a new tournament starts from the site's default unless that is the placeholder", async () => {
    stub.answer((_req, res) => json(res, 200, { ...TOURNAMENT, payeeUpiId: 'cup.org@okaxis', payeeName: 'Cup Org' }));
    const { cookie } = await cookieFor(['ROLE_ADMIN']);
    const page = await update.loader(args(get('/admin/update-tournament/42', cookie), { id: '42' }));
    expect(page.values).toMatchObject({ payeeUpiId: 'cup.org@okaxis', payeeName: 'Cup Org' });

    const { resetEnvForTests } = await import('~/utils/env.server');
    const saved = { vpa: process.env.UPI_PAYEE_VPA, name: process.env.UPI_PAYEE_NAME };
    try {
      delete process.env.UPI_PAYEE_VPA;
      resetEnvForTests();
      const fresh = await add.loader(args(get('/admin/add-tournament', cookie)));
      expect(fresh.values).toEqual({});
      expect(fresh.rules.defaultPayee).toMatchObject({ upiId: 'customroom@upi', placeholder: true });
      process.env.UPI_PAYEE_VPA = 'site.org@okicici';
      process.env.UPI_PAYEE_NAME = 'Site Org';
      resetEnvForTests();
      const set = await add.loader(args(get('/admin/add-tournament', cookie)));
      expect(set.values).toEqual({ payeeUpiId: 'site.org@okicici', payeeName: 'Site Org' });
    } finally {
      for (const [key, value] of [
        ['UPI_PAYEE_VPA', saved.vpa],
        ['UPI_PAYEE_NAME', saved.name],
      ] as const)
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      resetEnvForTests();
    }
  });
});
