// The reports benchmark's setup (scripts/bench-reports.mjs): an organiser's free BGMI tournament whose day 1
// has begun, its squads written through the built gateway's repository, each captain with a session signed
// by the gateway's own key, a stage of lobbies drawn, published and scheduled; and the reports each team will send.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { call, insertSquad, tournamentForm } from './bench-helpers.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = (p) => pathToFileURL(path.join(ROOT, 'gateway', 'dist', p)).href;
export const PASSWORD = 'bench-captain-password';

/** mulberry32: the same order and numbers on every run. */
export function prng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
export function shuffle(xs, random) {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
  return xs;
}

/** HH:MM in the zone, and an ISO instant: the match time that has just passed, on the tournament's day 1. */
function startedMinutesAgo(minutes, timeZone) {
  const at = Date.now() - minutes * 60_000;
  const hhmm = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
  return { startDate: new Date(at).toISOString(), time: hhmm };
}

/**
 * Every report of the run: per group and match, each team's placement (a shuffle of 1..25) and its
 * players' finishes (0–3 a team: the lobby's total stays under its players minus one), and the screen.
 */
export function plannedReports(groups, teamsById, match, random) {
  return groups.flatMap((g) => {
    const places = shuffle(
      Array.from({ length: g.slots.length }, (_, i) => i + 1),
      random,
    );
    return g.slots.map((slot, i) => {
      const team = teamsById.get(slot.teamId);
      const f = Math.floor(random() * 8);
      const players = team.igns.map((ign, n) => ({ ign, finishes: [f & 1, (f >> 1) & 1, 0, (f >> 2) & 1][n] }));
      return { group: g, team, match, position: places[i], players, seed: match * 100_000 + team.rid };
    });
  });
}

/** The organiser, the tournament whose day 1 has begun, its squads (with sessions), the drawn stage and its two matches. */
export async function seed(base, admin, store, { squads, groups: groupCount, lobby }) {
  const adminToken = (await call(base, 'POST', '/api/auth/login', { json: { emailOrPhone: admin.email, password: admin.password } })).token;
  const owner = { email: 'bench-owner@bench.example', phone: '9712345678', username: 'bench_owner', password: PASSWORD };
  await call(base, 'POST', '/api/auth/register', { json: owner });
  const ownerToken = (await call(base, 'POST', '/api/auth/login', { json: { emailOrPhone: owner.email, password: owner.password } })).token;
  const org = await call(base, 'POST', '/organisers', { token: ownerToken, json: { name: 'Bench Esports', contact: owner.email } });
  await call(base, 'POST', `/organisers/${org.slug}/approve`, { token: adminToken, json: { decision: 'approve' } });
  const timeZone = process.env.APP_TIME_ZONE || 'Asia/Kolkata';
  // Day 1 began 6 minutes ago and both matches with it: the gateway reads the real clock, so the
  // tournament is made to have started rather than the clock moved.
  const { startDate, time } = startedMinutesAgo(6, timeZone);
  const day = 86_400_000;
  const form = tournamentForm(squads, {
    name: 'BGMI Reports Bench Cup',
    description: 'Captains report, staff confirm.',
    overview: 'The reports benchmark.',
    startDate,
    endDate: new Date(Date.now() + 2 * day).toISOString(),
    registrationOpen: new Date(Date.now() - 3 * day).toISOString(),
    registrationClose: startDate,
    status: 'Registration Closed',
  });
  const tid = (await call(base, 'POST', '/tournaments/add', { token: ownerToken, form })).id;
  const teams = await seedSquads(store, tid, squads);
  const stagesUrl = `/tournaments/${tid}/stages`;
  const stage = await call(base, 'POST', stagesUrl, { token: ownerToken, json: { name: 'Qualifiers', lobbySize: lobby } });
  const { groups } = await call(base, 'POST', `${stagesUrl}/${stage.id}/groups`, { token: ownerToken, json: { method: 'registration' } });
  if (groups.length !== groupCount) throw new Error(`${groups.length} groups drawn, expected ${groupCount}`);
  await call(base, 'POST', `${stagesUrl}/${stage.id}/publish`, { token: ownerToken });
  const matches = [1, 2].map((matchNo) => ({ day: 1, matchNo, map: 'Erangel', time }));
  await call(base, 'POST', `${stagesUrl}/${stage.id}/matches`, { token: ownerToken, json: { matches } });
  return { tid, ownerToken, groups, teamsById: new Map(teams.map((t) => [t.rid, t])), time, timeZone };
}

/** The squads through the gateway's repository in one transaction, then a session for each captain. */
async function seedSquads(store, tid, squads) {
  const { insertUser } = await import(dist('db/users.js'));
  const { insertRegistration } = await import(dist('db/registrations.js'));
  const { bumpGeneration } = await import(dist('db/generation.js'));
  const { hashPassword } = await import(dist('lib/passwords.js'));
  const { createTokenService } = await import(dist('lib/tokens.js'));
  const { startSession } = await import(dist('lib/sessions.js'));
  const passwordHash = await hashPassword(PASSWORD);
  const teams = [];
  await store.handle.writeTransaction(async (trx) => {
    for (let i = 1; i <= squads; i++)
      teams.push(await insertSquad({ insertUser, insertRegistration }, trx, tid, i, undefined, passwordHash));
    await bumpGeneration(trx, tid);
  });
  // The gateway's key (it wrote it to DATA_DIR on start) and its default token lifetime.
  const tokens = await createTokenService({ dataDir: store.dataDir, ttlSeconds: 12 * 60 * 60 });
  for (const t of teams) {
    t.rid = Number(t.rid);
    t.token = (await startSession(store.handle.db, tokens, { id: t.userId, username: t.username, roles: ['ROLE_USER'] })).token;
  }
  return teams;
}

export async function openStore(databaseUrl, dataDir) {
  const { openDatabase } = await import(dist('db/index.js'));
  return { handle: await openDatabase({ databaseUrl, dataDir }), dataDir };
}
