import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Api,
  createStorage,
  dialectName,
  freePort,
  spawnGateway,
  startGateway,
  unique,
  uniquePhone,
  type ApiResponse,
  type GatewayProcess,
  type TestGateway,
} from './helpers.js';

function expectLimited(res: ApiResponse) {
  expect(res.status).toBe(429);
  expect(res.body.message).toMatch(/^Too many attempts\. Please wait \d+ seconds and try again\.$/);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

const someone = () => `reset${unique()}@test.example`;

describe('password reset requests per client address', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({
      RATE_LIMIT: 'on',
      RATE_LIMIT_RESET_MAX: '2',
      RATE_LIMIT_RESET_CLIENT_MAX: '4',
      RATE_LIMIT_WINDOW_SECONDS: '60',
    });
    gw.app.mailer.send = async () => {};
  });
  afterAll(() => gw.stop());

  /** A request that seems to come from this client (the test gateway trusts X-Forwarded-For from loopback). */
  const ask = (email: unknown, ip: string) =>
    gw.api.request('POST', '/api/auth/password-reset/request', { json: { email }, headers: { 'x-forwarded-for': ip } });

  it('stops one client asking for many different emails, while another client still gets through', async () => {
    for (let i = 0; i < 4; i++) expect((await ask(someone(), '198.51.100.20')).status).toBe(202);
    expectLimited(await ask(someone(), '198.51.100.20'));
    expect((await ask(someone(), '198.51.100.21')).status).toBe(202);
  });

  it('counts malformed requests from the client too', async () => {
    for (let i = 0; i < 4; i++) expect((await ask('not-an-email', '198.51.100.30')).status).toBe(400);
    expectLimited(await ask(someone(), '198.51.100.30'));
  });

  it('limits one email however many addresses ask for it', async () => {
    const victim = someone();
    expect((await ask(victim, '203.0.113.1')).status).toBe(202);
    expect((await ask(victim, '203.0.113.2')).status).toBe(202);
    expectLimited(await ask(victim, '203.0.113.3'));
    expect((await ask(someone(), '203.0.113.3')).status).toBe(202);
  });
});

describe('password reset limits with the default numbers', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ RATE_LIMIT: 'on' });
    gw.app.mailer.send = async () => {};
  });
  afterAll(() => gw.stop());

  it("let a crowd behind one address (a hostel, a mobile carrier's NAT) ask for their own resets", async () => {
    const ip = '192.0.2.99';
    for (let i = 0; i < 15; i++) {
      const res = await gw.api.request('POST', '/api/auth/password-reset/request', {
        json: { email: someone() },
        headers: { 'x-forwarded-for': ip },
      });
      expect(res.status).toBe(202);
    }
  });

  it('still stop one client from asking for a long list of emails', async () => {
    const ip = '192.0.2.100';
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await gw.api.request('POST', '/api/auth/password-reset/request', {
        json: { email: someone() },
        headers: { 'x-forwarded-for': ip },
      });
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s === 202)).toHaveLength(gw.config.RATE_LIMIT_RESET_CLIENT_MAX);
    expect(statuses.at(-1)).toBe(429);
  });
});

// ---- Login protection and crowd limits (decision 022) ----

function newAccount() {
  const u = unique();
  return { email: `crowd${u}@test.example`, phone: uniquePhone(), username: `cr_${u}`.slice(0, 20), password: 'a good long password' };
}

function expectLockedOut(res: ApiResponse, lockoutSeconds: number) {
  expect(res.status).toBe(429);
  expect(res.body.message).toMatch(/^Too many attempts\. Please wait \d+ seconds and try again\.$/);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(lockoutSeconds - 60);
  expect(retryAfter).toBeLessThanOrEqual(lockoutSeconds);
}

/** Client addresses as the web app would name them (the test gateway trusts X-Forwarded-For from loopback). */
let addressCounter = 0;
const anotherAddress = () => {
  addressCounter += 1;
  return `198.18.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
};

describe('login protection with the default limits', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ RATE_LIMIT: 'on' });
  });
  afterAll(() => gw.stop());

  const register = (account: ReturnType<typeof newAccount>, ip: string) =>
    gw.api.request('POST', '/api/auth/register', { json: account, headers: { 'x-forwarded-for': ip } });
  const login = (emailOrPhone: string, password: string, ip: string, deviceToken?: string) =>
    gw.api.request('POST', '/api/auth/login', {
      json: { emailOrPhone, password, ...(deviceToken ? { deviceToken } : {}) },
      headers: { 'x-forwarded-for': ip },
    });

  async function account(ip = anotherAddress()) {
    const a = newAccount();
    expect((await register(a, ip)).status).toBe(201);
    return a;
  }

  it('has the documented defaults', () => {
    expect(gw.config).toMatchObject({
      RATE_LIMIT_LOGIN_MAX: 300,
      RATE_LIMIT_LOGIN_FAILURES_MAX: 100,
      RATE_LIMIT_ACCOUNT_FAILURES_MAX: 10,
      RATE_LIMIT_DEVICE_FAILURES_MAX: 10,
      RATE_LIMIT_LOCKOUT_SECONDS: 900,
      RATE_LIMIT_REGISTER_MAX: 200,
    });
  });

  it('a stranger guessing from many addresses locks the account for logins without its device token, never for the owner on their phone', async () => {
    const owner = await account();
    const home = anotherAddress();
    const first = await login(owner.email, owner.password, home);
    expect(first.status).toBe(200);
    const deviceToken: string = first.body.deviceToken;
    expect(deviceToken).toMatch(/^[\w-]{40,}$/);

    // 10 wrong passwords, each from a new address: all plain refusals; the 11th attempt is locked out.
    for (let i = 0; i < gw.config.RATE_LIMIT_ACCOUNT_FAILURES_MAX; i++)
      expect((await login(owner.email, `guess ${i}`, anotherAddress())).status).toBe(401);
    expectLockedOut(await login(owner.email, 'guess 11', anotherAddress()), gw.config.RATE_LIMIT_LOCKOUT_SECONDS);
    // The phone number names the same account.
    expectLockedOut(await login(owner.phone, 'guess 12', anotherAddress()), gw.config.RATE_LIMIT_LOCKOUT_SECONDS);

    // The owner on their usual phone (its device token) logs in, from home or anywhere, again and again.
    for (const ip of [home, anotherAddress()]) {
      const res = await login(owner.email, owner.password, ip, deviceToken);
      expect(res.status).toBe(200);
      expect(res.body.deviceToken).toBe(deviceToken);
      expect((await gw.api.get('/api/auth/me', res.body.token)).status).toBe(200);
    }
    // Without it (a new browser, or the stranger with the right password) it is refused for the lockout period.
    expectLockedOut(await login(owner.email, owner.password, home), gw.config.RATE_LIMIT_LOCKOUT_SECONDS);

    // A device token of another account (the stranger's own) or a made-up one is no token at all.
    const stranger = await account();
    const strangerDevice = (await login(stranger.email, stranger.password, anotherAddress())).body.deviceToken as string;
    expectLockedOut(await login(owner.email, 'guess 13', anotherAddress(), strangerDevice), gw.config.RATE_LIMIT_LOCKOUT_SECONDS);
    expectLockedOut(await login(owner.email, 'guess 14', anotherAddress(), 'x'.repeat(43)), gw.config.RATE_LIMIT_LOCKOUT_SECONDS);
    // Another account is not affected.
    expect((await login(stranger.email, stranger.password, anotherAddress())).status).toBe(200);
  });

  it('a device token has its own small budget of wrong passwords', async () => {
    const owner = await account();
    const deviceToken: string = (await login(owner.email, owner.password, anotherAddress())).body.deviceToken;
    for (let i = 0; i < gw.config.RATE_LIMIT_DEVICE_FAILURES_MAX; i++)
      expect((await login(owner.email, `typo ${i}`, anotherAddress(), deviceToken)).status).toBe(401);
    expectLockedOut(await login(owner.email, owner.password, anotherAddress(), deviceToken), gw.config.RATE_LIMIT_LOCKOUT_SECONDS);
    // Those failures were the device's, not the account's: a login without the device token still works.
    const fresh = await login(owner.email, owner.password, anotherAddress());
    expect(fresh.status).toBe(200);
    expect(fresh.body.deviceToken).not.toBe(deviceToken);
  });

  it('a password reset forgets the device tokens of the old password', async () => {
    const owner = await account();
    const deviceToken: string = (await login(owner.email, owner.password, anotherAddress())).body.deviceToken;
    for (let i = 0; i < gw.config.RATE_LIMIT_ACCOUNT_FAILURES_MAX; i++)
      expect((await login(owner.email, `guess ${i}`, anotherAddress())).status).toBe(401);
    expect((await login(owner.email, owner.password, anotherAddress(), deviceToken)).status).toBe(200);
    let link = '';
    gw.app.mailer.send = async (mail: { text: string }) => {
      link = /token=([\w-]+)/.exec(mail.text)![1]!;
    };
    expect((await gw.api.post('/api/auth/password-reset/request', { email: owner.email })).status).toBe(202);
    await expect.poll(() => link).not.toBe('');
    expect((await gw.api.post('/api/auth/password-reset/confirm', { token: link, password: 'a brand new password' })).status).toBe(200);
    expectLockedOut(await login(owner.email, 'a brand new password', anotherAddress(), deviceToken), gw.config.RATE_LIMIT_LOCKOUT_SECONDS);
  });

  it('a registration-day crowd behind one address (100 players, some mistyping once) signs up and logs in without a 429', async () => {
    const ip = anotherAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) {
      const player = newAccount();
      statuses.push((await register(player, ip)).status);
      if (i % 5 === 0) statuses.push((await login(player.email, 'a good long pasword', ip)).status === 401 ? 201 : -1);
      const res = await login(i % 2 ? player.phone : player.email, player.password, ip);
      statuses.push(res.status === 200 && res.body.deviceToken ? 201 : res.status);
    }
    expect(statuses.filter((s) => s !== 201)).toEqual([]);
  }, 120_000);

  it('stops scripted guessing from one address across many accounts, and lets other addresses in', async () => {
    const ip = anotherAddress();
    const owner = await account();
    const deviceToken: string = (await login(owner.email, owner.password, ip)).body.deviceToken;
    const statuses: number[] = [];
    for (let i = 0; i <= gw.config.RATE_LIMIT_LOGIN_FAILURES_MAX; i++) {
      statuses.push((await login(`victim${i}-${unique()}@test.example`, 'password123', ip)).status);
    }
    expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
    expectLockedOut(await login(`one-more${unique()}@test.example`, 'password123', ip), gw.config.RATE_LIMIT_LOCKOUT_SECONDS);
    // Right passwords without a device token are refused from that address too (the guesser could have them) ...
    expectLockedOut(await login(owner.email, owner.password, ip), gw.config.RATE_LIMIT_LOCKOUT_SECONDS);
    // ... but a player there on their own phone logs in, and so does anyone elsewhere.
    expect((await login(owner.email, owner.password, ip, deviceToken)).status).toBe(200);
    expect((await login(owner.email, owner.password, anotherAddress())).status).toBe(200);
  }, 60_000);
});

describe('login protection behind an untrusted peer', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    // The gateway believes X-Forwarded-For only from this address, which is not the test's loopback.
    gw = await startGateway({
      RATE_LIMIT: 'on',
      TRUST_PROXY: '10.255.255.1',
      RATE_LIMIT_LOGIN_FAILURES_MAX: '5',
      RATE_LIMIT_REGISTER_MAX: '5',
    });
  });
  afterAll(() => gw.stop());

  it('rotating X-Forwarded-For changes nothing: failed logins and sign-ups all count for the peer', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await gw.api.request('POST', '/api/auth/login', {
        json: { emailOrPhone: `x${unique()}@test.example`, password: 'password123' },
        headers: { 'x-forwarded-for': anotherAddress() },
      });
      expect(res.status).toBe(401);
    }
    const locked = await gw.api.request('POST', '/api/auth/login', {
      json: { emailOrPhone: `x${unique()}@test.example`, password: 'password123' },
      headers: { 'x-forwarded-for': anotherAddress() },
    });
    expectLockedOut(locked, gw.config.RATE_LIMIT_LOCKOUT_SECONDS);

    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (await gw.api.request('POST', '/api/auth/register', { json: newAccount(), headers: { 'x-forwarded-for': anotherAddress() } }))
          .status,
      );
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });
});

// ---- Parallel attempts (decision 030): checking a limit and counting the attempt are one step in the
// database, so attempts in flight at once, on one gateway process or several, cannot all pass the check. ----

/** The attack of issue 16, item 5, against gateways sharing one database: what each attempt was answered. */
async function parallelAttacks(apis: Api[], config: { account: number; address: number; device: number; lockout: number }) {
  const login = (i: number, emailOrPhone: string, password: string, ip: string, deviceToken?: string) =>
    apis[i % apis.length]!.request('POST', '/api/auth/login', {
      json: { emailOrPhone, password, ...(deviceToken ? { deviceToken } : {}) },
      headers: { 'x-forwarded-for': ip },
    });
  const owner = newAccount();
  expect(
    (await apis[0]!.request('POST', '/api/auth/register', { json: owner, headers: { 'x-forwarded-for': anotherAddress() } })).status,
  ).toBe(201);
  const deviceToken: string = (await login(0, owner.email, owner.password, anotherAddress())).body.deviceToken;

  return {
    /** 30 wrong passwords and the right one (sent 26th) from 31 addresses at once, and the owner on their phone. */
    async oneAccount() {
      const passwords = Array.from({ length: 31 }, (_, i) => (i === 25 ? owner.password : `guess ${i}`));
      const [phone, ...answers] = await Promise.all([
        login(1, owner.email, owner.password, anotherAddress(), deviceToken),
        ...passwords.map((password, i) => login(i, owner.email, password, anotherAddress())),
      ]);
      const statuses = answers.map((r) => r.status);
      // At most `account` wrong passwords were checked; the rest were refused before argon2.
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(config.account);
      expect(statuses.filter((s) => s === 401 || s === 200).length).toBeLessThanOrEqual(config.account + 1);
      expect(statuses.filter((s) => s !== 401 && s !== 200 && s !== 429)).toEqual([]);
      for (const r of answers.filter((r) => r.status === 429)) expectLockedOut(r, config.lockout);
      // The owner's phone has its own budget and was never in the queue of the guesses.
      expect(phone.status).toBe(200);
      // Whatever the 26th attempt was answered, the account is now locked for logins without the device token.
      expectLockedOut(await login(0, owner.email, owner.password, anotherAddress()), config.lockout);
    },
    /** As many wrong passwords as the device's budget and five more, all with the owner's device token, at once. */
    async oneDevice() {
      const answers = await Promise.all(
        Array.from({ length: config.device + 5 }, (_, i) => login(i, owner.email, `typo ${i}`, anotherAddress(), deviceToken)),
      );
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(config.device);
      expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    },
    /** Twice as many guesses as the address's limit, at as many accounts, from one address at once. */
    async oneAddress() {
      const ip = anotherAddress();
      const answers = await Promise.all(
        Array.from({ length: 2 * config.address }, (_, i) => login(i, `victim${i}-${unique()}@test.example`, 'password123', ip)),
      );
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(config.address);
      expect(statuses.filter((s) => s === 429)).toHaveLength(config.address);
    },
  };
}

describe(`login protection under parallel attempts, one gateway (${dialectName})`, () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ RATE_LIMIT: 'on' });
  });
  afterAll(() => gw.stop());
  const limits = () => ({
    account: gw.config.RATE_LIMIT_ACCOUNT_FAILURES_MAX,
    address: gw.config.RATE_LIMIT_LOGIN_FAILURES_MAX,
    device: gw.config.RATE_LIMIT_DEVICE_FAILURES_MAX,
    lockout: gw.config.RATE_LIMIT_LOCKOUT_SECONDS,
  });

  it('31 wrong logins at once for one account: at most 10 are checked, and the right password sent 26th does not get in', async () => {
    await (await parallelAttacks([gw.api], limits())).oneAccount();
  }, 60_000);

  it("a device token's budget holds under parallel attempts too", async () => {
    await (await parallelAttacks([gw.api], limits())).oneDevice();
  }, 60_000);

  it('200 guesses at once from one address: exactly 100 are checked', async () => {
    await (await parallelAttacks([gw.api], limits())).oneAddress();
  }, 120_000);
});

// Two gateway processes (the compiled server, npm run build:gateway) on one database: a limit kept per
// process would let each check its own 10.
describe(`login protection under parallel attempts split between two gateway processes (${dialectName})`, () => {
  const procs: GatewayProcess[] = [];
  let apis: Api[];
  beforeAll(async () => {
    const storage = await createStorage();
    const env = { DATA_DIR: storage.dataDir, ...(storage.databaseUrl ? { DATABASE_URL: storage.databaseUrl } : {}), RATE_LIMIT: 'on' };
    for (let i = 0; i < 2; i++) {
      const proc = spawnGateway({ ...env, GATEWAY_PORT: String(await freePort()) });
      procs.push(proc);
      await proc.ready(); // one after the other: the first migrates
    }
    apis = procs.map((p) => new Api(p.url));
  });
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
  });
  const limits = { account: 10, address: 100, device: 10, lockout: 900 };

  it('31 wrong logins for one account spread over both: at most 10 are checked in all', async () => {
    await (await parallelAttacks(apis, limits)).oneAccount();
  }, 60_000);

  it('200 guesses from one address spread over both: exactly 100 are checked in all', async () => {
    await (await parallelAttacks(apis, limits)).oneAddress();
  }, 120_000);
});
