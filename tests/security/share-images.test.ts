// Issue 27 items 15 and 16 (decision 056), attacks on the share images:
// - a team name with a stack of combining marks ("Zalgo") is refused, naming the field;
// - one client asking for many distinct images cannot keep the renderer busy: the render queue is
//   bounded (503 with Retry-After when full) and each address may have only so many images drawn per
//   window (429 with Retry-After), while images already drawn are served to anyone;
// - `?group=` and `?stage=&group=` are one image, drawn once, and a wrong stage is still refused.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { MAX_MARKS_PER_LETTER, nameText, TeamCreateSchema } from '@custom-room/contract';
import { imageWork } from '../../gateway/src/lib/images.js';
import { shareImageStats } from '../../gateway/src/lib/share-image.js';
import {
  addLobbyTeams,
  adminToken,
  createPlayersDirect,
  createTournament,
  startGateway,
  teamFields,
  type ApiResponse,
  type TestGateway,
  type TestUser,
} from './helpers.js';

const marks = (n: number) => Array.from({ length: n }, (_, i) => String.fromCodePoint(0x0300 + (i % 0x60))).join('');
const tooMany = (label: string) => `${label} has too many accents or marks on one letter (at most ${MAX_MARKS_PER_LETTER}).`;

describe('combining marks in names (item 15)', () => {
  let gw: TestGateway;
  let admin: string;
  let player: TestUser;
  beforeAll(async () => {
    gw = await startGateway();
    admin = await adminToken(gw.api);
    [player] = await createPlayersDirect(gw.app.store, gw.app.tokens, 1);
  });
  afterAll(() => gw?.stop());

  it('refuses 39 combining marks on one letter in a team name or IGN, naming the field; written scripts pass', async () => {
    const zalgo = `Te${marks(39)}am`;
    const base = teamFields();
    const bad = TeamCreateSchema.safeParse({ ...base, teamName: zalgo, player2Username: `Zed${marks(6)}` });
    expect(bad.success).toBe(false);
    const errors = Object.fromEntries(bad.error!.issues.map((i) => [String(i.path[0]), i.message]).reverse());
    expect(errors.teamName).toBe(tooMany('Team name'));
    expect(errors.player2Username).toBe(tooMany('Player 2 IGN'));
    expect(nameText('Name', 100).safeParse(`Cup ${marks(5)}`).error?.issues[0]?.message).toBe(tooMany('Name'));

    // Real names stack a few: Thai vowel + tone, Devanagari conjuncts and signs, Vietnamese, Tibetan stacks.
    for (const name of ['ทีมเสือดำ', 'क्षत्रिय योद्धा', 'Đội Rồng Việt', 'སྒྲུབ་པ', `Max${marks(MAX_MARKS_PER_LETTER)} Squad`]) {
      expect(TeamCreateSchema.safeParse({ ...base, teamName: name }).success, name).toBe(true);
    }

    const tournament = await createTournament(gw.api, admin, { entryFee: '0' });
    const res = await gw.api.post(`/registrations/${tournament.id}`, { ...base, teamName: zalgo }, player!.token);
    expect([res.status, res.body.errors]).toEqual([400, { teamName: tooMany('Team name') }]);
    expect((await gw.api.get(`/registrations/${tournament.id}`, player!.token)).status).toBe(404);
  });
});

/** A tournament with results on days 1 to 5: six distinct points images (Overall and each day). */
async function tournamentWithDays(gw: TestGateway, admin: string) {
  const t = await createTournament(gw.api, admin, { entryFee: '0', maxTeams: '100', pointsSystem: 'bmps-15' });
  const teams = await addLobbyTeams(gw, t.id, 4);
  for (let day = 1; day <= 5; day++) {
    const results = teams.map((team, i) => ({ teamId: team.rid, position: ((i + day) % teams.length) + 1, finishes: i }));
    const res = await gw.api.put(`/tournaments/${t.id}/points-table/matches/${day}/1`, { results }, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  return t.id as number;
}

describe('the render queue is bounded (item 16)', () => {
  let gw: TestGateway;
  let admin: string;
  beforeAll(async () => {
    gw = await startGateway({ SHARE_RENDER_QUEUE_MAX: '2' });
    admin = await adminToken(gw.api);
  });
  afterAll(() => gw?.stop());

  it('answers 503 with Retry-After when the queue is full, and draws the image when asked again', async () => {
    const tid = await tournamentWithDays(gw, admin);
    // The one image slot held by other work (a cover upload, say): the share renders queue behind it.
    let release!: () => void;
    const held = imageWork(() => new Promise<void>((resolve) => (release = resolve)));
    onTestFinished(() => release()); // whatever happens here, the slot is freed for the tests after
    const urls = ['', '?day=1', '?day=2', '?day=3', '?day=4', '?day=5'].map((q) => `/tournaments/${tid}/points-table.png${q}`);
    // Two renders fit the queue and wait there while the slot is held; the other four are answered now.
    const refused: ApiResponse[] = [];
    let fourAnswered!: () => void;
    const answeredNow = new Promise<void>((resolve) => (fourAnswered = resolve));
    const settled = urls.map((url) =>
      gw.api.get(url).then((res) => {
        if (refused.push(res) === 4) fourAnswered();
        return res;
      }),
    );
    await answeredNow;
    expect(refused.map((r) => r.status)).toEqual([503, 503, 503, 503]);
    for (const r of refused) {
      expect(r.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(r.headers.get('cache-control')).toBe('no-store');
      expect(r.body.message).toMatch(/try again in \d+ seconds/);
    }
    release();
    await held;
    const all = await Promise.all(settled);
    expect(all.filter((r) => r.status === 200)).toHaveLength(2);
    // Asked again, each refused image is drawn.
    for (const url of urls) expect((await gw.api.get(url)).status).toBe(200);
  });
});

describe('renders per client (item 16)', () => {
  let gw: TestGateway;
  let admin: string;
  beforeAll(async () => {
    gw = await startGateway({ RATE_LIMIT: 'on', SHARE_RENDER_CLIENT_MAX: '3' });
    admin = await adminToken(gw.api);
  });
  afterAll(() => gw?.stop());

  it('one address may have only so many new images drawn; drawn images are served to anyone, other addresses draw theirs', async () => {
    const tid = await tournamentWithDays(gw, admin);
    const from = (ip: string, query: string) =>
      gw.api.request('GET', `/tournaments/${tid}/points-table.png${query}`, { headers: { 'x-forwarded-for': ip } });
    const renders = shareImageStats.renders;
    for (const q of ['', '?day=1', '?day=2']) expect((await from('203.0.113.7', q)).status).toBe(200);
    const limited = await from('203.0.113.7', '?day=3');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(limited.headers.get('cache-control')).toBe('no-store');
    expect(shareImageStats.renders - renders).toBe(3);
    // Equivalent URLs are the same image: day=0 is Overall, already drawn.
    expect((await from('203.0.113.7', '?day=0')).status).toBe(200);
    expect((await from('203.0.113.7', '?day=1')).status).toBe(200);
    // Another address: its own renders, and the ones already drawn.
    expect((await from('198.51.100.20', '?day=3')).status).toBe(200);
    expect((await from('198.51.100.20', '?day=1')).status).toBe(200);
    // Once drawn, the limited address gets it too.
    expect((await from('203.0.113.7', '?day=3')).status).toBe(200);
    expect(shareImageStats.renders - renders).toBe(4);
  });
});

describe('equivalent URLs share one image (item 16)', () => {
  let gw: TestGateway;
  let admin: string;
  beforeAll(async () => {
    gw = await startGateway();
    admin = await adminToken(gw.api);
  });
  afterAll(() => gw?.stop());

  it('?group= and ?stage=&group= are drawn once and answer the same bytes; another stage with the group is 404', async () => {
    const t = await createTournament(gw.api, admin, { entryFee: '0', maxTeams: '100', pointsSystem: 'bmps-15' });
    await addLobbyTeams(gw, t.id, 8);
    const stage = await gw.api.post(`/tournaments/${t.id}/stages`, { name: 'Qualifiers', lobbySize: 4, advancePerGroup: 2 }, admin);
    expect(stage.status, JSON.stringify(stage.body)).toBe(201);
    const other = await gw.api.post(`/tournaments/${t.id}/stages`, { name: 'Final', lobbySize: 4 }, admin);
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    const drawn = await gw.api.post(`/tournaments/${t.id}/stages/${stage.body.id}/groups`, { method: 'registration' }, admin);
    expect(drawn.status, JSON.stringify(drawn.body)).toBe(200);
    expect((await gw.api.post(`/tournaments/${t.id}/stages/${stage.body.id}/publish`, {}, admin)).status).toBe(200);
    const group = drawn.body.groups[0].id;

    for (const kind of ['points-table.png', 'points-card.png']) {
      const renders = shareImageStats.renders;
      const [a, b] = await Promise.all([
        gw.api.get(`/tournaments/${t.id}/${kind}?group=${group}`),
        gw.api.get(`/tournaments/${t.id}/${kind}?stage=${stage.body.id}&group=${group}&day=0`),
      ]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(b.headers.get('etag')).toBe(a.headers.get('etag'));
      expect((b.body as Buffer).equals(a.body as Buffer)).toBe(true);
      expect(shareImageStats.renders - renders).toBe(1);
      // Cached under the group: the stage is still checked.
      expect((await gw.api.get(`/tournaments/${t.id}/${kind}?stage=${other.body.id}&group=${group}`)).status).toBe(404);
      expect((await gw.api.get(`/tournaments/${t.id}/${kind}?stage=${stage.body.id}&group=${group}`)).status).toBe(200);
      expect(shareImageStats.renders - renders).toBe(1);
    }
  });
});
