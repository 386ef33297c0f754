// The registration rush, shared by `npm run bench:rush` and the cluster test (scripts/test-cluster.mjs):
// players sign up and log in through the web app's own forms, then all post the team registration
// form of one tournament at once. Everything goes over plain HTTP to a web URL (the web server, or nginx
// in front of several), as a browser without JavaScript would send it.
import crypto from 'node:crypto';
import http from 'node:http';

/** Each simulated player has an address of its own (10.77.x.y), sent as X-Forwarded-For to a web app that trusts loopback. */
export const playerAddress = (i) => `10.77.${(i + 1) >> 8}.${(i + 1) & 255}`;

/** One HTTP/1.1 request on its own connection (a player is a browser of its own); never throws on a status. */
export function post(url, { form, cookie, address, method = 'POST', timeoutMs = 30_000 } = {}) {
  const target = new URL(url);
  const body = form ? new URLSearchParams(form).toString() : undefined;
  const headers = { accept: 'text/html', 'user-agent': 'rush-bench' };
  if (body !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    headers['content-length'] = Buffer.byteLength(body);
    // What a browser sends with a same-origin form post (the web server checks them, decisions 020, 036).
    headers.origin = target.origin;
    headers['sec-fetch-site'] = 'same-origin';
  }
  if (cookie) headers.cookie = cookie;
  if (address) headers['x-forwarded-for'] = address;
  return new Promise((resolve) => {
    const started = performance.now();
    const req = http.request(target, { method, headers, agent: false, timeout: timeoutMs }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode,
          headers: res.headers,
          text: Buffer.concat(chunks).toString('utf8'),
          ms: performance.now() - started,
        }),
      );
      res.on('error', (err) => resolve({ status: 0, error: err.code || err.message, ms: performance.now() - started }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => resolve({ status: 0, error: err.code || err.message, ms: performance.now() - started }));
    req.end(body);
  });
}

export const get = (url, options = {}) => post(url, { ...options, method: 'GET' });

/** name=value of each Set-Cookie, to send back. */
function cookiesOf(res) {
  const set = res.headers?.['set-cookie'] ?? [];
  return set.map((c) => c.split(';')[0]);
}

/** Runs fn over items with at most `limit` at a time. */
export async function pool(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await fn(items[i], i);
      }
    }),
  );
  return results;
}

/** n players with unique accounts; tag keeps several runs on one database apart. */
export function makePlayers(n, tag = crypto.randomBytes(2).toString('hex')) {
  const runDigits = String(parseInt(tag, 16) % 10_000).padStart(4, '0');
  return Array.from({ length: n }, (_, i) => ({
    i,
    email: `rush-${tag}-${i}@test.example`,
    phone: `8${runDigits}${String(i).padStart(5, '0')}`,
    username: `r${tag}_${i}`,
    password: `rush-${tag}-pass-${i}`,
    address: playerAddress(i),
    team: {
      teamName: `Rush ${tag} ${i}`,
      player1Username: `a${tag}_${i}`,
      player2Username: `b${tag}_${i}`,
      player3Username: `c${tag}_${i}`,
      player4Username: `d${tag}_${i}`,
      substitute1Username: '',
      substitute2Username: '',
    },
    cookie: '',
  }));
}

/**
 * Signs each player up (POST /register) and logs in (POST /login) through the web app, `concurrency`
 * at a time (each costs an argon2 hash at the gateway). Sets player.cookie. Throws on any failure.
 */
export async function signUpAndLogIn(webUrl, players, { concurrency = 4, onProgress } = {}) {
  let done = 0;
  // Setup is not what is measured: an answer the gateway could not give in time (503, on a loaded
  // machine) is tried again, as a player would. A sign-up that went through although its answer was
  // lost is found by the login.
  const retrying = async (what, fn, ok) => {
    let last;
    for (let attempt = 0; attempt < 6; attempt++) {
      last = await fn();
      if (ok(last) || (last.status !== 503 && last.status !== 0)) return last;
      await new Promise((r) => setTimeout(r, 500 * (attempt + 1)));
    }
    return last;
  };
  await pool(players, concurrency, async (p) => {
    const signUp = await retrying(
      'sign-up',
      () =>
        post(`${webUrl}/register`, {
          form: { email: p.email, phone: p.phone, username: p.username, password: p.password, redirectTo: '' },
          address: p.address,
        }),
      (r) => r.status === 302,
    );
    const login = await retrying(
      'login',
      () => post(`${webUrl}/login`, { form: { emailOrPhone: p.email, password: p.password, redirectTo: '/' }, address: p.address }),
      (r) => r.status === 302,
    );
    const session = cookiesOf(login).find((c) => c.startsWith('__session='));
    if (login.status !== 302 || !session) {
      throw new Error(
        `rush: ${p.username}: sign-up answered ${signUp.status} ${signUp.error ?? ''}, login ${login.status} ${login.error ?? ''} ${(signUp.text ?? '').replace(/\s+/g, ' ').slice(0, 200)}`,
      );
    }
    p.cookie = session;
    done++;
    if (onProgress && done % 100 === 0) onProgress(done);
  });
}

const FULL_MESSAGE = /Registration is full/;

/**
 * Every player posts the registration form at once. Each answer is classified:
 * accepted (302 to /payment?rid=…), full (an HTML page saying "Registration is full"), or error (anything else).
 */
export async function rush(webUrl, tournamentId, players) {
  const t0 = performance.now();
  const answers = await Promise.all(
    players.map((p) =>
      post(`${webUrl}/register/${tournamentId}`, { form: p.team, cookie: p.cookie, address: p.address, timeoutMs: 60_000 }),
    ),
  );
  const wallMs = performance.now() - t0;
  return { wallMs, results: answers.map((a, i) => ({ player: players[i], ...a, kind: classify(a) })) };
}

export function classify(a) {
  if (a.status === 302 && /^\/payment\?rid=\d+$/.test(a.headers.location ?? '')) return 'accepted';
  if ((a.status === 409 || a.status === 200) && FULL_MESSAGE.test(a.text ?? '')) return 'full';
  return 'error';
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Counts and latencies of a rush's results. */
export function summarise(results) {
  const by = (kind) => results.filter((r) => r.kind === kind);
  const accepted = by('accepted');
  const ms = (rs) => rs.map((r) => r.ms).sort((a, b) => a - b);
  const acc = ms(accepted);
  const all = ms(results);
  const errors = by('error');
  const errorKinds = {};
  for (const e of errors) {
    const key = e.status ? `HTTP ${e.status}` : e.error;
    errorKinds[key] = (errorKinds[key] ?? 0) + 1;
  }
  return {
    accepted: accepted.length,
    full: by('full').length,
    errors: errors.length,
    errorKinds,
    acceptedP50: percentile(acc, 50),
    acceptedP90: percentile(acc, 90),
    acceptedP99: percentile(acc, 99),
    acceptedMax: acc.at(-1) ?? null,
    allP50: percentile(all, 50),
    allP99: percentile(all, 99),
    allMax: all.at(-1) ?? null,
  };
}

/** The flash message an accepted player sees on the page the redirect leads to. */
export async function acceptedPageSaysSo(webUrl, result) {
  const cookies = [result.player.cookie, ...cookiesOf(result).filter((c) => !c.startsWith('__session='))];
  const session = cookiesOf(result).find((c) => c.startsWith('__session=')) ?? result.player.cookie;
  cookies[0] = session;
  const page = await get(`${webUrl}${result.headers.location}`, { cookie: cookies.join('; '), address: result.player.address });
  return (
    page.status === 200 && page.text.includes(`${result.player.team.teamName.replace(/&/g, '&amp;')}</`) && /is registered/.test(page.text)
  );
}

/** Every player still signed in: a page only a signed-in player sees answers 200, not a redirect to /login. */
export async function stillSignedIn(webUrl, players, concurrency = 16) {
  const out = await pool(players, concurrency, (p) => get(`${webUrl}/my-tournaments`, { cookie: p.cookie, address: p.address }));
  return out
    .map((r, i) => ({ player: players[i].username, status: r.status, location: r.headers?.location, error: r.error }))
    .filter((r) => r.status !== 200);
}

/**
 * What the database holds for the tournament: rows, distinct users, distinct team names (SQLite file
 * or PostgreSQL URL), read directly, not through the gateway.
 */
export async function registrationsInDatabase({ databaseUrl, sqliteFile }, tournamentId) {
  const query =
    'select count(*) as n, count(distinct user_id) as users, count(distinct team_name_lower) as teams from registrations where tournament_id = ';
  if (databaseUrl) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query(query + '$1', [tournamentId]);
      const igns = await client.query('select count(*) as n from registration_igns where tournament_id = $1', [tournamentId]);
      return { rows: Number(rows[0].n), users: Number(rows[0].users), teams: Number(rows[0].teams), igns: Number(igns.rows[0].n) };
    } finally {
      await client.end();
    }
  }
  const { default: SQLite } = await import('better-sqlite3');
  const db = new SQLite(sqliteFile, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare(query + '?').get(tournamentId);
    const igns = db.prepare('select count(*) as n from registration_igns where tournament_id = ?').get(tournamentId);
    return { rows: Number(row.n), users: Number(row.users), teams: Number(row.teams), igns: Number(igns.n) };
  } finally {
    db.close();
  }
}

/** The gateway's view: the admin's team list and the tournament's registeredTeams. */
export async function registrationsAtGateway(gatewayUrl, admin, tournamentId) {
  const json = async (res) => {
    if (!res.ok) throw new Error(`rush: ${res.url} answered ${res.status}`);
    return res.json();
  };
  const { token } = await json(
    await fetch(`${gatewayUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ emailOrPhone: admin.email, password: admin.password }),
    }),
  );
  const teams = await json(
    await fetch(`${gatewayUrl}/registrations/tournament/${tournamentId}`, { headers: { authorization: `Bearer ${token}` } }),
  );
  const t = await json(await fetch(`${gatewayUrl}/tournaments/${tournamentId}`));
  return { teams, registeredTeams: t.registeredTeams, maxTeams: t.maxTeams };
}

/** A tournament open for registration with `slots` teams at most, created by the admin through the gateway. */
export async function createTournament(gatewayUrl, admin, { slots, name }) {
  const login = await fetch(`${gatewayUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ emailOrPhone: admin.email, password: admin.password }),
  });
  if (!login.ok) throw new Error(`rush: admin login answered ${login.status}`);
  const { token } = await login.json();
  const day = 86_400_000;
  const iso = (ms) => new Date(Date.now() + ms).toISOString();
  const fields = {
    name,
    game: 'BGMI',
    description: 'Registration rush: many players press Register at the same moment.',
    startDate: iso(10 * day),
    endDate: iso(12 * day),
    registrationOpen: iso(-day),
    registrationClose: iso(9 * day),
    maxTeams: String(slots),
    format: 'Squad',
    platform: 'Mobile',
    entryFee: '50',
    prizePool: '₹10,000',
    status: 'Registration Ongoing',
    overview: 'Rush test.',
  };
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await fetch(`${gatewayUrl}/tournaments/add`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  if (!res.ok) throw new Error(`rush: creating the tournament answered ${res.status} ${await res.text()}`);
  return res.json();
}

/** The checks every rush must pass, as [name, ok, detail]. */
export function rushChecks({ summary, db, gw, slots, players }) {
  return [
    ['accepted = slots', summary.accepted === slots, `${summary.accepted}`],
    ['the rest answered full, with the message', summary.full === players - slots, `${summary.full}`],
    ['errors = 0', summary.errors === 0, `${summary.errors} ${JSON.stringify(summary.errorKinds)}`],
    ['database: rows = slots', db.rows === slots, `${db.rows}`],
    ['database: no user twice, no team name twice', db.users === db.rows && db.teams === db.rows, `${db.users} users, ${db.teams} names`],
    ['database: 4 IGNs per team', db.igns === 4 * db.rows, `${db.igns}`],
    ['gateway: registeredTeams = slots', gw.registeredTeams === slots, `${gw.registeredTeams}`],
    ['gateway: team list = slots', gw.teams.length === slots, `${gw.teams.length}`],
  ];
}
