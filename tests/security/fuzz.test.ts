// Issue 10, generated input: every call of /openapi.json gets thousands of generated bodies, path
// parameters and query values, as anonymous, player and admin. No answer may be a 5xx, and every
// refusal is a 4xx `{ message, errors? }` with a message. Bounded by a fixed seed and numRuns;
// FUZZ_SEED and FUZZ_RUNS (runs per call) change them.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '../../gateway/src/lib/sessions.js';
import {
  adminToken,
  createAdmin,
  createTournament,
  createUser,
  pngImage,
  startGateway,
  teamFields,
  toForm,
  tournamentFields,
  type TestGateway,
} from './helpers.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_310);
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

type Actor = 'anonymous' | 'player' | 'admin';

interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  /** Property names of the documented body (and of its list items), to aim values at real fields. */
  fields: string[];
  multipart: boolean;
}

// Started at collection time: the tests are made from the calls the running gateway documents.
const gw: TestGateway = await startGateway();
const operations = await documentedOperations();
const tokens: Record<Actor, string | undefined> = { anonymous: undefined, player: undefined, admin: undefined };
/** Accounts whose sessions the logout calls may end, one per role: each request gets a new session of theirs. */
const expendable: Partial<Record<Actor, { id: number; username: string; roles: string[] }>> = {};
const realIds: string[] = [];
let sent = 0;
let serverErrors = 0;
const perCall = new Map<string, number>();
const byStatus = new Map<number, number>();

beforeAll(async () => {
  gw.app.mailer.send = async () => {};
  tokens.admin = await adminToken(gw.api);
  const player = await createUser(gw.api);
  tokens.player = player.token;
  const form = toForm(tournamentFields(), [{ name: 'coverImage', data: await pngImage(), filename: 'c.png', type: 'image/png' }]);
  const withCover = (await gw.api.request('POST', '/tournaments/add', { token: tokens.admin, form })).body;
  const tids = [withCover.id, (await createTournament(gw.api, tokens.admin)).id, (await createTournament(gw.api, tokens.admin)).id];
  const team = await gw.api.post(`/registrations/${tids[0]}`, teamFields(), player.token);
  const match = await gw.api.post(
    '/matches',
    { tid: tids[0], day: 1, matchNo: 1, map: 'Erangel', matchId: '123', password: 'pw', time: '18:00' },
    tokens.admin,
  );
  // Real identifiers, so some generated requests reach the handlers' checks instead of a 404.
  realIds.push(
    ...tids.map(String),
    String(team.body.rid),
    String(match.body.id),
    String(withCover.coverImageUrl).slice(8, -5),
    '400',
    '800',
    '1200',
    '1',
    '0',
  );
  const spare = await createUser(gw.api);
  const spareAdmin = await createAdmin(gw);
  expendable.player = { id: spare.id, username: spare.username, roles: ['ROLE_USER'] };
  expendable.admin = { id: spareAdmin.id, username: spareAdmin.username, roles: ['ROLE_USER', 'ROLE_ADMIN'] };
}, 60_000);

afterAll(async () => {
  const statuses = [...byStatus]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${status}×${n}`)
    .join(' ');
  console.log(
    `fuzz: ${sent} requests, ${serverErrors} 5xx (seed ${SEED}, ${RUNS} runs per call, ${perCall.size} calls, ${gw.config.DATABASE_URL ? 'postgres' : 'sqlite'}; ${statuses})`,
  );
  await gw.stop();
});

async function documentedOperations(): Promise<Operation[]> {
  const spec = (await gw.api.get('/openapi.json')).body;
  return Object.entries<Record<string, any>>(spec.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => {
      const params = (op.parameters ?? []) as { in: string; name: string }[];
      const content = op.requestBody?.content ?? {};
      const schema = (content['application/json'] ?? content['multipart/form-data'])?.schema ?? {};
      const fields = Object.keys(schema.properties ?? {});
      for (const p of Object.values<any>(schema.properties ?? {})) fields.push(...Object.keys(p?.items?.properties ?? {}));
      return {
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        fields: [...new Set(fields)],
        multipart: 'multipart/form-data' in content,
      };
    }),
  );
}

// ---- generators -------------------------------------------------------------------------------

const ODD_STRINGS = [
  '',
  ' ',
  '0',
  '-0',
  '-1',
  '1e308',
  '-1e308',
  '1e999',
  'NaN',
  'Infinity',
  '-Infinity',
  '0x10',
  '1.5',
  '2147483648',
  '9007199254740993',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  "'; DROP TABLE users; --",
  '" OR 1=1 --',
  '%',
  '_',
  '\\',
  '%00',
  '\u0000',
  '\u202Egnp.exe',
  '\u200B',
  '\uFEFF',
  '\uD800',
  'Ω≈ç√∫',
  'टीम सोल',
  '😀👨‍👩‍👧',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '__proto__',
  'constructor',
  'Registration Ongoing',
  'ROLE_ADMIN',
  'a@b.c',
  '+91 98765 43210',
  '18:30',
  '2026-03-05T10:00:00Z',
  'https://example.com/x.png',
  'javascript:alert(1)',
  ' '.repeat(300),
  'x'.repeat(5_000),
  // Issue 16 item 12 (decision 033): hidden characters and look-alikes of names.
  'Blaze\u034F',
  'Jonathan\uFE0F',
  'Jonathan\u{E0100}',
  'Soul\u{E0041}',
  'Ｓｏｕｌ',
  'Ѕоul',
  'Sοul',
  '𝐒𝐨𝐮𝐥',
  'ﬁre',
  'ТЕАМ ЅОUL',
  'Iron_1',
  'lron_1',
];
const ODD_NUMBERS = [
  0,
  -0,
  1,
  -1,
  7,
  101,
  1.5,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  2 ** 31,
  -(2 ** 31),
  Number.MIN_VALUE,
];

const oddString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 200 }) },
  { weight: 1, arbitrary: fc.constantFrom(...ODD_STRINGS).map((s) => s.repeat(2_000)) },
);
const oddScalar = fc.oneof(oddString, fc.constantFrom(...ODD_NUMBERS), fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: oddScalar },
  { weight: 1, arbitrary: fc.array(oddScalar, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), oddScalar, { maxKeys: 4 }) },
);

/** A body aimed at the call's own fields, with odd values; sometimes a list of such rows (the batch call). */
function fieldsBody(fields: string[]): fc.Arbitrary<unknown> {
  const key =
    fields.length > 0
      ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...fields) }, { weight: 1, arbitrary: fc.string({ maxLength: 10 }) })
      : fc.string({ maxLength: 10 });
  const row = fc.dictionary(key, oddValue, { maxKeys: Math.max(3, fields.length) });
  return fc.oneof({ weight: 3, arbitrary: row }, { weight: 1, arbitrary: fc.record({ results: fc.array(row, { maxLength: 6 }) }) });
}

/** JSON text no JSON.stringify makes: out-of-range numbers, duplicate keys, prototype keys, broken syntax. */
function rawJsonText(fields: string[]): fc.Arbitrary<string> {
  const name = fields.length > 0 ? fc.constantFrom(...fields, '__proto__', 'constructor') : fc.constantFrom('__proto__', 'x');
  const token = fc.constantFrom(
    '1e999',
    '-1e999',
    '-0',
    '1E308',
    '0.0000001',
    '9007199254740993',
    '"NaN"',
    'true',
    'null',
    '[]',
    '{}',
    '{"prototype":{"admin":true}}',
    '"\\u0000"',
    '"\\ud800"',
  );
  const member = fc.tuple(name, token).map(([k, v]) => `"${k}":${v}`);
  return fc.oneof(
    fc.array(member, { minLength: 1, maxLength: 6 }).map((members) => `{${members.join(',')}}`),
    fc.constantFrom('', '{', '{"a":', 'nul', '[1,2', '"unterminated', '{"a":1}}', '\u0000', '{"__proto__":{"roles":["ROLE_ADMIN"]}}'),
    fc.string({ maxLength: 60 }),
  );
}

interface Payload {
  headers?: Record<string, string>;
  body?: BodyInit;
}

function jsonPayload(op: Operation): fc.Arbitrary<Payload> {
  const json = (value: unknown): Payload => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) ?? 'null' });
  return fc.oneof(
    { weight: 4, arbitrary: fieldsBody(op.fields).map(json) },
    { weight: 2, arbitrary: oddValue.map(json) },
    { weight: 2, arbitrary: rawJsonText(op.fields).map((text) => ({ headers: { 'content-type': 'application/json' }, body: text })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            'text/plain',
            'application/x-www-form-urlencoded',
            'application/xml',
            'multipart/form-data',
            'application/json; charset=latin1',
            'application/json; charset=utf-16',
          ),
          oddString,
        )
        .map(([type, text]) => ({ headers: { 'content-type': type }, body: text })),
    },
    { weight: 1, arbitrary: fc.constant({}) },
  );
}

function multipartPayload(op: Operation): fc.Arbitrary<Payload> {
  const field = fc.tuple(fc.oneof(fc.constantFrom(...op.fields), fc.string({ maxLength: 10 })), oddString);
  const file = fc.oneof(
    fc.uint8Array({ maxLength: 2_000 }).map((bytes) => Buffer.from(bytes)),
    fc.constantFrom(Buffer.from('GIF89a'), Buffer.from('\x89PNG\r\n\x1a\n'), Buffer.from('<svg onload=alert(1)>')),
  );
  const form = fc
    .tuple(
      fc.array(field, { maxLength: 18 }),
      fc.option(fc.tuple(fc.constantFrom('coverImage', 'other'), file), { nil: undefined }),
      fc.boolean(),
    )
    .map(([fields, upload, valid]) => {
      // Half of the forms start from a valid tournament, so the generated values reach the deeper checks.
      const base = valid ? Object.entries(tournamentFields()) : [];
      const f = new FormData();
      const overridden = new Set(fields.map(([k]) => k));
      for (const [k, v] of base) if (!overridden.has(k)) f.append(k, v);
      for (const [k, v] of fields) f.append(k, v);
      if (upload) f.append(upload[0], new Blob([new Uint8Array(upload[1])]), 'x.png');
      return { body: f } as Payload;
    });
  return fc.oneof({ weight: 4, arbitrary: form }, { weight: 1, arbitrary: jsonPayload({ ...op, fields: [] }) });
}

/** Percent-encodes every byte but the unreserved ones (lone surrogates become U+FFFD, as a browser sends them). */
const encode = (s: string) =>
  [...Buffer.from(s, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

const pathValue = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...realIds) },
    { weight: 3, arbitrary: fc.oneof(oddString, fc.integer().map(String), fc.double().map(String)).map((s) => encode(s.slice(0, 300))) },
    { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%E0%A4%A', '%C0%AE', '%2e%2e%2f', '..', '%00', '%FF%FE', '1;2', '1%3Bdrop') },
  );

function queryString(op: Operation): fc.Arbitrary<string> {
  const names = [...op.queryParams, 'day', 'x'];
  const pair = fc.tuple(
    fc.constantFrom(...names),
    fc.oneof(
      fc.constantFrom('1', '0', '7', '8', ''),
      oddString.map((s) => encode(s.slice(0, 300))),
      fc.constantFrom('%', '%zz'),
    ),
  );
  return fc.array(pair, { maxLength: 4 }).map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));
}

function requestFor(op: Operation) {
  const params = fc.tuple(...op.pathParams.map(() => pathValue()));
  const payload = op.method === 'GET' ? fc.constant<Payload>({}) : op.multipart ? multipartPayload(op) : jsonPayload(op);
  return fc.record({ actor: fc.constantFrom<Actor>('anonymous', 'player', 'admin'), params, query: queryString(op), payload });
}

// ---- the check --------------------------------------------------------------------------------

async function tokenFor(op: Operation, actor: Actor): Promise<string | undefined> {
  const account = expendable[actor];
  if (account && op.path.startsWith('/api/auth/logout')) return (await startSession(gw.app.store.db, gw.app.tokens, account)).token;
  return tokens[actor];
}

async function send(op: Operation, input: { actor: Actor; params: string[]; query: string; payload: Payload }) {
  let i = 0;
  const path = op.path.replace(/\{[^}]+\}/g, () => input.params[i++] ?? '');
  const token = await tokenFor(op, input.actor);
  const headers: Record<string, string> = { ...input.payload.headers };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(gw.url + path + input.query, { method: op.method, headers, body: input.payload.body });
  const text = await res.text();
  sent += 1;
  byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1);
  perCall.set(`${op.method} ${op.path}`, (perCall.get(`${op.method} ${op.path}`) ?? 0) + 1);
  const what = `${op.method} ${path}${input.query} as ${input.actor} → ${res.status} ${text.slice(0, 300)}`;
  if (res.status >= 500) serverErrors += 1;
  expect(res.status, what).toBeLessThan(500);
  if (res.status >= 400) {
    expect(res.headers.get('content-type'), what).toMatch(/^application\/json/);
    const body = JSON.parse(text);
    expect(
      Object.keys(body).filter((k) => k !== 'message' && k !== 'errors'),
      what,
    ).toEqual([]);
    expect(typeof body.message === 'string' && body.message.trim().length > 0, what).toBe(true);
    if ('errors' in body) {
      expect(typeof body.errors === 'object' && body.errors !== null && !Array.isArray(body.errors), what).toBe(true);
      for (const message of Object.values(body.errors)) expect(typeof message === 'string' && message.length > 0, what).toBe(true);
    }
  }
}

describe('generated input to every documented call', () => {
  it('finds every call in /openapi.json', () => {
    expect(operations.length).toBeGreaterThanOrEqual(37);
  });

  it.each(operations.map((op, index) => [`${op.method} ${op.path}`, op, index] as const))(
    '%s: no 5xx, every refusal a 4xx with a message',
    async (_call, op, index) => {
      await fc.assert(
        fc.asyncProperty(requestFor(op), (input) => send(op, input)),
        { seed: SEED + index, numRuns: RUNS },
      );
    },
    120_000,
  );

  it('sent every call its share', () => {
    for (const [call, n] of perCall) expect(n, call).toBeGreaterThanOrEqual(RUNS);
  });
});

// Issue 16, item 2: the UTR rules under generated input. Strings built from digits of any length,
// spaces and dashes of several kinds, look-alike characters and other scripts' digits, one digit
// repeated, and a UTR another team holds; a model of the rules (written here, not imported) says what
// the gateway must answer, and what the team's stored reference must then be.
describe('generated UPI references: exactly the rules of decision 029', () => {
  const SEPARATORS = [' ', '  ', '-', '\t', '\u00a0', '\u2013', '\u2014'];
  const NOISE = ['.', '/', '+', '_', '#', ',', 'O', 'l', 'T', 'x', '\u0663', '\u096a', '\uff11', '\u0301', '😀', '\u200e'];
  const digits = (min: number, max: number) =>
    fc.array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max }).map((d) => d.join(''));
  /** What the rules make of a typed reference: the UTR, or why not. */
  function model(typed: string, held: string): { status: 200; utr: string } | { status: 400 | 409 } {
    let kept = typed;
    for (const s of SEPARATORS) kept = kept.split(s).join('');
    if (!/^[0-9]{12}$/.test(kept) || /^([0-9])\1*$/.test(kept)) return { status: 400 };
    return kept === held ? { status: 409 } : { status: 200, utr: kept };
  }

  it('accepts the 12-digit UTR written any way with spaces and dashes, and refuses the rest with a field error', async () => {
    const admin = tokens.admin!;
    const t = await createTournament(gw.api, admin);
    const [player, holder] = [await createUser(gw.api), await createUser(gw.api)];
    for (const p of [player, holder]) expect((await gw.api.post(`/registrations/${t.id}`, teamFields(), p.token)).status).toBe(201);
    const held = '734512098761';
    expect((await gw.api.post(`/registrations/${t.id}/payment`, { upiReference: held }, holder.token)).status).toBe(200);

    const base = fc.oneof(
      { weight: 4, arbitrary: digits(12, 12) },
      { weight: 2, arbitrary: digits(0, 26) },
      { weight: 1, arbitrary: fc.constantFrom(...'0123456789').map((d) => d.repeat(12)) },
      { weight: 1, arbitrary: fc.constant(held) },
    );
    const typed = fc
      .tuple(
        base,
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(...SEPARATORS)), { maxLength: 5 }),
        fc.option(fc.tuple(fc.nat(), fc.constantFrom(...NOISE)), { freq: 3 }),
      )
      .map(([text, seps, noise]) => {
        const chars = Array.from(text);
        for (const [at, s] of [...seps, ...(noise ? [noise] : [])]) chars.splice(at % (chars.length + 1), 0, s);
        return chars.join('');
      });
    const outcomes = { 200: 0, 400: 0, 409: 0 };
    let current = '';
    await fc.assert(
      fc.asyncProperty(typed, async (upiReference) => {
        const expected = model(upiReference, held);
        const res = await gw.api.post(`/registrations/${t.id}/payment`, { upiReference }, player.token);
        const what = `${JSON.stringify(upiReference)} → ${res.status} ${JSON.stringify(res.body)}`;
        expect(res.status, what).toBe(expected.status);
        outcomes[expected.status] += 1;
        if (expected.status === 200) {
          current = expected.utr;
          expect(res.body.paymentReference, what).toBe(current);
        } else {
          expect(Object.keys(res.body.errors ?? {}), what).toEqual(['upiReference']);
        }
        expect((await gw.api.get(`/registrations/${t.id}`, player.token)).body.paymentReference, what).toBe(current);
      }),
      { seed: SEED, numRuns: Math.min(RUNS, 400) },
    );
    console.log(
      `fuzz UTR: ${Object.values(outcomes).reduce((a, b) => a + b, 0)} generated references: ${outcomes[200]} accepted, ${outcomes[400]} refused as malformed, ${outcomes[409]} refused as taken`,
    );
    expect(outcomes[200]).toBeGreaterThan(0);
    expect(outcomes[400]).toBeGreaterThan(0);
    expect(outcomes[409]).toBeGreaterThan(0);
    // The holder's UTR never moved.
    expect((await gw.api.get(`/registrations/${t.id}`, holder.token)).body.paymentReference).toBe(held);
  }, 120_000);
});
