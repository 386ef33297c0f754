// Issue 29 (decision 069): "My groups", a lobby manager's page: its groups only, each group's next match with
// its room form (one match per post), check-in and the way to the results; /admin lands a lobby manager there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tournamentJson } from '../support';
import { captureLogs } from '../support/logs';
import { renderPage } from '../support/render';
import {
  besidesDesk,
  cookieOf,
  json,
  startGatewayStub,
  thrown,
  unwrap,
  useStubEnv,
  type GatewayStub,
  type SeenRequest,
} from './support/gateway-stub';

let stub: GatewayStub;
let page: typeof import('~/routes/admin.$tournamentId.my-groups/route');
let landing: typeof import('~/routes/admin._index');
let hub: typeof import('~/routes/admin.$tournamentId._index');
let results: typeof import('~/routes/admin.$tournamentId.stages.$stageId_.results');
let session: typeof import('~/utils/session.server');

beforeAll(async () => {
  stub = await startGatewayStub();
  await useStubEnv(stub);
  page = await import('~/routes/admin.$tournamentId.my-groups/route');
  landing = await import('~/routes/admin._index');
  hub = await import('~/routes/admin.$tournamentId._index');
  results = await import('~/routes/admin.$tournamentId.stages.$stageId_.results');
  session = await import('~/utils/session.server');
});
afterAll(() => stub.close());

const URL_PAGE = 'http://localhost/admin/5/my-groups';
const PARAMS = { tournamentId: '5' };
const slot = (s: number, teamId: number) => ({ slot: s, teamId, teamName: `Team ${teamId}` });
const GROUP_A = { id: 31, name: 'A', slots: [slot(1, 101), slot(2, 102)] };
const GROUP_B = { id: 32, name: 'B', slots: [slot(1, 103), slot(2, 104)] };
const STAGE = {
  id: 7,
  tid: 5,
  name: 'Qualifiers',
  order: 1,
  lobbySize: 2,
  firstSlot: 1,
  advancePerGroup: 1,
  advanceBest: 0,
  state: 'published',
  draw: { method: 'random', seed: 'abc', drawnAt: '2026-12-01T10:00:00.000Z' },
  entrants: 4,
  hasResults: false,
  groupGap: 0,
  groupMatches: { scheduled: 4, withResults: 0, notPlayed: 0 },
  groups: [GROUP_B, GROUP_A],
  checkIn: { opensAt: '2099-03-05T10:00:00.000Z', closesAt: '2099-03-05T12:00:00.000Z', noShows: null },
};
/** Group matches as a lobby manager of group A gets them: its rooms, none of group B's. */
const match = (id: number, day: number, matchNo: number, group: { id: number; name: string }, room: string | null = null) => ({
  id,
  tid: 5,
  day,
  matchNo,
  map: 'Erangel',
  matchId: room,
  password: room ? 'pw-a' : room,
  time: matchNo === 1 ? '18:00:00' : '19:00:00',
  groupId: group.id,
  groupName: group.name,
  stageId: 7,
  stageName: 'Qualifiers',
});
const MATCHES = [match(902, 1, 2, GROUP_A, ''), match(901, 1, 1, GROUP_A, '4455667'), match(903, 1, 1, GROUP_B), match(904, 1, 2, GROUP_B)];
const CHECK_INS = {
  stageId: 7,
  opensAt: STAGE.checkIn.opensAt,
  closesAt: STAGE.checkIn.closesAt,
  closed: false,
  noShows: null,
  // The gateway keeps a lobby manager's groups' teams only.
  teams: [
    { teamId: 101, teamName: 'Team 101', state: 'checked-in', checkedInAt: '2099-03-05T10:05:00.000Z' },
    { teamId: 102, teamName: 'Team 102', state: 'open', checkedInAt: null },
  ],
};
const desk = (kind: string) => ({ organiser: null, siteAdmin: false, tournaments: [{ id: 5, name: 'Lobby Cup', kind }], invitations: [] });
const LOBBY_A = { kind: 'lobby', scopes: [{ stageId: 7, groupId: 31 }] };

type Route = (req: SeenRequest) => [number, unknown];
function routes(table: Record<string, Route>) {
  stub.answer((req, res) => {
    const key = `${req.method} ${req.url.split('?')[0]}`;
    const route = table[key];
    if (!route) return json(res, 404, { message: `no stub for ${key}` });
    const [status, body] = route(req);
    json(res, status, body);
  });
}
/** The gateway as a lobby manager sees it; the tournament starts far ahead, so day 1 match 1 is the next match. */
const lobbyRoutes = (standing: unknown = LOBBY_A, extra: Record<string, Route> = {}) =>
  routes({
    'GET /desk': () => [200, desk('lobby')],
    'GET /tournaments/5/staff/me': () => [200, standing],
    'GET /tournaments/5': () => [200, tournamentJson({ id: 5, name: 'Lobby Cup', startDate: '2099-03-05T12:30:00.000Z' })],
    'GET /tournaments/5/stages': () => [200, [STAGE]],
    'GET /matches/tournament/5': () => [200, MATCHES],
    'GET /tournaments/5/stages/7/check-ins': () => [200, CHECK_INS],
    ...extra,
  });

async function crewCookie() {
  const token = await stub.token({ username: 'lobby_lee', roles: ['ROLE_USER'] });
  return cookieOf(await session.createUserSession(new Request('http://localhost/login'), token, 'lobby_lee', '/'));
}
const args = (request: Request, params: Record<string, string> = PARAMS) => ({ request, params, context: {} });
const get = async (url: string) => new Request(url, { headers: { cookie: await crewCookie() } });
const post = async (fields: [string, string][], url = URL_PAGE) =>
  new Request(url, {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'http://localhost',
      'sec-fetch-site': 'same-origin',
      cookie: await crewCookie(),
    },
  });
const flashOf = async (res: Response) =>
  (await session.readFlash(new Request('http://localhost/', { headers: { cookie: cookieOf(res) } }))).message;

describe('My groups for a lobby manager', () => {
  it('shows its group only, the next match with the room already set, the group’s check-in and its results link', async () => {
    lobbyRoutes();
    const before = stub.seen.length;
    const loaded = (await page.loader(args(await get(URL_PAGE)))) as any;
    // Only reads a lobby manager may make: no registrations, entrants, advance or empty slots.
    expect(
      besidesDesk(stub.seen.slice(before))
        .map((r) => r.url.split('?')[0])
        .sort(),
    ).toEqual([
      '/matches/tournament/5',
      '/tournaments/5',
      '/tournaments/5/staff/me',
      '/tournaments/5/stages',
      '/tournaments/5/stages/7/check-ins',
    ]);
    expect(loaded.lobby).toBe(true);
    expect(loaded.groups.map((g: { name: string }) => g.name)).toEqual(['A']);
    const [a] = loaded.groups;
    expect(a.shown).toMatchObject({ id: 901, what: 'Next match', label: 'Day 1 · Match 1', room: '4455667', pw: 'pw-a' });
    expect(a.matches.map((m: { label: string }) => m.label)).toEqual(['D1 M1', 'D1 M2']);
    expect(a.results).toEqual([{ href: '/admin/5/stages/7/results?day=1&match=1&group=31', label: 'D1 M1' }]);
    expect(a.checkIn).toMatchObject({ known: true, total: 2, checkedIn: ['Team 101'], waiting: ['Team 102'], closed: false });

    const html = await renderPage(page.default, loaded, URL_PAGE);
    expect(html).toContain('<h1 id="my-groups-title">My groups</h1>');
    expect(html).not.toMatch(/Group B|Team 103/);
    // Every field labelled (the group in the label for a screen reader), the room already set shown in it.
    expect(html).toMatch(/<label for="room\.901">Room ID<span class="visually-hidden">, group A<\/span><\/label>/);
    expect(html).toMatch(/<label for="pw\.901">Password<span class="visually-hidden">, group A<\/span><\/label>/);
    expect(html).toMatch(/<input id="room\.901" name="room\.901" type="text" inputMode="numeric"[^>]*value="4455667"/);
    expect(html).toMatch(/<form method="post"[^>]*>\s*<input type="hidden" name="stageId" value="7"\/>/);
    expect(html).toContain('Not checked in yet: Team 102.');
    expect(html).toContain('href="/admin/5/stages/7/results?day=1&amp;match=1&amp;group=31"');
  });

  it('shows a chosen match (?group=&match=) with the results of the one before it', async () => {
    lobbyRoutes();
    const loaded = (await page.loader(args(await get(`${URL_PAGE}?group=31&match=1-2`)))) as any;
    const [a] = loaded.groups;
    expect(a.shown).toMatchObject({ id: 902, what: 'Chosen match', room: '' });
    expect(a.pinned).toBe('1-2');
    expect(a.results.map((r: { label: string }) => r.label)).toEqual(['D1 M2', 'D1 M1']);
    const html = await renderPage(page.default, loaded, URL_PAGE);
    expect(html).toContain('<input type="hidden" name="pinned" value="1-2"/>');
    expect(html).toContain('Save room');
  });

  it('a whole-stage scope is every group of the stage (A, B order)', async () => {
    lobbyRoutes({ kind: 'lobby', scopes: [{ stageId: 7, groupId: null }] });
    const loaded = (await page.loader(args(await get(URL_PAGE)))) as any;
    expect(loaded.groups.map((g: { name: string }) => g.name)).toEqual(['A', 'B']);
  });

  it('posts only its match’s room, then redirects to the page with the message (no JavaScript needed)', async () => {
    lobbyRoutes(LOBBY_A, {
      'PUT /tournaments/5/stages/7/rooms': () => [200, [{ ...MATCHES[1], matchId: '1112223', password: 'new-pw' }, MATCHES[0]]],
    });
    const res = (await page.action(
      args(
        await post([
          ['stageId', '7'],
          ['room.901', ' 1112223 '],
          ['pw.901', 'new-pw'],
        ]),
      ),
    )) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/admin/5/my-groups#group-31');
    expect(await flashOf(res)).toBe('Room saved for Group A, day 1 match 1');
    const puts = stub.seen.filter((r) => r.method === 'PUT');
    expect(puts.at(-1)).toMatchObject({
      url: '/tournaments/5/stages/7/rooms',
      body: { rooms: [{ id: 901, matchId: '1112223', password: 'new-pw' }] },
    });
  });

  it('keeps a chosen match after saving it', async () => {
    lobbyRoutes(LOBBY_A, { 'PUT /tournaments/5/stages/7/rooms': () => [200, MATCHES] });
    const res = (await page.action(
      args(
        await post([
          ['stageId', '7'],
          ['pinned', '1-2'],
          ['room.902', '5'],
          ['pw.902', 'x'],
        ]),
      ),
    )) as Response;
    expect(res.headers.get('location')).toBe('/admin/5/my-groups?group=31&match=1-2#group-31');
  });

  it('shows the gateway’s refusal (403) in the form, keeping what was typed, the password too', async () => {
    lobbyRoutes(LOBBY_A, {
      'PUT /tournaments/5/stages/7/rooms': () => [403, { message: 'Only the staff of this group can do that.' }],
    });
    const refused = unwrap(
      await page.action(
        args(
          await post([
            ['stageId', '7'],
            ['room.901', '999'],
            ['pw.901', 'secret-9'],
          ]),
        ),
      ),
    );
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      values: { 'room.901': '999', 'pw.901': 'secret-9' },
      fieldErrors: {},
      formError: 'Only the staff of this group can do that.',
    });
    lobbyRoutes();
    const loaded = await page.loader(args(await get(URL_PAGE)));
    const html = await renderPage(page.default, loaded, URL_PAGE, refused.body);
    expect(html).toMatch(/role="alert"[\s\S]*Only the staff of this group can do that\./);
    expect(html).toMatch(/id="room\.901"[^>]*value="999"/);
    expect(html).toMatch(/id="pw\.901"[^>]*value="secret-9"/);
  });

  it('puts a too long room ID beside its field without calling the gateway; a post of two matches is refused', async () => {
    lobbyRoutes();
    const before = stub.seen.length;
    const long = unwrap(
      await page.action(
        args(
          await post([
            ['stageId', '7'],
            ['room.901', '1'.repeat(41)],
            ['pw.901', 'x'],
          ]),
        ),
      ),
    );
    expect(long.status).toBe(400);
    expect(Object.keys(long.body.fieldErrors)).toEqual(['room.901']);
    const loaded = await page.loader(args(await get(URL_PAGE)));
    const html = await renderPage(page.default, loaded, URL_PAGE, long.body);
    expect(html).toMatch(/<input id="room\.901"[^>]*aria-invalid="true" aria-describedby="room\.901-error"/);
    const two = unwrap(
      await page.action(
        args(
          await post([
            ['stageId', '7'],
            ['room.901', '1'],
            ['room.903', '2'],
          ]),
        ),
      ),
    );
    expect(two.status).toBe(400);
    expect(stub.seen.slice(before).filter((r) => r.method === 'PUT')).toEqual([]);
  });

  it('answers 503 when the gateway is down, and 403 to a crew member without the lobby right', async () => {
    const logs = captureLogs();
    const cookie = await get(URL_PAGE);
    stub.answer((req, res) => (req.url === '/desk' ? json(res, 200, desk('lobby')) : res.socket?.destroy()));
    const down = unwrap(await thrown(() => page.loader(args(cookie))));
    expect(down.status).toBe(503);
    expect(down.body.retry).toBe(true);
    expect(logs).toContainEqual(expect.objectContaining({ msg: 'gateway unreachable' }));

    lobbyRoutes({ kind: 'payments', scopes: [] });
    const refused = unwrap(await thrown(async () => page.loader(args(await get(URL_PAGE)))));
    expect(refused).toEqual({
      status: 403,
      body: { message: (await import('~/routes/admin.$tournamentId.my-groups/my-groups.server')).NOT_LOBBY },
    });
  });
});

describe('where a lobby manager lands', () => {
  it('/admin opens My groups of its one tournament; an organiser still lands on the tournament list', async () => {
    lobbyRoutes();
    const to = (await thrown(async () => landing.loader(args(await get('http://localhost/admin'), {})))) as Response;
    expect(to.headers.get('location')).toBe('/admin/5/my-groups');

    routes({
      'GET /desk': () => [200, { ...desk('lobby'), tournaments: [...desk('lobby').tournaments, { id: 6, name: 'B', kind: 'lobby' }] }],
    });
    const two = (await thrown(async () => landing.loader(args(await get('http://localhost/admin'), {})))) as Response;
    expect(two.headers.get('location')).toBe('/admin/manage-tournament');

    routes({ 'GET /desk': () => [200, desk('owner')] });
    const owner = (await thrown(async () => landing.loader(args(await get('http://localhost/admin'), {})))) as Response;
    expect(owner.headers.get('location')).toBe('/admin/manage-tournament');
  });

  it('the hub shows a lobby manager "My groups", and not the organiser’s tools', async () => {
    lobbyRoutes(LOBBY_A, {
      'GET /tournaments/admin/summary': () => [
        200,
        [
          {
            id: 5,
            name: 'Lobby Cup',
            game: 'BGMI',
            status: 'Ongoing',
            startDate: '2099-03-05T12:30:00.000Z',
            endDate: '2099-03-06T12:30:00.000Z',
            registrationClose: '2099-03-04T12:30:00.000Z',
            maxTeams: 12,
            entryFee: 0,
            pointsSystem: 'bgis-10',
            registeredTeams: 4,
            paymentsAwaiting: 0,
          },
        ],
      ],
    });
    const loaded = (await hub.loader(args(await get('http://localhost/admin/5')))) as any;
    expect(loaded.may).toEqual({ run: false, payments: false, announce: true, groups: true });
    const html = await renderPage(hub.default, loaded);
    expect(html).toContain('href="/admin/5/my-groups"');
    expect(html).not.toContain('href="/admin/5/stages"');
  });
});

describe('a group’s results page for a lobby manager', () => {
  it('lists only its groups, goes back to My groups, and does not ask for the registrations', async () => {
    lobbyRoutes(LOBBY_A, { 'GET /tournaments/5/points-table/results': () => [200, []] });
    const url = 'http://localhost/admin/5/stages/7/results?day=1&match=1&group=31';
    const before = stub.seen.length;
    const loaded = unwrap(await results.loader(args(await get(url), { tournamentId: '5', stageId: '7' })));
    expect(loaded.body.groups).toEqual([{ id: 31, name: 'A' }]);
    expect(loaded.body.back).toEqual({ to: '/admin/5/my-groups#group-31', label: 'My groups' });
    expect(stub.seen.slice(before).map((r) => r.url)).not.toContain('/registrations/tournament/5');
    const html = await renderPage(results.default, loaded.body, url);
    expect(html).toContain('href="/admin/5/my-groups#group-31"');
    expect(html).not.toContain('href="/admin/5/stages/7#results"');
    expect(html).not.toContain('aria-label="Groups of this match"');
  });
});
