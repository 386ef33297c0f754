import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tournamentJson } from '../support';
import { captureLogs } from '../support/logs';
import { cookieOf, formPost, json, startGatewayStub, thrown, unwrap, useStubEnv, type GatewayStub } from './support/gateway-stub';

// Route modules are imported after the environment points at the stub gateway.
let stub: GatewayStub;
let login: typeof import('~/routes/login');
let register: typeof import('~/routes/register');
let logoutRoute: typeof import('~/routes/logout');
let forgot: typeof import('~/routes/forgot-password');
let reset: typeof import('~/routes/reset-password');
let session: typeof import('~/utils/session.server');

const args = (request: Request) => ({ request, params: {}, context: {} });

beforeAll(async () => {
  stub = await startGatewayStub();
  await useStubEnv(stub);
  login = await import('~/routes/login');
  register = await import('~/routes/register');
  logoutRoute = await import('~/routes/logout');
  forgot = await import('~/routes/forgot-password');
  reset = await import('~/routes/reset-password');
  session = await import('~/utils/session.server');
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.seen.length = 0;
});

/** A cookie for a signed-in player, as login would set it. */
async function signedInCookie() {
  const res = await session.createUserSession(new Request('http://localhost/login'), await stub.token(), 'player_one', '/');
  return cookieOf(res);
}

describe('login action', () => {
  it('sends the credentials to the gateway, starts the session and goes to redirectTo', async () => {
    const token = await stub.token();
    stub.answer((_req, res) =>
      json(res, 200, { token, username: 'player_one', roles: ['ROLE_USER'], expiresAt: new Date().toISOString() }),
    );
    const res = (await login.action(
      args(
        formPost('http://localhost/login', {
          emailOrPhone: ' player@example.com ',
          password: 'hunter22!',
          redirectTo: '/tournaments/3?tab=points',
        }),
      ),
    )) as Response;

    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/tournaments/3?tab=points');
    expect(stub.seen).toHaveLength(1);
    expect(stub.seen[0]).toMatchObject({
      method: 'POST',
      url: '/api/auth/login',
      body: { emailOrPhone: 'player@example.com', password: 'hunter22!' },
    });

    // The cookie carries a session the app recognises.
    const user = await session.getUser(new Request('http://localhost/', { headers: { cookie: cookieOf(res) } }));
    expect(user?.username).toBe('player_one');
  });

  it('keeps the device token the gateway returns in a long-lived httpOnly cookie and sends it with the next login (decision 022)', async () => {
    const token = await stub.token();
    stub.answer((_req, res) =>
      json(res, 200, {
        token,
        username: 'player_one',
        roles: ['ROLE_USER'],
        expiresAt: new Date().toISOString(),
        deviceToken: 'device-token-1',
      }),
    );
    const first = (await login.action(
      args(formPost('http://localhost/login', { emailOrPhone: 'player@example.com', password: 'hunter22!', redirectTo: '' })),
    )) as Response;
    expect(stub.seen[0]!.body).not.toHaveProperty('deviceToken');
    const device = first.headers.getSetCookie().find((c) => c.startsWith('__device='));
    expect(device).toMatch(/HttpOnly/i);
    expect(device).toMatch(/SameSite=Lax/i);
    expect(Number(/Max-Age=(\d+)/i.exec(device!)?.[1])).toBeGreaterThanOrEqual(365 * 24 * 60 * 60);
    expect(device).not.toContain('device-token-1;'); // signed, not the bare token

    stub.answer((_req, res) =>
      json(res, 200, {
        token,
        username: 'player_one',
        roles: ['ROLE_USER'],
        expiresAt: new Date().toISOString(),
        deviceToken: 'device-token-1',
      }),
    );
    const cookie = device!.split(';')[0]!;
    await login.action(
      args(formPost('http://localhost/login', { emailOrPhone: 'player@example.com', password: 'hunter22!', redirectTo: '' }, { cookie })),
    );
    expect(stub.seen[1]!.body).toMatchObject({ deviceToken: 'device-token-1' });
    // A forged (unsigned) cookie is not passed on.
    await login.action(
      args(
        formPost(
          'http://localhost/login',
          { emailOrPhone: 'player@example.com', password: 'hunter22!', redirectTo: '' },
          { cookie: '__device=ImZvcmdlZCI%3D' },
        ),
      ),
    );
    expect(stub.seen[2]!.body).not.toHaveProperty('deviceToken');
  });

  it.each(['https://evil.example/x', '//evil.example', '/\\evil.example', '/\t/evil.example'])(
    'never redirects off-site (redirectTo=%j)',
    async (redirectTo) => {
      const token = await stub.token();
      stub.answer((_req, res) => json(res, 200, { token, username: 'player_one', roles: [] }));
      const res = (await login.action(
        args(formPost('http://localhost/login', { emailOrPhone: 'a@b.in', password: 'x', redirectTo })),
      )) as Response;
      expect(res.headers.get('location')).toBe('/');
    },
  );

  it("shows the gateway's message on a refused login, keeps the email/phone and never the password", async () => {
    stub.answer((_req, res) => json(res, 401, { message: 'Invalid email/phone or password.' }));
    const { status, body } = unwrap(
      await login.action(
        args(formPost('http://localhost/login', { emailOrPhone: '9876543210', password: 'wrong-password', redirectTo: '' })),
      ),
    );
    expect(status).toBe(401);
    expect(body).toEqual({
      values: { emailOrPhone: '9876543210', redirectTo: '' },
      fieldErrors: {},
      formError: 'Invalid email/phone or password.',
    });
    expect(JSON.stringify(body)).not.toContain('wrong-password');
  });

  it('falls back to "Login failed. Please try again." when the gateway gives no message', async () => {
    stub.answer((_req, res) => {
      res.statusCode = 401;
      res.end();
    });
    const { body } = unwrap(await login.action(args(formPost('http://localhost/login', { emailOrPhone: 'a@b.in', password: 'x' }))));
    expect(body.formError).toBe('Login failed. Please try again.');
  });

  it("passes on the gateway's rate-limit message (429)", async () => {
    stub.answer((_req, res) => json(res, 429, { message: 'Too many attempts. Try again in a minute.' }));
    const { status, body } = unwrap(
      await login.action(args(formPost('http://localhost/login', { emailOrPhone: 'a@b.in', password: 'x' }))),
    );
    expect(status).toBe(429);
    expect(body.formError).toBe('Too many attempts. Try again in a minute.');
  });

  it('checks the form before calling the gateway', async () => {
    const { status, body } = unwrap(await login.action(args(formPost('http://localhost/login', { emailOrPhone: '  ', password: '' }))));
    expect(status).toBe(400);
    expect(body.fieldErrors).toEqual({ emailOrPhone: 'Email or phone is required.', password: 'Password is required.' });
    expect(stub.seen).toHaveLength(0);
  });

  it('keeps the details and answers 503 when the gateway cannot be reached', async () => {
    stub.answer((_req, res) => res.socket?.destroy());
    const logs = captureLogs();
    const { status, body } = unwrap(
      await login.action(args(formPost('http://localhost/login', { emailOrPhone: 'a@b.in', password: 'secret-pass' }))),
    );
    expect(status).toBe(503);
    expect(body.formError).toBe('We could not reach the server. Your details are kept — please try again.');
    expect(body.values.emailOrPhone).toBe('a@b.in');
    expect(JSON.stringify(body)).not.toContain('secret-pass');
    expect(logs).toContainEqual(expect.objectContaining({ level: 'error', msg: 'gateway unreachable' }));
  });
});

describe('login and register loaders', () => {
  it('give the safe redirectTo to the form', async () => {
    expect(await login.loader(args(new Request('http://localhost/login?redirectTo=%2Fprofile')))).toEqual({ redirectTo: '/profile' });
    expect(await login.loader(args(new Request('http://localhost/login?redirectTo=https%3A%2F%2Fevil.example')))).toEqual({
      redirectTo: '',
    });
  });

  it('name the tournament when the visitor is on the way to registering a team for it (its Register button)', async () => {
    stub.answer((req, res) =>
      req.url === '/tournaments/5'
        ? json(res, 200, tournamentJson({ id: 5, name: 'Monsoon Cup' }))
        : json(res, 404, { message: 'Tournament not found.' }),
    );
    expect(await login.loader(args(new Request('http://localhost/login?redirectTo=%2Fregister%2F5')))).toEqual({
      redirectTo: '/register/5',
      registering: 'Log in to register for Monsoon Cup.',
    });
    expect(await register.loader(args(new Request('http://localhost/register?redirectTo=%2Fregister%2F5')))).toMatchObject({
      redirectTo: '/register/5',
      registering: 'Create an account to register for Monsoon Cup.',
    });
    // A tournament the gateway does not know (or cannot find now): said without a name.
    expect(await login.loader(args(new Request('http://localhost/login?redirectTo=%2Fregister%2F6')))).toEqual({
      redirectTo: '/register/6',
      registering: 'Log in to register your team.',
    });
    // Any other page: no tournament asked for.
    stub.seen.length = 0;
    expect(await login.loader(args(new Request('http://localhost/login?redirectTo=%2Fregister%2F5%2Fx')))).toEqual({
      redirectTo: '/register/5/x',
    });
    expect(stub.seen).toEqual([]);
  });

  /** The gateway still accepts the session's token (GET /api/auth/me); the login page asks before sending anyone on (decision 031). */
  const gatewayAcceptsToken = () =>
    stub.answer((req, res) =>
      req.url === '/api/auth/me'
        ? json(res, 200, { id: 7, username: 'player_one', email: 'p@example.com', phone: '9876543210', roles: ['ROLE_USER'] })
        : json(res, 404, {}),
    );

  it('send a signed-in player on to redirectTo (or home)', async () => {
    gatewayAcceptsToken();
    const cookie = await signedInCookie();
    const res = (await thrown(() =>
      login.loader(args(new Request('http://localhost/login?redirectTo=%2Fmy-tournaments', { headers: { cookie } }))),
    )) as Response;
    expect(res.headers.get('location')).toBe('/my-tournaments');
    const res2 = (await thrown(() => register.loader(args(new Request('http://localhost/register', { headers: { cookie } }))))) as Response;
    expect(res2.headers.get('location')).toBe('/');
  });

  it('never send a signed-in player back to a login or register page (a loop), but do to team registration', async () => {
    gatewayAcceptsToken();
    const cookie = await signedInCookie();
    const where = async (url: string) =>
      ((await thrown(() => login.loader(args(new Request(url, { headers: { cookie } }))))) as Response).headers.get('location');
    expect(await where('http://localhost/login?redirectTo=%2Flogin%3FredirectTo%3D%252Flogin')).toBe('/');
    expect(await where('http://localhost/login?redirectTo=%2Fregister')).toBe('/');
    expect(await where('http://localhost/login?redirectTo=%2Fregister%2F5')).toBe('/register/5');
  });

  it('keep the form for a session whose token the gateway refuses (revoked elsewhere) or cannot confirm (decision 031)', async () => {
    const cookie = await signedInCookie();
    const request = () => new Request('http://localhost/login?redirectTo=%2Fprofile', { headers: { cookie } });
    stub.answer((_req, res) => json(res, 401, { message: 'Session ended. Please log in again.' }));
    expect(await login.loader(args(request()))).toEqual({ redirectTo: '/profile' });
    expect(stub.seen.map((r) => [r.url, r.headers.authorization?.slice(0, 7)])).toEqual([['/api/auth/me', 'Bearer ']]);
    const logs = captureLogs();
    stub.answer((_req, res) => res.socket?.destroy());
    expect(await login.loader(args(request()))).toEqual({ redirectTo: '/profile' });
    expect(logs).toContainEqual(expect.objectContaining({ level: 'error', msg: 'gateway unreachable' }));
  });

  it("show the answer of this request's login attempt to a signed-in player, never a redirect (a form post without JavaScript)", async () => {
    const cookie = await signedInCookie();
    // One request: the action runs, then the loaders, with the same load context.
    const context = {};
    stub.answer((req, res) =>
      req.url === '/api/auth/login'
        ? json(res, 429, { message: 'Too many attempts. Please wait 840 seconds and try again.' })
        : json(res, 200, { id: 7, username: 'player_one', email: 'p@example.com', phone: '9876543210', roles: ['ROLE_USER'] }),
    );
    const answer = unwrap(
      await login.action({
        request: formPost('http://localhost/login', { emailOrPhone: 'other@example.com', password: 'x', redirectTo: '' }, { cookie }),
        params: {},
        context,
      }),
    );
    expect(answer.status).toBe(429);
    expect(answer.body.formError).toBe('Too many attempts. Please wait 840 seconds and try again.');
    expect(await login.loader({ request: new Request('http://localhost/login', { headers: { cookie } }), params: {}, context })).toEqual({
      redirectTo: '',
    });
    // A plain visit of the login page still sends them on.
    expect(
      ((await thrown(() => login.loader(args(new Request('http://localhost/login', { headers: { cookie } }))))) as Response).headers.get(
        'location',
      ),
    ).toBe('/');
  });
});

describe('register action', () => {
  const fields = {
    email: 'New@Example.com',
    phone: '98765 43210',
    username: 'new_player',
    password: 'long enough pw',
    redirectTo: '/tournaments/3',
  };

  it('creates the account, logs the new player in and returns them to redirectTo with a welcome (issue 19)', async () => {
    const token = await stub.token({ username: 'new_player' });
    stub.answer((req, res) =>
      req.url === '/api/auth/register'
        ? json(res, 201, { message: 'Registration successful. Please log in.', username: 'new_player' })
        : json(res, 200, { token, username: 'new_player', roles: ['ROLE_USER'], expiresAt: new Date().toISOString() }),
    );
    const res = (await register.action(args(formPost('http://localhost/register', fields)))) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/tournaments/3');
    expect(stub.seen.map((r) => r.url)).toEqual(['/api/auth/register', '/api/auth/login']);
    expect(stub.seen[0]).toMatchObject({
      body: { email: 'new@example.com', phone: '+919876543210', username: 'new_player', password: 'long enough pw' },
    });
    // Logged in with what was just typed (the email as the gateway stored it).
    expect(stub.seen[1]!.body).toEqual({ emailOrPhone: 'new@example.com', password: 'long enough pw' });
    const next = new Request('http://localhost/tournaments/3', { headers: { cookie: cookieOf(res) } });
    expect(await session.getUser(next)).toMatchObject({ username: 'new_player' });
    expect((await session.readFlash(next)).message).toBe('Account created. You are logged in as new_player.');
  });

  it('goes home after signing up without a page to return to, never back to a login or register page', async () => {
    const token = await stub.token({ username: 'new_player' });
    stub.answer((req, res) =>
      req.url === '/api/auth/register'
        ? json(res, 201, { message: 'ok', username: 'new_player' })
        : json(res, 200, { token, username: 'new_player', roles: ['ROLE_USER'], expiresAt: new Date().toISOString() }),
    );
    for (const redirectTo of ['', '/login?redirectTo=%2Fprofile', '/register', 'https://evil.example/x']) {
      const res = (await register.action(args(formPost('http://localhost/register', { ...fields, redirectTo })))) as Response;
      expect(res.headers.get('location')).toBe('/');
    }
  });

  it('sends the player to log in by hand, keeping redirectTo, when the automatic login is refused', async () => {
    stub.answer((req, res) =>
      req.url === '/api/auth/register'
        ? json(res, 201, { message: 'ok', username: 'new_player' })
        : json(res, 429, { message: 'Too many attempts. Please wait 60 seconds and try again.' }),
    );
    const res = (await register.action(args(formPost('http://localhost/register', fields)))) as Response;
    expect(res.headers.get('location')).toBe('/login?redirectTo=%2Ftournaments%2F3');
    const flash = await session.readFlash(new Request('http://localhost/login', { headers: { cookie: cookieOf(res) } }));
    expect(flash.message).toBe('Account created. Please log in.');
  });

  it("shows the gateway's 409 field errors next to their fields", async () => {
    stub.answer((_req, res) =>
      json(res, 409, {
        message: 'An account with these details already exists.',
        errors: { email: 'An account with this email already exists.' },
      }),
    );
    const { status, body } = unwrap(await register.action(args(formPost('http://localhost/register', fields))));
    expect(status).toBe(409);
    expect(body.fieldErrors).toEqual({ email: 'An account with this email already exists.' });
    expect(body.values).toEqual({ email: 'New@Example.com', phone: '98765 43210', username: 'new_player', redirectTo: '/tournaments/3' });
  });

  it('says "Registration failed! Please try again." when the gateway gives no reason', async () => {
    stub.answer((_req, res) => {
      res.statusCode = 400;
      res.end();
    });
    const { body } = unwrap(await register.action(args(formPost('http://localhost/register', fields))));
    expect(body.formError).toBe('Registration failed! Please try again.');
  });
});

describe('logout', () => {
  it('ends the token at the gateway, then the session, and goes to /login', async () => {
    stub.answer((_req, res) => json(res, 200, { message: 'You have been logged out.' }));
    const cookie = await signedInCookie();
    const res = (await logoutRoute.action(args(formPost('http://localhost/logout', {}, { cookie })))) as Response;
    expect(res.headers.get('location')).toBe('/login');
    expect(stub.seen.at(-1)).toMatchObject({ method: 'POST', url: '/api/auth/logout' });
    expect(stub.seen.at(-1)!.headers.authorization).toMatch(/^Bearer /);
    const after = new Request('http://localhost/', { headers: { cookie: cookieOf(res) } });
    expect(await session.getUser(after)).toBeNull();
    expect((await session.readFlash(after)).message).toBe('You have logged out.');
  });

  it('"Log out everywhere" ends every token of the account', async () => {
    stub.answer((_req, res) => json(res, 200, { message: 'You have been logged out on every device.' }));
    const cookie = await signedInCookie();
    const res = (await logoutRoute.action(args(formPost('http://localhost/logout', { intent: 'everywhere' }, { cookie })))) as Response;
    expect(stub.seen.at(-1)).toMatchObject({ method: 'POST', url: '/api/auth/logout-all' });
    const after = new Request('http://localhost/', { headers: { cookie: cookieOf(res) } });
    expect((await session.readFlash(after)).message).toBe('You have logged out on every device.');
  });

  it('logs out here even when the gateway has already ended the token or cannot be reached', async () => {
    const logs = captureLogs();
    for (const answer of [
      (_req: unknown, res: import('node:http').ServerResponse) => json(res, 401, { message: 'Unauthorized' }),
      (_req: unknown, res: import('node:http').ServerResponse) => res.socket?.destroy(),
    ]) {
      stub.answer(answer);
      const res = await logoutRoute
        .action(args(formPost('http://localhost/logout', {}, { cookie: await signedInCookie() })))
        .catch((e: unknown) => e);
      expect(res).toBeInstanceOf(Response);
      const location = (res as Response).headers.get('location') ?? '';
      expect(location.startsWith('/login')).toBe(true);
      expect(await session.getUser(new Request('http://localhost/', { headers: { cookie: cookieOf(res as Response) } }))).toBeNull();
    }
    // An ended token is no news; an unreachable gateway is logged, and so is the token it could not end.
    expect(logs.map(({ level, msg }) => [level, msg])).toEqual([
      ['error', 'gateway unreachable'],
      ['warn', 'logout: the gateway could not end the token'],
    ]);
    expect(logs[1]!.reqId).toBe(logs[0]!.reqId);
  });

  it('does not log out on GET', async () => {
    const cookie = await signedInCookie();
    expect(await logoutRoute.loader(args(new Request('http://localhost/logout', { headers: { cookie } })))).toBeNull();
  });
});

describe('password reset', () => {
  it('always confirms a reset request the same way (post/redirect/get)', async () => {
    stub.answer((_req, res) =>
      json(res, 202, { message: 'If an account exists for that email, we have sent a link to reset the password.' }),
    );
    const res = (await forgot.action(args(formPost('http://localhost/forgot-password', { email: 'someone@example.com' })))) as Response;
    expect(res.headers.get('location')).toBe('/forgot-password?sent=1');
    expect(stub.seen[0]).toMatchObject({ url: '/api/auth/password-reset/request', body: { email: 'someone@example.com' } });
  });

  it('refuses mismatched passwords without calling the gateway', async () => {
    const { status, body } = unwrap(
      await reset.action(
        args(
          formPost('http://localhost/reset-password?token=abc', {
            token: 'abc',
            password: 'new password 1',
            confirmPassword: 'new password 2',
          }),
        ),
      ),
    );
    expect(status).toBe(400);
    expect(body.fieldErrors).toEqual({ confirmPassword: 'The two passwords do not match.' });
    expect(stub.seen).toHaveLength(0);
  });

  it('sets the new password and goes to login with a flash', async () => {
    stub.answer((_req, res) => json(res, 200, { message: 'Your password has been reset. Please log in.' }));
    const res = (await reset.action(
      args(
        formPost('http://localhost/reset-password?token=abc', {
          token: 'abc',
          password: 'new password 1',
          confirmPassword: 'new password 1',
        }),
      ),
    )) as Response;
    expect(res.headers.get('location')).toBe('/login');
    expect(stub.seen[0]).toMatchObject({ url: '/api/auth/password-reset/confirm', body: { token: 'abc', password: 'new password 1' } });
    const flash = await session.readFlash(new Request('http://localhost/login', { headers: { cookie: cookieOf(res) } }));
    expect(flash.message).toBe('Your password has been reset. Please log in.');
  });

  it("shows the gateway's message for an invalid or expired link", async () => {
    stub.answer((_req, res) =>
      json(res, 400, {
        message: 'This reset link is invalid or has expired.',
        errors: { token: 'This reset link is invalid or has expired.' },
      }),
    );
    const { status, body } = unwrap(
      await reset.action(
        args(
          formPost('http://localhost/reset-password?token=old', {
            token: 'old',
            password: 'new password 1',
            confirmPassword: 'new password 1',
          }),
        ),
      ),
    );
    expect(status).toBe(400);
    expect(body.fieldErrors.token).toBe('This reset link is invalid or has expired.');
    expect(JSON.stringify(body)).not.toContain('new password 1');
  });
});
