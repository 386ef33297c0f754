// Seed data shared by the web benchmarks (bench-web.mjs, bench-lighthouse.mjs, bench-first-paint.mjs): 20 realistic tournaments
// with cover images, created through the gateway's API, and a signed-in player with a registered team and
// six matches with room details.
import sharp from 'sharp';
import { ADMIN } from '../../tests/e2e/support/stack.mjs';

export const TOURNAMENTS = 20;

export async function api(stack, method, path, { token, json, form } = {}) {
  const headers = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  let body;
  if (json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(json);
  } else if (form) body = form;
  const res = await fetch(stack.info.gatewayUrl + path, { method, headers, body });
  const text = await res.text();
  if (!res.ok) throw new Error(`bench: ${method} ${path} answered ${res.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : null;
}

const GAMES = ['BGMI', 'Free Fire'];
const MAPS = ['Erangel', 'Miramar', 'Sanhok', 'Vikendi', 'Bermuda', 'Purgatory', 'Kalahari'];

/**
 * 20 tournaments that look like real ones (names, prize text and descriptions of realistic length).
 * The default cover is one flat colour (a few hundred bytes); pass `cover` (PNG/JPEG bytes) for a real one.
 */
export async function seed(stack, { cover: coverImage } = {}) {
  const { token } = await api(stack, 'POST', '/api/auth/login', { json: { emailOrPhone: ADMIN.email, password: ADMIN.password } });
  const cover =
    coverImage ??
    (await sharp({ create: { width: 1600, height: 900, channels: 3, background: { r: 30, g: 70, b: 160 } } })
      .png()
      .toBuffer());
  const day = 86_400_000;
  const created = [];
  for (let i = 0; i < TOURNAMENTS; i++) {
    const game = GAMES[i % 2];
    const start = Date.now() + (10 + i) * day;
    const fields = {
      name: `${game} ${['Pro Scrims', 'Weekend Cup', 'City Clash', 'Campus League'][i % 4]} Season ${i + 3}`,
      game,
      description: `Squad custom rooms on ${MAPS[i % MAPS.length]} and ${MAPS[(i + 2) % MAPS.length]}. Open to all Indian players aged 16 and above; emulator players are not allowed.`,
      startDate: new Date(start).toISOString(),
      endDate: new Date(start + 2 * day).toISOString(),
      registrationOpen: new Date(Date.now() - day).toISOString(),
      registrationClose: new Date(start - day).toISOString(),
      maxTeams: String(16 + (i % 3) * 16),
      format: 'Squad',
      platform: 'Mobile',
      entryFee: String([0, 50, 100, 150, 250][i % 5]),
      prizePool: `₹${(5 + i) * 1000} + MVP ₹500`,
      status: i % 7 === 6 ? 'Registration Closed' : 'Registration Ongoing',
      overview: 'Three matches a day, BGIS points, room ID and password 15 minutes before each match.',
    };
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('coverImage', new Blob([new Uint8Array(cover)], { type: 'image/png' }), `cover-${i}.png`);
    created.push(await api(stack, 'POST', '/tournaments/add', { token, form }));
  }
  return created;
}

/** The session cookie of an account logged in through the web app's /login form. */
async function webCookie(stack, account) {
  const res = await fetch(`${stack.info.webUrl}/login`, {
    method: 'POST',
    body: new URLSearchParams({ emailOrPhone: account.email, password: account.password, redirectTo: '/' }),
    redirect: 'manual',
  });
  const cookie = res.headers.get('set-cookie')?.split(';')[0];
  if (res.status !== 302 || !cookie) throw new Error(`bench: web login answered ${res.status}`);
  return cookie;
}

/**
 * A registered player's session cookie (logged in through the web app's /login form), a team and six
 * matches with room details; and the cookie of a second player whose payment the organiser verified,
 * who sees those room details (decision 029: only confirmed teams do).
 */
export async function seedPlayer(stack, tournamentId) {
  const player = { email: 'bench-player@test.example', phone: '9123456780', username: 'bench_player', password: 'bench-player-pass' };
  await api(stack, 'POST', '/api/auth/register', { json: player });
  const { token } = await api(stack, 'POST', '/api/auth/login', { json: { emailOrPhone: player.email, password: player.password } });
  const team = await api(stack, 'POST', `/registrations/${tournamentId}`, {
    token,
    json: {
      teamName: 'Team Soul',
      player1Username: 'SouLMortaL',
      player2Username: 'SouLViper',
      player3Username: 'SouLRegaltos',
      player4Username: 'SouLOwais',
      substitute1Username: 'SouLRonak',
    },
  });
  const admin = await api(stack, 'POST', '/api/auth/login', { json: { emailOrPhone: ADMIN.email, password: ADMIN.password } });
  for (let day = 1; day <= 3; day++) {
    for (let matchNo = 1; matchNo <= 2; matchNo++) {
      await api(stack, 'POST', '/matches', {
        token: admin.token,
        json: {
          tid: tournamentId,
          day,
          matchNo,
          map: MAPS[(day + matchNo) % MAPS.length],
          matchId: String(7394020 + day * 10 + matchNo),
          password: `soul@${day}${matchNo}`,
          time: `${17 + matchNo}:30`,
        },
      });
    }
  }
  const confirmed = {
    email: 'bench-confirmed@test.example',
    phone: '9123456781',
    username: 'bench_confirmed',
    password: 'bench-player-pass',
  };
  await api(stack, 'POST', '/api/auth/register', { json: confirmed });
  const login = await api(stack, 'POST', '/api/auth/login', { json: { emailOrPhone: confirmed.email, password: confirmed.password } });
  const paidTeam = await api(stack, 'POST', `/registrations/${tournamentId}`, {
    token: login.token,
    json: {
      teamName: 'Team Verified',
      player1Username: 'VerMortal',
      player2Username: 'VerViper',
      player3Username: 'VerRegaltos',
      player4Username: 'VerOwais',
    },
  });
  const utr = '739402011234';
  await api(stack, 'POST', `/registrations/${tournamentId}/payment`, { token: login.token, json: { upiReference: utr } });
  await api(stack, 'PUT', `/registrations/admin/${paidTeam.rid}/payment`, {
    token: admin.token,
    json: { paymentStatus: 'verified', expectedUpiReference: utr },
  });
  return { cookie: await webCookie(stack, player), rid: team.rid, confirmedCookie: await webCookie(stack, confirmed) };
}

/**
 * A 1600×900 cover with the detail and weight of a real poster (gradients, shapes, fine grain): about
 * 40 KB as the 800 px WebP the gateway makes. A flat colour would be a few hundred bytes, and Chromium
 * does not count such a low-content image as the largest contentful paint at all.
 */
export async function posterCover() {
  const width = 1600;
  const height = 900;
  const shapes = Array.from({ length: 24 }, (_, i) => {
    const x = (i * 347) % width;
    const y = (i * 211) % height;
    const r = 40 + ((i * 53) % 160);
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="hsl(${(i * 37) % 360} 70% 55%)" fill-opacity="0.35"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#101a3a"/><stop offset="0.6" stop-color="#3a1f6b"/><stop offset="1" stop-color="#c2410c"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>${shapes}
    <polygon points="0,900 700,380 1600,900" fill="#0b1020" fill-opacity="0.6"/>
  </svg>`;
  const grain = await sharp({ create: { width, height, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 28 } } })
    .png()
    .toBuffer();
  return sharp(Buffer.from(svg))
    .composite([{ input: grain, blend: 'overlay' }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

/**
 * `count - 1` more teams (each its own player) in the tournament, and results for two matches of day 1,
 * so its points table has rows to rank.
 */
export async function seedPointsTable(stack, tournamentId, count = 16) {
  const admin = await api(stack, 'POST', '/api/auth/login', { json: { emailOrPhone: ADMIN.email, password: ADMIN.password } });
  const teams = (await api(stack, 'GET', `/registrations/tournament/${tournamentId}`, { token: admin.token })).map((t) => t.rid);
  for (let i = teams.length; i < count; i++) {
    const user = {
      email: `bench-team-${i}@test.example`,
      phone: `91000${String(i).padStart(5, '0')}`,
      username: `bench_team_${i}`,
      password: 'bench-team-pass',
    };
    await api(stack, 'POST', '/api/auth/register', { json: user });
    const { token } = await api(stack, 'POST', '/api/auth/login', { json: { emailOrPhone: user.email, password: user.password } });
    const p = `T${i}`;
    const team = await api(stack, 'POST', `/registrations/${tournamentId}`, {
      token,
      json: {
        teamName: `Squad ${MAPS[i % MAPS.length]} ${i}`,
        player1Username: `${p}Alpha`,
        player2Username: `${p}Bravo`,
        player3Username: `${p}Charlie`,
        player4Username: `${p}Delta`,
      },
    });
    teams.push(team.rid);
  }
  for (let match = 1; match <= 2; match++) {
    const results = teams.map((teamId, i) => ({
      teamId,
      position: ((i + match * 5) % teams.length) + 1,
      wins: (i + match * 5) % teams.length === 0 ? 1 : 0,
      finishes: (i * 3 + match) % 4, // at most 3 a team: within 4 × teams − 1 a match (issue 27 item 8)
    }));
    await api(stack, 'PUT', `/tournaments/${tournamentId}/points-table/matches/1/${match}`, { token: admin.token, json: { results } });
  }
}

/**
 * The seed of the page benchmarks (bench-lighthouse, bench-first-paint) and the six pages they open:
 * the 20 tournaments with poster covers, a signed-in player with a registered team in a paid
 * tournament, and that tournament's points table. The payment page carries the player's cookie, the
 * matches page (room details shown) that of the player whose payment is verified.
 */
export async function seedSixPages(stack) {
  const tournaments = await seed(stack, { cover: await posterCover() });
  const paid = tournaments.find((t) => t.entryFee > 0 && t.status === 'Registration Ongoing');
  const player = await seedPlayer(stack, paid.id);
  await seedPointsTable(stack, paid.id);
  return {
    tournaments,
    paidId: paid.id,
    playerCookie: player.cookie,
    pages: [
      { name: '/', path: '/' },
      { name: '/tournaments', path: '/tournaments' },
      { name: '/tournaments/{id}', path: `/tournaments/${paid.id}` },
      { name: '/tournaments/{id}/points-table', path: `/tournaments/${paid.id}/points-table` },
      { name: '/payment?rid={rid}', path: `/payment?rid=${player.rid}`, cookie: player.cookie },
      { name: '/tournament/{id}/matches', path: `/tournament/${paid.id}/matches`, cookie: player.confirmedCookie },
    ],
  };
}

/**
 * Issue 32's pages beside the six, at their real size: a 1,000-squad tournament whose stage of 40 groups is
 * drawn, published and scheduled (the squads written through the gateway's repository, as the rush benches
 * do: 1,000 sign-ups are not this seed's business), its stage page and a group page; the player's
 * /notifications; and the points page's per-match view (of the tournament with the points table: paidId).
 */
export async function seedNewPages(stack, { paidId, playerCookie }) {
  const { fileURLToPath, pathToFileURL } = await import('node:url');
  const { insertSquad, tournamentForm } = await import('./bench-helpers.mjs');
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const dist = (p) => pathToFileURL(`${root}gateway/dist/${p}`).href;
  const { openDatabase } = await import(dist('db/index.js'));
  const { insertUser } = await import(dist('db/users.js'));
  const { insertRegistration } = await import(dist('db/registrations.js'));
  const { bumpGeneration } = await import(dist('db/generation.js'));
  const { token } = await api(stack, 'POST', '/api/auth/login', { json: { emailOrPhone: ADMIN.email, password: ADMIN.password } });
  const t = await api(stack, 'POST', '/tournaments/add', {
    token,
    form: tournamentForm(1000, {
      name: 'BGMI Masters Series 1000',
      description: 'A 1,000-squad qualifier in 40 lobbies: the top 4 of each group go through to the next stage.',
      overview: 'Qualifiers in 40 groups of 25, then the semi-finals and the grand final.',
    }),
  });
  const store = await openDatabase({ dataDir: stack.info.dataDir });
  try {
    await store.writeTransaction(async (trx) => {
      for (let i = 1; i <= 1000; i++)
        await insertSquad({ insertUser, insertRegistration }, trx, t.id, i, `Masters ${String(i).padStart(4, '0')}`);
      await bumpGeneration(trx, t.id);
    });
  } finally {
    await store.close();
  }
  const base = `/tournaments/${t.id}/stages`;
  const stage = await api(stack, 'POST', base, { token, json: { name: 'Qualifiers', lobbySize: 25, advancePerGroup: 4 } });
  const drawn = await api(stack, 'POST', `${base}/${stage.id}/groups`, { token, json: { method: 'registration' } });
  await api(stack, 'POST', `${base}/${stage.id}/matches`, {
    token,
    json: {
      matches: Array.from({ length: 6 }, (_, i) => ({
        day: 1 + Math.floor(i / 3),
        matchNo: 1 + (i % 3),
        map: MAPS[i % 3],
        time: `${18 + (i % 3)}:00`,
      })),
    },
  });
  await api(stack, 'POST', `${base}/${stage.id}/publish`, { token, json: {} });
  const group = drawn.groups[Math.floor(drawn.groups.length / 2)];
  return [
    { name: '/tournaments/{id}/stages (1,000 squads)', path: `/tournaments/${t.id}/stages` },
    {
      name: '/tournaments/{id}/stages/{stageId}/groups/{groupId} (1,000 squads)',
      path: `/tournaments/${t.id}/stages/${stage.id}/groups/${group.id}`,
    },
    { name: '/notifications', path: '/notifications', cookie: playerCookie },
    { name: '/tournaments/{id}/points-table?view=matches', path: `/tournaments/${paidId}/points-table?view=matches` },
  ];
}
