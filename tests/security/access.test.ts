// Issue 10, access: every call the gateway documents, tried anonymously, as a player, as another
// player and as an admin, each with a valid body. Only the allowed ones succeed; room IDs and
// passwords reach only the teams of their tournament and admins.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDispute } from '../../gateway/src/db/disputes.js';
import { insertReport } from '../../gateway/src/db/reports.js';
import { storeScreenshot } from '../../gateway/src/db/screenshots.js';
import type { Mail } from '../../gateway/src/lib/mailer.js';
import { readScreenshot } from '../../gateway/src/lib/screenshots.js';
import {
  ADMIN,
  addLobbyTeams,
  adminToken,
  createAdmin,
  createTournament,
  createUser,
  loginAgain,
  pngImage,
  startGateway,
  teamFields,
  toForm,
  tournamentFields,
  unique,
  uniquePhone,
  type ApiResponse,
  type TestGateway,
  type TestUser,
} from './helpers.js';

type Actor = 'anonymous' | 'player' | 'other' | 'admin';
const ACTORS: Actor[] = ['anonymous', 'player', 'other', 'admin'];
type Expect = Record<Actor, number>;

/** Anyone, token or not. */
const PUBLIC = (s: number): Expect => ({ anonymous: s, player: s, other: s, admin: s });
/** Any signed-in account, about itself. */
const SIGNED_IN = (s: number): Expect => ({ anonymous: 401, player: s, other: s, admin: s });
/** The player's own team: another player and an admin have no team there, so it does not exist for them. */
const OWNER = (s: number): Expect => ({ anonymous: 401, player: s, other: 404, admin: 404 });
const ADMIN_ONLY = (s: number): Expect => ({ anonymous: 401, player: 403, other: 403, admin: s });

interface Caller {
  actor: Actor;
  /** The actor's token (none when anonymous). */
  token?: string;
  /** Another token of the same account (for calls that end the token they are sent with). */
  fresh(): Promise<string | undefined>;
  /** A token of a new account in the same role (for calls that change the whole account). */
  freshAccount(): Promise<string | undefined>;
}

interface Row {
  call: string;
  expect: Expect;
  send(c: Caller): Promise<ApiResponse>;
}

const ROOM_ID = `room-${unique()}`;
const ROOM_PASSWORD = `pw-${unique()}-secret`;

let gw: TestGateway;
let admin: string;
let player: TestUser; // registered a team in `tid`
let other: TestUser; // registered a team in another tournament, not in `tid`
let tid: number;
let rid: number;
let matchId: number;
let imageId: string;
let mails: Mail[] = [];

/** Every answer of the matrix, for the room-secret grep at the end. */
const answers: { call: string; actor: Actor; status: number; text: string }[] = [];

beforeAll(async () => {
  gw = await startGateway();
  gw.app.mailer.send = async (mail) => {
    mails.push(mail);
  };
  admin = await adminToken(gw.api);
  [player, other] = [await createUser(gw.api), await createUser(gw.api)];
  // Free: its registered team is confirmed and sees the room whatever the matrix does to its payment (decision 029).
  const form = toForm(tournamentFields({ entryFee: '0' }), [
    { name: 'coverImage', data: await pngImage(), filename: 'cover.png', type: 'image/png' },
  ]);
  const created = await gw.api.request('POST', '/tournaments/add', { token: admin, form });
  expect(created.status).toBe(200);
  tid = created.body.id;
  imageId = String(created.body.coverImageUrl).slice('/images/'.length, -'.webp'.length);
  const team = await gw.api.post(`/registrations/${tid}`, teamFields(), player.token);
  expect(team.status).toBe(201);
  rid = team.body.rid;
  const elsewhere = await createTournament(gw.api, admin);
  expect((await gw.api.post(`/registrations/${elsewhere.id}`, teamFields(), other.token)).status).toBe(201);
  // The other player's tournament has a room too: being registered somewhere is not enough.
  expect((await gw.api.post('/matches', matchBody(elsewhere.id, 1, 1, 'elsewhere-pw'), admin)).status).toBe(201);
  const match = await gw.api.post('/matches', { ...matchBody(tid, 1, 1), matchId: ROOM_ID, password: ROOM_PASSWORD }, admin);
  expect(match.status).toBe(201);
  matchId = match.body.id;
  expect((await gw.api.post('/api/profile/create', profileBody(), player.token)).status).toBe(201);
});
afterAll(() => gw?.stop());

function matchBody(t: number, day: number, matchNo: number, password = `pw-${unique()}`) {
  return { tid: t, day, matchNo, map: 'Erangel', matchId: `id-${unique()}`, password, time: '18:30' };
}

function profileBody() {
  return { fullName: 'Asha Rao', bio: 'IGL', gender: 'Female', dateOfBirth: '2001-02-03', location: 'Pune', profilePictureUrl: '' };
}

const newTournament = async () => (await createTournament(gw.api, admin)).id as number;

/** An unpaid team of a new paid tournament, registered by a new account: its rid (decision 043's organiser calls). */
async function someonesTeam(): Promise<number> {
  const t = (await createTournament(gw.api, admin, { entryFee: '100' })).id as number;
  const res = await gw.api.post(`/registrations/${t}`, teamFields(), (await createUser(gw.api)).token);
  if (res.status !== 201) throw new Error(`register: ${res.status}`);
  return res.body.rid;
}

/** A free tournament where the player's team is confirmed, with a first stage whose check-in window is open or closed. */
async function checkInStage(window: 'open' | 'closed'): Promise<{ tid: number; sid: number }> {
  const t = (await createTournament(gw.api, admin, { entryFee: '0' })).id as number;
  if ((await gw.api.post(`/registrations/${t}`, teamFields(), player.token)).status !== 201) throw new Error('register');
  const hour = 3_600_000;
  const [opens, closes] = window === 'open' ? [-hour, hour] : [-2 * hour, -hour];
  const stage = await gw.api.post(
    `/tournaments/${t}/stages`,
    {
      name: 'Qualifiers',
      checkInOpensAt: new Date(Date.now() + opens).toISOString(),
      checkInClosesAt: new Date(Date.now() + closes).toISOString(),
    },
    admin,
  );
  if (stage.status !== 201) throw new Error(`stage: ${stage.status} ${JSON.stringify(stage.body)}`);
  return { tid: t, sid: stage.body.id };
}
let nextMatchSlot = 0;
/** A free (day, match number) in `tid` for each match created by the matrix (the room match is day 1 match 1). */
const freeSlot = () => {
  nextMatchSlot += 1;
  return { day: 2 + Math.floor(nextMatchSlot / 6), matchNo: 1 + (nextMatchSlot % 6) };
};

async function resetToken(email: string): Promise<string> {
  mails = [];
  expect((await gw.api.post('/api/auth/password-reset/request', { email })).status).toBe(202);
  await gw.app.afterAnswer.settled(); // the mail is sent after the answer
  const link = mails.find((m) => m.to === email)?.text.match(/token=([^\s]+)/)?.[1];
  if (!link) throw new Error('no reset mail');
  return decodeURIComponent(link);
}

/** A report form of the player's team with a screenshot. */
async function reportForm(): Promise<FormData> {
  const fields = { position: '1', player1: 'someone', finishes1: '2' };
  return toForm(fields, [{ name: 'screenshot', data: await pngImage(), filename: 'result.png', type: 'image/png' }]);
}

/** A statement of one credit (issue 31), fresh bytes each time: the same bytes again would be the same statement. */
function statementForm(): FormData {
  const form = new FormData();
  form.append('statement', new Blob([`UTR,Amount\n${String(Date.now()).slice(-9)}${crypto.randomInt(100, 999)},50\n`]), 'statement.csv');
  return form;
}
let oddStatementId: number | undefined;
/** A statement whose columns are still to be picked: verifying from it is refused (409) once access lets the call through. */
async function oddStatement(): Promise<number> {
  if (oddStatementId) return oddStatementId;
  const form = new FormData();
  form.append('statement', new Blob(['Kab;Rashi\n28-11-2026;50\n']), 'odd.csv');
  const res = await gw.api.request('POST', `/tournaments/${tid}/statements`, { token: admin, form });
  if (res.status !== 201 || res.body.state !== 'needs-columns') throw new Error(`odd statement: ${res.status} ${JSON.stringify(res.body)}`);
  oddStatementId = res.body.id as number;
  return oddStatementId;
}
let statementId: number | undefined;
/** The admin's statement of `tid`, uploaded once through the API. */
async function statement(): Promise<number> {
  if (statementId) return statementId;
  const res = await gw.api.request('POST', `/tournaments/${tid}/statements`, { token: admin, form: statementForm() });
  if (res.status !== 201) throw new Error(`statement upload: ${res.status} ${JSON.stringify(res.body)}`);
  statementId = res.body.id as number;
  return statementId;
}

let proofs: { reportId: number; disputeId: number } | undefined;
/**
 * The player's team's report of day 1 match 1 and its dispute about itself, each with a screenshot, written
 * through the repository (the match has not started on the real clock, so the API would refuse them). A
 * fresh dispute when `fresh` (resolving one ends it).
 */
async function proof(fresh = false): Promise<{ reportId: number; disputeId: number }> {
  if (proofs && !fresh) return proofs;
  const shot = await readScreenshot(await pngImage());
  const at = new Date().toISOString();
  const by = { id: player.id, username: player.username };
  const written = await gw.app.store.writeTransaction(async (trx) => {
    await storeScreenshot(trx, shot, at);
    const match = { tournamentId: tid, groupId: 0, day: 1, match: fresh ? 2 + Math.floor(Math.random() * 1e6) : 1 };
    const reportId = fresh
      ? 0
      : await insertReport(trx, match, rid, { position: 1, finishes: 0, players: [], screenshotId: shot.id, newScreenshot: true, by }, at);
    const disputeId = await insertDispute(trx, match, { by: rid, about: rid, reason: 'Wrong.', screenshotId: shot.id, filedBy: by }, at);
    return { reportId, disputeId };
  });
  if (!fresh) proofs = written;
  return written;
}

const req = (method: string, path: string, c: Caller, options: { json?: unknown; form?: FormData } = {}) =>
  gw.api.request(method, path, { token: c.token, ...options });

const ROWS: Row[] = [
  { call: 'GET /healthz', expect: PUBLIC(200), send: (c) => req('GET', '/healthz', c) },
  { call: 'GET /.well-known/jwks.json', expect: PUBLIC(200), send: (c) => req('GET', '/.well-known/jwks.json', c) },
  { call: 'GET /generation', expect: PUBLIC(200), send: (c) => req('GET', '/generation', c) },
  {
    call: 'POST /api/auth/register',
    expect: PUBLIC(201),
    send: (c) => {
      const u = unique();
      return req('POST', '/api/auth/register', c, {
        json: { email: `m${u}@test.example`, phone: uniquePhone(), username: `m_${u}`.slice(0, 20), password: 'correct horse battery' },
      });
    },
  },
  {
    call: 'POST /api/auth/login',
    expect: PUBLIC(200),
    send: (c) => req('POST', '/api/auth/login', c, { json: { emailOrPhone: player.email, password: player.password } }),
  },
  {
    call: 'POST /api/auth/logout',
    expect: SIGNED_IN(200),
    send: async (c) => req('POST', '/api/auth/logout', { ...c, token: await c.fresh() }),
  },
  {
    call: 'POST /api/auth/logout-all',
    expect: SIGNED_IN(200),
    send: async (c) => req('POST', '/api/auth/logout-all', { ...c, token: await c.freshAccount() }),
  },
  { call: 'GET /api/auth/me', expect: SIGNED_IN(200), send: (c) => req('GET', '/api/auth/me', c) },
  {
    call: 'POST /api/auth/password-reset/request',
    expect: PUBLIC(202),
    send: (c) => req('POST', '/api/auth/password-reset/request', c, { json: { email: `nobody${unique()}@test.example` } }),
  },
  {
    call: 'POST /api/auth/password-reset/confirm',
    expect: PUBLIC(200),
    send: async (c) => {
      const someone = await createUser(gw.api);
      return req('POST', '/api/auth/password-reset/confirm', c, {
        json: { token: await resetToken(someone.email), password: 'a brand new password' },
      });
    },
  },
  // Profiles are the caller's own: no id in the path, so "another player" only ever sees their own (none).
  { call: 'GET /api/profile/get', expect: OWNER(200), send: (c) => req('GET', '/api/profile/get', c) },
  {
    call: 'POST /api/profile/create',
    expect: SIGNED_IN(201),
    send: async (c) => req('POST', '/api/profile/create', { ...c, token: await c.freshAccount() }, { json: profileBody() }),
  },
  {
    call: 'PUT /api/profile/update',
    expect: OWNER(200),
    send: (c) => req('PUT', '/api/profile/update', c, { json: { ...profileBody(), bio: 'Fragger' } }),
  },
  { call: 'GET /tournaments', expect: PUBLIC(200), send: (c) => req('GET', '/tournaments', c) },
  { call: 'GET /tournaments/admin/summary', expect: ADMIN_ONLY(200), send: (c) => req('GET', '/tournaments/admin/summary', c) },
  { call: 'GET /tournaments/{id}', expect: PUBLIC(200), send: (c) => req('GET', `/tournaments/${tid}`, c) },
  {
    call: 'POST /tournaments/add',
    expect: ADMIN_ONLY(200),
    send: (c) => req('POST', '/tournaments/add', c, { form: toForm(tournamentFields()) }),
  },
  {
    call: 'PUT /tournaments/admin/update/{id}',
    expect: ADMIN_ONLY(200),
    send: async (c) =>
      req('PUT', `/tournaments/admin/update/${await newTournament()}`, c, {
        form: toForm(tournamentFields({ name: `Renamed ${unique()}` })),
      }),
  },
  {
    call: 'DELETE /tournaments/admin/delete{id}',
    expect: ADMIN_ONLY(200),
    send: async (c) => req('DELETE', `/tournaments/admin/delete${await newTournament()}`, c),
  },
  { call: 'GET /images/{imageId}-{width}.webp', expect: PUBLIC(200), send: (c) => req('GET', `/images/${imageId}-400.webp`, c) },
  { call: 'GET /images/{imageId}.webp', expect: PUBLIC(200), send: (c) => req('GET', `/images/${imageId}.webp`, c) },
  { call: 'GET /images/{imageId}.jpg', expect: PUBLIC(200), send: (c) => req('GET', `/images/${imageId}.jpg`, c) },
  {
    call: 'POST /tournaments/{id}/points-table',
    expect: ADMIN_ONLY(200),
    send: (c) =>
      req('POST', `/tournaments/${tid}/points-table`, c, {
        json: { day: 1, match: 1, teamId: rid, teamName: 'x', position: 1, wins: 1, finishes: 0, totalPoints: 0 },
      }),
  },
  {
    call: 'PUT /tournaments/{id}/points-table/matches/{day}/{match}',
    expect: ADMIN_ONLY(200),
    send: (c) =>
      req('PUT', `/tournaments/${tid}/points-table/matches/1/2`, c, {
        json: { results: [{ teamId: rid, position: 1, wins: 1, finishes: 0 }] },
      }),
  },
  {
    call: 'GET /tournaments/{id}/points-table/results',
    expect: ADMIN_ONLY(200),
    send: (c) => req('GET', `/tournaments/${tid}/points-table/results?day=1&match=1`, c),
  },
  {
    call: 'GET /tournaments/{id}/points-table/day',
    expect: PUBLIC(200),
    send: (c) => req('GET', `/tournaments/${tid}/points-table/day?day=1`, c),
  },
  {
    call: 'GET /tournaments/{id}/points-table/overall',
    expect: PUBLIC(200),
    send: (c) => req('GET', `/tournaments/${tid}/points-table/overall`, c),
  },
  // Share images (issue 20, decision 049): public like the tables they draw.
  {
    call: 'GET /tournaments/{id}/points-table.png',
    expect: PUBLIC(200),
    send: (c) => req('GET', `/tournaments/${tid}/points-table.png?day=1`, c),
  },
  {
    call: 'GET /tournaments/{id}/points-table/players.png',
    expect: PUBLIC(200),
    send: (c) => req('GET', `/tournaments/${tid}/points-table/players.png`, c),
  },
  {
    call: 'GET /tournaments/{id}/slot-list.png',
    expect: PUBLIC(200),
    send: async (c) => {
      publishedStage ??= stageFixture('published');
      const f = await publishedStage;
      return req('GET', `/tournaments/${f.tid}/slot-list.png?group=${f.groups[0]}`, c);
    },
  },
  // Link previews (issue 20, decision 049): the og:image cards, public like the pages they preview.
  {
    call: 'GET /tournaments/{id}/card.png',
    expect: PUBLIC(200),
    send: (c) => req('GET', `/tournaments/${tid}/card.png`, c),
  },
  {
    call: 'GET /tournaments/{id}/points-card.png',
    expect: PUBLIC(200),
    send: (c) => req('GET', `/tournaments/${tid}/points-card.png?day=1`, c),
  },
  {
    call: 'GET /tournaments/{id}/points-table/breakdown',
    expect: PUBLIC(200),
    send: (c) => req('GET', `/tournaments/${tid}/points-table/breakdown?day=0`, c),
  },
  {
    call: 'GET /tournaments/{id}/points-table/days',
    expect: PUBLIC(200),
    send: (c) => req('GET', `/tournaments/${tid}/points-table/days`, c),
  },
  {
    call: 'GET /tournaments/{id}/points-table/history',
    expect: PUBLIC(200),
    send: (c) => req('GET', `/tournaments/${tid}/points-table/history`, c),
  },
  {
    call: 'POST /registrations/{tournamentId}',
    expect: SIGNED_IN(201),
    send: async (c) => req('POST', `/registrations/${await newTournament()}`, c, { json: teamFields() }),
  },
  { call: 'GET /registrations/{tournamentId}', expect: OWNER(200), send: (c) => req('GET', `/registrations/${tid}`, c) },
  {
    call: 'PUT /registrations/{tournamentId}',
    expect: OWNER(200),
    send: (c) => req('PUT', `/registrations/${tid}`, c, { json: teamFields() }),
  },
  { call: 'GET /registrations/user', expect: SIGNED_IN(200), send: (c) => req('GET', '/registrations/user', c) },
  {
    call: 'GET /registrations/tournament/{tournamentId}',
    expect: ADMIN_ONLY(200),
    send: (c) => req('GET', `/registrations/tournament/${tid}`, c),
  },
  {
    call: 'POST /registrations/{tournamentId}/payment',
    expect: OWNER(200),
    send: (c) => req('POST', `/registrations/${tid}/payment`, c, { json: { upiReference: '424242424201' } }),
  },
  {
    call: 'PUT /registrations/admin/payments',
    expect: ADMIN_ONLY(200),
    send: (c) => req('PUT', '/registrations/admin/payments', c, { json: { tournamentId: tid, rids: [rid], paymentStatus: 'pending' } }),
  },
  {
    call: 'POST /registrations/{tournamentId}/withdraw',
    expect: SIGNED_IN(200),
    send: async (c) => {
      const t = await newTournament();
      await req('POST', `/registrations/${t}`, c, { json: teamFields() });
      return req('POST', `/registrations/${t}/withdraw`, c);
    },
  },
  {
    call: 'POST /registrations/admin/{rid}/release',
    expect: ADMIN_ONLY(200),
    send: async (c) => req('POST', `/registrations/admin/${await someonesTeam()}/release`, c),
  },
  {
    call: 'POST /registrations/admin/{rid}/remove',
    expect: ADMIN_ONLY(200),
    send: async (c) => req('POST', `/registrations/admin/${await someonesTeam()}/remove`, c),
  },
  {
    call: 'POST /registrations/admin/{rid}/allow-return',
    expect: ADMIN_ONLY(200),
    send: async (c) => {
      const team = await someonesTeam();
      await gw.api.post(`/registrations/admin/${team}/remove`, {}, admin);
      return req('POST', `/registrations/admin/${team}/allow-return`, c);
    },
  },
  {
    call: 'PUT /registrations/admin/{rid}/payment',
    expect: ADMIN_ONLY(200),
    send: (c) => req('PUT', `/registrations/admin/${rid}/payment`, c, { json: { paymentStatus: 'pending' } }),
  },
  { call: 'GET /matches/tournament/{tournamentId}', expect: SIGNED_IN(200), send: (c) => req('GET', `/matches/tournament/${tid}`, c) },
  { call: 'GET /tournaments/{id}/schedule/mine', expect: SIGNED_IN(200), send: (c) => req('GET', `/tournaments/${tid}/schedule/mine`, c) },
  {
    call: 'POST /matches',
    expect: ADMIN_ONLY(201),
    send: (c) => {
      const s = freeSlot();
      return req('POST', '/matches', c, { json: matchBody(tid, s.day, s.matchNo) });
    },
  },
  {
    call: 'PUT /matches/{id}',
    expect: ADMIN_ONLY(200),
    send: (c) =>
      req('PUT', `/matches/${matchId}`, c, {
        json: { ...matchBody(tid, 1, 1), matchId: ROOM_ID, password: ROOM_PASSWORD, map: 'Miramar' },
      }),
  },
  // Stages (decision 041). Players are refused before anything is read, so they get any stage's path;
  // the admin gets a fresh stage in the state the call needs, so each admin call can succeed.
  { call: 'GET /tournaments/{id}/stages', expect: PUBLIC(200), send: (c) => req('GET', `/tournaments/${tid}/stages`, c) },
  {
    call: 'POST /tournaments/{id}/stages',
    expect: ADMIN_ONLY(201),
    send: async (c) =>
      req('POST', `/tournaments/${c.actor === 'admin' ? await newTournament() : tid}/stages`, c, {
        json: { name: 'Qualifiers', lobbySize: 4 },
      }),
  },
  stageRow('PUT', '', 'draft', () => ({ name: 'Group stage' })),
  stageRow('DELETE', '', 'draft'),
  stageRow('GET', '/entrants', 'draft'),
  stageRow('POST', '/invites', 'second', (f) => ({ teamId: f.teams[0] })),
  stageRow('DELETE', '/invites/{teamId}', 'invited'),
  stageRow('POST', '/groups', 'draft', () => ({ method: 'registration' })),
  stageRow('POST', '/slots', 'drawn', (f) => ({ from: { groupId: f.groups[0], slot: 1 }, to: { groupId: f.groups[1], slot: 1 } })),
  stageRow('POST', '/publish', 'drawn'),
  stageRow('GET', '/empty-slots', 'published'),
  {
    // Decision 052: a drawn team removed after publishing leaves its slot empty; a team without a slot fills it.
    call: 'POST /tournaments/{id}/stages/{stageId}/empty-slots',
    expect: ADMIN_ONLY(200),
    send: async (c) => {
      const f = c.actor === 'admin' ? await stageFixture('published') : await (anyStage ??= stageFixture('draft'));
      const path = `/tournaments/${f.tid}/stages/${f.sid}/empty-slots`;
      if (c.actor !== 'admin') return req('POST', path, c, { json: { groupId: 1, slot: 1, teamId: f.teams[0] } });
      const [late] = await addLobbyTeams(gw, f.tid, 1);
      const stage = (await gw.api.get(`/tournaments/${f.tid}/stages`, admin)).body[0];
      const leaver = stage.groups[0].slots[0];
      await gw.api.post(`/registrations/admin/${leaver.teamId}/remove`, {}, admin);
      return req('POST', path, c, { json: { groupId: stage.groups[0].id, slot: leaver.slot, teamId: late!.rid } });
    },
  },
  stageRow('GET', '/advance', 'published'),
  stageRow('POST', '/complete', 'published', (f) => ({ notPlayed: f.matches })),
  stageRow('POST', '/reopen', 'completed'),
  stageRow('POST', '/matches', 'drawn', () => ({ matches: [{ day: 1, matchNo: 1, map: 'Erangel', time: '18:30' }] })),
  stageRow('PUT', '/rooms', 'scheduled', (f) => ({ rooms: f.matches.map((id) => ({ id, matchId: `r-${id}`, password: `p-${id}` })) })),
  {
    call: 'POST /tournaments/{id}/stages/{stageId}/check-in',
    expect: OWNER(200),
    send: async (c) => {
      const f = await checkInStage('open');
      return req('POST', `/tournaments/${f.tid}/stages/${f.sid}/check-in`, c);
    },
  },
  {
    call: 'GET /tournaments/{id}/stages/{stageId}/check-ins',
    expect: ADMIN_ONLY(200),
    send: async (c) => {
      const f = await checkInStage('open');
      return req('GET', `/tournaments/${f.tid}/stages/${f.sid}/check-ins`, c);
    },
  },
  {
    call: 'POST /tournaments/{id}/stages/{stageId}/no-shows',
    expect: ADMIN_ONLY(200),
    send: async (c) => {
      const f = await checkInStage('closed');
      return req('POST', `/tournaments/${f.tid}/stages/${f.sid}/no-shows`, c, { json: { action: 'leave' } });
    },
  },
  // Notifications (decision 044): the caller's own list and phones; failed deliveries for the organiser.
  { call: 'GET /notifications', expect: SIGNED_IN(200), send: (c) => req('GET', '/notifications', c) },
  { call: 'GET /notifications/unread-count', expect: SIGNED_IN(200), send: (c) => req('GET', '/notifications/unread-count', c) },
  { call: 'POST /notifications/read', expect: SIGNED_IN(200), send: (c) => req('POST', '/notifications/read', c, { json: {} }) },
  { call: 'GET /push/public-key', expect: PUBLIC(200), send: (c) => req('GET', '/push/public-key', c) },
  { call: 'POST /push/subscribe', expect: SIGNED_IN(201), send: (c) => req('POST', '/push/subscribe', c, { json: pushSubscription() }) },
  {
    call: 'POST /push/unsubscribe',
    expect: SIGNED_IN(200),
    // The caller's own phone (an unsubscribe that removes nothing answers 404, issue 27 item 13).
    send: async (c) => {
      const phone = pushSubscription();
      await req('POST', '/push/subscribe', c, { json: phone });
      return req('POST', '/push/unsubscribe', c, { json: { endpoint: phone.endpoint } });
    },
  },
  {
    call: 'GET /tournaments/{id}/notifications/failed',
    expect: ADMIN_ONLY(200),
    send: (c) => req('GET', `/tournaments/${tid}/notifications/failed`, c),
  },
  // Issue 29 (decision 065): organisers and crews. The player and the other player run nothing here.
  { call: 'GET /organisers', expect: PUBLIC(200), send: (c) => req('GET', '/organisers', c) },
  {
    call: 'POST /organisers',
    expect: SIGNED_IN(201),
    // Each caller's new account applies (one organiser per account).
    send: async (c) => {
      const token = await c.freshAccount();
      return req('POST', '/organisers', { ...c, token }, { json: { name: `Applicant ${unique()}`, contact: 'reach@test.example' } });
    },
  },
  { call: 'GET /organisers/{slug}', expect: PUBLIC(200), send: (c) => req('GET', '/organisers/site', c) },
  {
    call: 'PUT /organisers/{slug}',
    expect: ADMIN_ONLY(200),
    send: (c) => req('PUT', '/organisers/site', c, { json: { name: 'Custom Room', contact: ADMIN.email } }),
  },
  {
    call: 'POST /organisers/{slug}/approve',
    expect: ADMIN_ONLY(200),
    send: async (c) => {
      const applicant = await createUser(gw.api);
      const applied = await gw.api.post('/organisers', { name: `Pending ${unique()}`, contact: applicant.email }, applicant.token);
      return req('POST', `/organisers/${applied.body.slug}/approve`, c, { json: { decision: 'approve' } });
    },
  },
  { call: 'GET /desk', expect: SIGNED_IN(200), send: (c) => req('GET', '/desk', c) },
  { call: 'GET /tournaments/{id}/staff/me', expect: SIGNED_IN(200), send: (c) => req('GET', `/tournaments/${tid}/staff/me`, c) },
  { call: 'GET /tournaments/{id}/staff', expect: ADMIN_ONLY(200), send: (c) => req('GET', `/tournaments/${tid}/staff`, c) },
  {
    call: 'POST /tournaments/{id}/staff',
    expect: ADMIN_ONLY(201),
    send: async (c) =>
      req('POST', `/tournaments/${tid}/staff`, c, { json: { who: (await createUser(gw.api)).username, role: 'payments' } }),
  },
  {
    call: 'DELETE /tournaments/{id}/staff/{userId}',
    expect: ADMIN_ONLY(200),
    send: async (c) => {
      const crew = await createUser(gw.api);
      await gw.api.post(`/tournaments/${tid}/staff`, { who: crew.username, role: 'payments' }, admin);
      return req('DELETE', `/tournaments/${tid}/staff/${crew.id}`, c);
    },
  },
  {
    call: 'POST /staff-invitations/{token}/accept',
    // An invitation of the player, to a tournament it does not play in: only the player accepts it.
    expect: { anonymous: 401, player: 200, other: 403, admin: 403 },
    send: async (c) => {
      const invited = await gw.api.post(`/tournaments/${await newTournament()}/staff`, { who: player.username, role: 'payments' }, admin);
      return req('POST', `/staff-invitations/${invited.body.token}/accept`, c, { json: {} });
    },
  },
  { call: 'GET /tournaments/{id}/activity', expect: ADMIN_ONLY(200), send: (c) => req('GET', `/tournaments/${tid}/activity`, c) },
  { call: 'GET /tournaments/{id}/announcements', expect: PUBLIC(200), send: (c) => req('GET', `/tournaments/${tid}/announcements`, c) },
  {
    call: 'POST /tournaments/{id}/announcements',
    expect: ADMIN_ONLY(201),
    send: (c) => req('POST', `/tournaments/${tid}/announcements`, c, { json: { body: 'Lobby opens 10 minutes early.' } }),
  },
  // Issue 30 (decision 071): reports, the lobby view, disputes. The match of `tid` has not started (real
  // time), so a team's report and dispute are refused with 409 after the access checks let it through.
  { call: 'GET /tournaments/{id}/reports/mine', expect: OWNER(200), send: (c) => req('GET', `/tournaments/${tid}/reports/mine`, c) },
  {
    call: 'POST /tournaments/{id}/reports/{day}/{match}',
    expect: { anonymous: 401, player: 409, other: 403, admin: 403 },
    send: async (c) => req('POST', `/tournaments/${tid}/reports/1/1`, c, { form: await reportForm() }),
  },
  {
    call: 'PUT /tournaments/{id}/reports/{day}/{match}',
    expect: { anonymous: 401, player: 409, other: 403, admin: 403 },
    send: async (c) => req('PUT', `/tournaments/${tid}/reports/1/1`, c, { form: await reportForm() }),
  },
  {
    call: 'GET /tournaments/{id}/reports/{day}/{match}',
    expect: ADMIN_ONLY(200),
    send: (c) => req('GET', `/tournaments/${tid}/reports/1/1`, c),
  },
  {
    call: 'GET /tournaments/{id}/reports/{reportId}/screenshot',
    // The team's own screenshot: its members and the staff only.
    expect: { anonymous: 401, player: 200, other: 403, admin: 200 },
    send: async (c) => req('GET', `/tournaments/${tid}/reports/${(await proof()).reportId}/screenshot`, c),
  },
  {
    call: 'POST /tournaments/{id}/reports/{day}/{match}/confirm',
    expect: ADMIN_ONLY(409), // not started yet
    send: (c) =>
      req('POST', `/tournaments/${tid}/reports/1/1/confirm`, c, { json: { results: [{ teamId: rid, position: 1, finishes: 0 }] } }),
  },
  {
    call: 'PUT /tournaments/{id}/reports/{day}/{match}/reporting',
    expect: ADMIN_ONLY(200),
    send: (c) => req('PUT', `/tournaments/${tid}/reports/1/1/reporting`, c, { json: { open: true } }),
  },
  {
    call: 'GET /tournaments/{id}/reports/settings',
    expect: ADMIN_ONLY(200),
    send: (c) => req('GET', `/tournaments/${tid}/reports/settings`, c),
  },
  {
    call: 'PUT /tournaments/{id}/reports/settings',
    expect: ADMIN_ONLY(200),
    send: (c) => req('PUT', `/tournaments/${tid}/reports/settings`, c, { json: { disputeMinutes: 15 } }),
  },
  {
    call: 'POST /tournaments/{id}/disputes',
    expect: { anonymous: 401, player: 409, other: 403, admin: 403 }, // the match is not confirmed
    send: (c) =>
      req('POST', `/tournaments/${tid}/disputes`, c, {
        form: toForm({ day: '1', match: '1', teamId: String(rid), reason: 'They were eliminated before us.' }),
      }),
  },
  {
    call: 'GET /tournaments/{id}/disputes',
    expect: { anonymous: 401, player: 200, other: 404, admin: 200 },
    send: (c) => req('GET', `/tournaments/${tid}/disputes`, c),
  },
  {
    call: 'GET /tournaments/{id}/disputes/{disputeId}/screenshot',
    expect: { anonymous: 401, player: 200, other: 403, admin: 200 },
    send: async (c) => req('GET', `/tournaments/${tid}/disputes/${(await proof()).disputeId}/screenshot`, c),
  },
  {
    call: 'POST /tournaments/{id}/disputes/{disputeId}/resolve',
    expect: ADMIN_ONLY(200),
    send: async (c) =>
      req('POST', `/tournaments/${tid}/disputes/${(await proof(true)).disputeId}/resolve`, c, {
        json: { action: 'dismiss', reason: 'It stands.' },
      }),
  },
  // Issue 31 (decision 081): statements, for the payments crew (here: the admin) only.
  {
    call: 'POST /tournaments/{id}/statements',
    expect: ADMIN_ONLY(201),
    send: (c) => req('POST', `/tournaments/${tid}/statements`, c, { form: statementForm() }),
  },
  { call: 'GET /tournaments/{id}/statements', expect: ADMIN_ONLY(200), send: (c) => req('GET', `/tournaments/${tid}/statements`, c) },
  {
    call: 'GET /tournaments/{id}/statements/{statementId}',
    expect: ADMIN_ONLY(200),
    send: async (c) => req('GET', `/tournaments/${tid}/statements/${await statement()}`, c),
  },
  {
    call: 'PUT /tournaments/{id}/statements/{statementId}/columns',
    expect: ADMIN_ONLY(200),
    send: async (c) =>
      req('PUT', `/tournaments/${tid}/statements/${await statement()}/columns`, c, { json: { columns: { reference: 0, amount: 1 } } }),
  },
  {
    call: 'POST /tournaments/{id}/statements/{statementId}/verify',
    expect: ADMIN_ONLY(409), // its columns are still to be picked
    send: async (c) =>
      req('POST', `/tournaments/${tid}/statements/${await oddStatement()}/verify`, c, { json: { rids: [rid], expectedUpiReferences: {} } }),
  },
  // Decision 082: refunds (the player's team is playing and unpaid: not owed one), and a team's own money.
  { call: 'GET /tournaments/{id}/refunds', expect: ADMIN_ONLY(200), send: (c) => req('GET', `/tournaments/${tid}/refunds`, c) },
  {
    call: 'POST /tournaments/{id}/refunds/{rid}',
    expect: ADMIN_ONLY(409),
    send: (c) => req('POST', `/tournaments/${tid}/refunds/${rid}`, c, { json: { upiReference: '456789012345' } }),
  },
  { call: 'GET /tournaments/{id}/prizes', expect: PUBLIC(200), send: (c) => req('GET', `/tournaments/${tid}/prizes`, c) },
  {
    call: 'PUT /tournaments/{id}/prizes',
    expect: ADMIN_ONLY(200),
    send: (c) => req('PUT', `/tournaments/${tid}/prizes`, c, { json: { ranks: [{ rank: 1, amount: 500 }], specials: [] } }),
  },
  { call: 'GET /tournaments/{id}/money', expect: ADMIN_ONLY(200), send: (c) => req('GET', `/tournaments/${tid}/money`, c) },
  { call: 'GET /tournaments/{id}/money/mine', expect: OWNER(200), send: (c) => req('GET', `/tournaments/${tid}/money/mine`, c) },
  // Decision 085: prize payouts (the tournament is not over: no winner yet, so writes that need one are 409).
  { call: 'GET /tournaments/{id}/payouts', expect: ADMIN_ONLY(200), send: (c) => req('GET', `/tournaments/${tid}/payouts`, c) },
  {
    call: 'PUT /tournaments/{id}/payouts/awards',
    expect: ADMIN_ONLY(200),
    send: (c) => req('PUT', `/tournaments/${tid}/payouts/awards`, c, { json: { awards: [] } }),
  },
  {
    call: 'POST /tournaments/{id}/payouts/remind',
    expect: ADMIN_ONLY(409),
    send: (c) => req('POST', `/tournaments/${tid}/payouts/remind`, c),
  },
  {
    call: 'POST /tournaments/{id}/payouts/{rid}',
    expect: ADMIN_ONLY(409),
    send: (c) => req('POST', `/tournaments/${tid}/payouts/${rid}`, c, { json: { upiReference: '456789012346' } }),
  },
  {
    call: 'PUT /tournaments/{id}/money/mine/payee',
    expect: OWNER(409),
    send: (c) => req('PUT', `/tournaments/${tid}/money/mine/payee`, c, { json: { upiId: 'captain@okaxis' } }),
  },
  {
    call: 'GET /tournaments/{id}/points-table/players',
    expect: PUBLIC(200),
    send: (c) => req('GET', `/tournaments/${tid}/points-table/players`, c),
  },
];

/** A browser's push subscription at a push service's address (decision 044; never called: no notification is sent here). */
function pushSubscription() {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `https://fcm.googleapis.com/fcm/send/${unique()}`,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: crypto.randomBytes(16).toString('base64url') },
  };
}

interface StageFixture {
  tid: number;
  sid: number;
  teams: number[];
  groups: number[];
  matches: number[];
}
type StageState = 'draft' | 'second' | 'invited' | 'drawn' | 'published' | 'completed' | 'scheduled';

/** A free tournament with 4 confirmed teams and a stage of lobby 2 in the state asked for ('second': a draft second stage after a completed first). */
async function stageFixture(state: StageState): Promise<StageFixture> {
  const t = (await createTournament(gw.api, admin, { entryFee: '0' })).id as number;
  const teams = (await addLobbyTeams(gw, t, 4)).map((team) => team.rid);
  const ok = async (res: Promise<ApiResponse>) => {
    const r = await res;
    if (r.status >= 300) throw new Error(`stage fixture: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const base = `/tournaments/${t}/stages`;
  let stage = await ok(gw.api.post(base, { name: 'Qualifiers', lobbySize: 2, advancePerGroup: 1 }, admin));
  const fixture: StageFixture = { tid: t, sid: stage.id, teams, groups: [], matches: [] };
  if (state === 'draft') return fixture;
  stage = await ok(gw.api.post(`${base}/${stage.id}/groups`, { method: 'registration' }, admin));
  fixture.groups = stage.groups.map((g: { id: number }) => g.id);
  if (state === 'drawn') return fixture;
  if (state === 'scheduled') {
    const matches = await ok(
      gw.api.post(`${base}/${stage.id}/matches`, { matches: [{ day: 1, matchNo: 1, map: 'Erangel', time: '18:30' }] }, admin),
    );
    fixture.matches = matches.map((m: { id: number }) => m.id);
    return fixture;
  }
  await ok(gw.api.post(`${base}/${stage.id}/publish`, {}, admin));
  // Issue 27: a stage completes with its matches' results, or them marked not played.
  const played = await ok(
    gw.api.post(`${base}/${stage.id}/matches`, { matches: [{ day: 1, matchNo: 1, map: 'Erangel', time: '18:30' }] }, admin),
  );
  fixture.matches = played.map((m: { id: number }) => m.id);
  if (state === 'published') return fixture;
  await ok(gw.api.post(`${base}/${stage.id}/complete`, { notPlayed: fixture.matches }, admin));
  if (state === 'completed') return fixture;
  const second = await ok(gw.api.post(base, { name: 'Final', lobbySize: 4 }, admin));
  fixture.sid = second.id;
  // The teams that did not qualify, first: the ones an organiser may invite.
  const entrants: number[] = (await ok(gw.api.get(`${base}/${second.id}/entrants`, admin))).map((e: { teamId: number }) => e.teamId);
  fixture.teams = [...teams.filter((id) => !entrants.includes(id)), ...entrants];
  if (state === 'invited') await ok(gw.api.post(`${base}/${second.id}/invites`, { teamId: fixture.teams[0] }, admin));
  return fixture;
}

let anyStage: Promise<StageFixture> | undefined;
let publishedStage: Promise<StageFixture> | undefined;

function stageRow(method: string, suffix: string, state: StageState, body?: (f: StageFixture) => unknown): Row {
  return {
    call: `${method} /tournaments/{id}/stages/{stageId}${suffix}`,
    expect: ADMIN_ONLY(method === 'POST' && suffix === '' ? 201 : 200),
    async send(c) {
      const f = c.actor === 'admin' ? await stageFixture(state) : await (anyStage ??= stageFixture('draft'));
      const path = `/tournaments/${f.tid}/stages/${f.sid}${suffix.replace('{teamId}', String(f.teams[0]))}`;
      return req(method, path, c, body ? { json: body(f) } : {});
    },
  };
}

/** Where the room ID and password may appear: the match list for its teams and admins, and admins' own match edits. */
const ROOM_SEEN_BY: Record<string, Actor[]> = {
  'GET /matches/tournament/{tournamentId}': ['player', 'admin'],
  'GET /tournaments/{id}/schedule/mine': ['player', 'admin'],
  'PUT /matches/{id}': ['admin'],
};

function caller(actor: Actor): Caller {
  switch (actor) {
    case 'anonymous':
      return { actor, fresh: async () => undefined, freshAccount: async () => undefined };
    case 'player':
    case 'other': {
      const user = actor === 'player' ? player : other;
      return { actor, token: user.token, fresh: () => loginAgain(gw, user), freshAccount: async () => (await createUser(gw.api)).token };
    }
    case 'admin':
      return { actor, token: admin, fresh: () => loginAgain(gw, ADMIN), freshAccount: async () => (await createAdmin(gw)).token };
  }
}

describe('access matrix: every documented gateway call, four callers', () => {
  it('has exactly one row for every call in /openapi.json (a new call without a row fails here)', async () => {
    const spec = (await gw.api.get('/openapi.json')).body;
    const documented = Object.entries<Record<string, unknown>>(spec.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const rows = ROWS.map((r) => r.call);
    expect(new Set(rows).size).toBe(rows.length);
    expect([...rows].sort()).toEqual([...documented].sort());
    expect(documented.length).toBeGreaterThanOrEqual(52);
  });

  it.each(ROWS.map((r) => [r.call, r] as const))('%s', async (call, row) => {
    const got: Partial<Expect> = {};
    for (const actor of ACTORS) {
      const res = await row.send(caller(actor));
      got[actor] = res.status;
      const text = Buffer.isBuffer(res.body)
        ? res.body.toString('latin1')
        : typeof res.body === 'string'
          ? res.body
          : JSON.stringify(res.body);
      answers.push({ call, actor, status: res.status, text });
      if (res.status >= 400) {
        expect(res.headers.get('content-type'), `${call} as ${actor}`).toMatch(/^application\/json/);
        expect(res.body, `${call} as ${actor}`).toEqual({ message: expect.stringMatching(/\S/) });
      }
    }
    expect(got).toEqual(row.expect);
  });

  it("left the player's team to the player: no refused call changed it, and nobody else lists it", async () => {
    const mine = await gw.api.get(`/registrations/${tid}`, player.token);
    expect(mine.status).toBe(200);
    expect(mine.body.rid).toBe(rid);
    for (const token of [other.token, admin]) {
      const theirs = await gw.api.get('/registrations/user', token);
      expect(theirs.body.map((r: { rid: number }) => r.rid)).not.toContain(rid);
    }
    const admins = await gw.api.get(`/registrations/tournament/${tid}`, admin);
    expect(admins.body.map((r: { rid: number }) => r.rid)).toEqual([rid]);
    expect((await gw.api.get('/api/profile/get', other.token)).status).toBe(404);
  });
});

describe('room ID and password', () => {
  it("go to the tournament's teams and admins only: anonymous 401, unregistered players null, registered player and admin the values", async () => {
    const path = `/matches/tournament/${tid}`;
    const anonymous = await gw.api.get(path);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: 'Please log in to continue.' });

    const stranger = await createUser(gw.api); // never registered anywhere
    for (const token of [other.token, stranger.token]) {
      const res = await gw.api.get(path, token);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(res.body.length).toBeGreaterThan(0);
      for (const m of res.body) expect(m).toMatchObject({ matchId: null, password: null });
    }
    for (const token of [player.token, admin]) {
      const res = await gw.api.get(path, token);
      expect(res.status).toBe(200);
      expect(res.body.find((m: { id: number }) => m.id === matchId)).toMatchObject({ matchId: ROOM_ID, password: ROOM_PASSWORD });
    }
  });

  it('appear in no other answer of the matrix', () => {
    expect(answers.length).toBe(ROWS.length * ACTORS.length);
    const leaks = answers
      .filter((a) => a.text.includes(ROOM_PASSWORD) || a.text.includes(ROOM_ID))
      .filter((a) => !(ROOM_SEEN_BY[a.call]?.includes(a.actor) && a.status < 300))
      .map((a) => `${a.call} as ${a.actor}`);
    expect(leaks).toEqual([]);
    // And they did appear where they belong, so the grep above can find them.
    const seen = answers.filter((a) => a.text.includes(ROOM_PASSWORD)).map((a) => `${a.call} as ${a.actor}`);
    expect(seen.sort()).toEqual([
      'GET /matches/tournament/{tournamentId} as admin',
      'GET /matches/tournament/{tournamentId} as player',
      'GET /tournaments/{id}/schedule/mine as admin',
      'GET /tournaments/{id}/schedule/mine as player',
      'PUT /matches/{id} as admin',
    ]);
  });
});

describe("captains' phone and email (decision 046)", () => {
  it('reach no answer but their own account’s and the organiser’s registrations list', () => {
    expect(answers.length).toBe(ROWS.length * ACTORS.length);
    // The 10 digits match both forms a phone takes (as typed, and stored as +91…).
    const contacts: Record<'player' | 'other' | 'admin', string[]> = {
      player: [player.email, player.phone.slice(-10)],
      other: [other.email, other.phone.slice(-10)],
      admin: [ADMIN.email, ADMIN.phone.slice(-10)],
    };
    const leaks = answers.flatMap((a) =>
      (Object.keys(contacts) as (keyof typeof contacts)[])
        .filter((owner) => owner !== a.actor && a.actor !== 'admin')
        .filter((owner) => contacts[owner].some((c) => a.text.includes(c)))
        .map((owner) => `${a.call} as ${a.actor} carries ${owner}'s contact`),
    );
    expect(leaks).toEqual([]);
    // The organiser does see the captain's contact, so the grep above can find it.
    const list = answers.find((a) => a.call === 'GET /registrations/tournament/{tournamentId}' && a.actor === 'admin');
    expect(list?.status).toBe(200);
    expect(list?.text).toContain(player.email);
    expect(list?.text).toContain(`+91${player.phone.slice(-10)}`);
  });
});
