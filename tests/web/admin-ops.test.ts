import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvCell, toCsv } from '~/utils/csv.server';
import { parseResultsForm } from '~/utils/results-entry.server';
import {
  besidesDesk,
  cookieOf,
  EMPTY_DESK,
  json,
  startGatewayStub,
  thrown,
  unwrap,
  useStubEnv,
  type GatewayStub,
  type SeenRequest,
} from './support/gateway-stub';

/** Issue 8's organiser screens: tournament list, matches, points entry, registrations and payments, CSV. */

let stub: GatewayStub;
let list: typeof import('~/routes/admin.tournament-list');
let matches: typeof import('~/routes/admin.$tournamentId.matches');
let points: typeof import('~/routes/admin.add-points.$tournamentId');
let registrations: typeof import('~/routes/admin.$tournamentId.registrations/route');
let csv: typeof import('~/routes/admin.$tournamentId.registrations[.csv]');
let session: typeof import('~/utils/session.server');

beforeAll(async () => {
  stub = await startGatewayStub();
  await useStubEnv(stub);
  list = await import('~/routes/admin.tournament-list');
  matches = await import('~/routes/admin.$tournamentId.matches');
  points = await import('~/routes/admin.add-points.$tournamentId');
  registrations = await import('~/routes/admin.$tournamentId.registrations/route');
  csv = await import('~/routes/admin.$tournamentId.registrations[.csv]');
  session = await import('~/utils/session.server');
});
afterAll(() => stub.close());

const TOURNAMENT = { id: 5, name: 'Lobby Cup', game: 'BGMI', startDate: '2026-12-10T12:30:00.000Z', maxTeams: 25, status: 'Ongoing' };
const team = (rid: number, teamName: string, extra: Record<string, unknown> = {}) => ({
  rid,
  tid: 5,
  teamName,
  player1Username: `p1_${rid}`,
  player2Username: `p2_${rid}`,
  player3Username: `p3_${rid}`,
  player4Username: `p4_${rid}`,
  substitute1Username: '',
  substitute2Username: '',
  paymentStatus: 'submitted',
  paymentReference: `UTR${rid}000000`,
  createdAt: '2026-03-05T13:00:00.000Z',
  username: `owner_${rid}`,
  ...extra,
});

async function cookieFor(roles: string[]) {
  const token = await stub.token({ username: roles.includes('ROLE_ADMIN') ? 'organiser' : 'player_one', roles });
  return cookieOf(await session.createUserSession(new Request('http://localhost/login'), token, 'x', '/'));
}
const adminCookie = () => cookieFor(['ROLE_USER', 'ROLE_ADMIN']);

async function get(url: string, cookie?: string) {
  return new Request(url, { headers: cookie ? { cookie } : {} });
}
/** A same-origin form post; fields as pairs so a name can repeat (ticked checkboxes). */
function post(url: string, fields: [string, string][], cookie?: string) {
  return new Request(url, {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: new URL(url).origin,
      'sec-fetch-site': 'same-origin',
      ...(cookie ? { cookie } : {}),
    },
  });
}
const args = (request: Request, params: Record<string, string> = {}) => ({ request, params, context: {} });

/** Routes the stub by method and path. */
function routes(table: Record<string, (req: SeenRequest) => [number, unknown]>) {
  stub.answer((req, res) => {
    const key = `${req.method} ${req.url.split('?')[0]}`;
    const route = table[key];
    if (!route) return json(res, 404, { message: `no stub for ${key}` });
    const [status, body] = route(req);
    json(res, status, body);
  });
}
const seen = (method: string, path: string) => stub.seen.filter((r) => r.method === method && r.url.split('?')[0] === path);

describe('admin screens: access', () => {
  const screens = (): {
    name: string;
    url: string;
    params: Record<string, string>;
    loader: (a: any) => unknown;
    action: ((a: any) => unknown) | null;
  }[] => [
    { name: 'tournament list', url: 'http://localhost/admin/tournament-list', params: {}, loader: list.loader, action: null },
    {
      name: 'matches',
      url: 'http://localhost/admin/5/matches',
      params: { tournamentId: '5' },
      loader: matches.loader,
      action: matches.action,
    },
    {
      name: 'points',
      url: 'http://localhost/admin/add-points/5?day=1&match=1',
      params: { tournamentId: '5' },
      loader: points.loader,
      action: points.action,
    },
    {
      name: 'registrations',
      url: 'http://localhost/admin/5/registrations',
      params: { tournamentId: '5' },
      loader: registrations.loader,
      action: registrations.action,
    },
    { name: 'csv', url: 'http://localhost/admin/5/registrations.csv', params: { tournamentId: '5' }, loader: csv.loader, action: null },
  ];

  it('send anonymous visitors and signed-in players to /login, coming back afterwards, without calling the gateway', async () => {
    const player = await cookieFor(['ROLE_USER']);
    stub.answer((_req, res) => json(res, 200, EMPTY_DESK)); // a player is only asked whether it has a desk
    const before = stub.seen.length;
    for (const screen of screens()) {
      const back = `/login?redirectTo=${encodeURIComponent(new URL(screen.url).pathname + new URL(screen.url).search)}`;
      for (const cookie of [undefined, player]) {
        const res = (await thrown(() =>
          screen.loader(args(new Request(screen.url, { headers: cookie ? { cookie } : {} }), screen.params)),
        )) as Response;
        expect(res.status, `${screen.name} loader`).toBe(302);
        expect(res.headers.get('location'), `${screen.name} loader`).toBe(back);
        if (screen.action) {
          const res2 = (await thrown(() =>
            screen.action!(args(post(screen.url, [['intent', 'verify-one']], cookie), screen.params)),
          )) as Response;
          expect(res2.status, `${screen.name} action`).toBe(302);
          expect(res2.headers.get('location')).toBe(back);
        }
      }
    }
    expect(besidesDesk(stub.seen.slice(before))).toEqual([]);
  });
});

describe('tournament list', () => {
  it('shows registered/max teams and payments awaiting verification from the admin summary', async () => {
    routes({
      'GET /tournaments/admin/summary': () => [
        200,
        [
          {
            ...TOURNAMENT,
            endDate: '2026-12-11T12:30:00.000Z',
            registrationClose: '2026-12-09T12:30:00.000Z',
            entryFee: 100,
            pointsSystem: 'bgis-10',
            registeredTeams: 18,
            paymentsAwaiting: 3,
            payments: { pending: 5, submitted: 3, verified: 9, rejected: 1 },
          },
        ],
      ],
    });
    const cookie = await adminCookie();
    const page = unwrap(await list.loader(args(await get('http://localhost/admin/tournament-list', cookie))));
    expect(page.body.tournaments).toEqual([
      expect.objectContaining({
        id: 5,
        name: 'Lobby Cup',
        registeredTeams: 18,
        maxTeams: 25,
        paymentsAwaiting: 3,
        verified: 9,
        starts: '10 Dec 2026',
      }),
    ]);
    expect(stub.seen.at(-1)!.headers.authorization).toMatch(/^Bearer /);
  });

  // Issue 27 item 10: the organiser is told while a tournament that takes fees pays the placeholder UPI ID.
  it('marks each tournament that takes fees and still pays the placeholder UPI ID', async () => {
    const row = (id: number, extra: Record<string, unknown>) => ({
      ...TOURNAMENT,
      id,
      name: `Cup ${id}`,
      entryFee: 50,
      registeredTeams: 0,
      paymentsAwaiting: 0,
      payments: { pending: 0, submitted: 0, verified: 0, rejected: 0 },
      ...extra,
    });
    routes({
      'GET /tournaments/admin/summary': () => [
        200,
        [row(1, {}), row(2, { payeeUpiId: 'cup2@okaxis' }), row(3, { entryFee: 0 }), row(4, { payeeUpiId: 'customroom@upi' })],
      ],
    });
    const page = unwrap(await list.loader(args(await get('http://localhost/admin/tournament-list', await adminCookie()))));
    // The test environment keeps UPI_PAYEE_VPA at its placeholder default.
    expect(page.body.tournaments.map((t: { id: number; paysPlaceholder: boolean }) => [t.id, t.paysPlaceholder])).toEqual([
      [1, true],
      [2, false],
      [3, false],
      [4, true],
    ]);
    expect(page.body.placeholder).toBe('customroom@upi');
  });
});

describe('points form parsing', () => {
  const form = (fields: [string, string][]) => {
    const fd = new FormData();
    for (const [k, v] of fields) fd.append(k, v);
    return fd;
  };

  it('reads rows by teamId, turns empty values into 0 and leaves out teams whose values are all 0', () => {
    const parsed = parseResultsForm(
      form([
        ['position.12', '2'],
        ['finishes.12', ' 7 '],
        ['position.9', '1'],
        ['finishes.9', ''],
        ['position.30', ''],
        ['finishes.30', ''],
        ['intent', 'ignored'],
      ]),
    );
    expect(parsed).toEqual({
      ok: true,
      rows: [
        { teamId: 12, position: 2, finishes: 7 },
        { teamId: 9, position: 1, finishes: 0 },
      ],
      values: { 'position.12': '2', 'finishes.12': ' 7 ', 'position.9': '1', 'finishes.9': '', 'position.30': '', 'finishes.30': '' },
    });
  });

  it('never reads a wins input: a win is placement 1, derived by the gateway (issue 16)', () => {
    // An old copy of the form (or a hand-made post) still sending wins: a win for the 3rd and none for the 1st.
    const parsed = parseResultsForm(
      form([
        ['position.12', '1'],
        ['wins.12', '0'],
        ['finishes.12', '3'],
        ['position.9', '3'],
        ['wins.9', '1'],
        ['finishes.9', '1'],
        ['wins.30', '1'],
      ]),
    );
    expect(parsed).toEqual({
      ok: true,
      rows: [
        { teamId: 12, position: 1, finishes: 3 },
        { teamId: 9, position: 3, finishes: 1 },
      ],
      values: { 'position.12': '1', 'finishes.12': '3', 'position.9': '3', 'finishes.9': '1' },
    });
  });

  it('refuses values that are not whole numbers in range, keyed {field}.{teamId} like the inputs', () => {
    const parsed = parseResultsForm(
      form([
        ['position.12', '2.5'],
        ['finishes.12', 'abc'],
        ['position.9', '1'],
      ]),
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(Object.keys(parsed.fieldErrors).sort()).toEqual(['finishes.12', 'position.12']);
    expect(parsed.values['finishes.12']).toBe('abc');
  });
});

describe('points entry', () => {
  const url = 'http://localhost/admin/add-points/5?day=2&match=3';
  const saved = [
    {
      id: 1,
      tid: 5,
      day: 2,
      match: 3,
      teamId: 12,
      teamName: 'Soul',
      position: 1,
      positionPoints: 10,
      wins: 1,
      finishes: 8,
      totalPoints: 18,
    },
  ];

  it('loads one row per registered team with what was entered for that match', async () => {
    routes({
      'GET /tournaments/5': () => [200, TOURNAMENT],
      'GET /registrations/tournament/5': () => [200, [team(12, 'Soul'), team(9, 'GodLike')]],
      'GET /tournaments/5/points-table/results': () => [200, saved],
      'GET /matches/tournament/5': () => [200, []],
    });
    const page = unwrap(await points.loader(args(await get(url, await adminCookie()), { tournamentId: '5' })));
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({
      day: 2,
      match: 3,
      loadError: null,
      teams: [
        { rid: 12, teamName: 'Soul' },
        { rid: 9, teamName: 'GodLike' },
      ],
    });
    expect(page.body.saved['12']).toMatchObject({ position: 1, wins: 1, finishes: 8, totalPoints: 18 });
    expect(seen('GET', '/tournaments/5/points-table/results').at(-1)!.url).toBe('/tournaments/5/points-table/results?day=2&match=3');
  });

  it("gives the form the lobby's bounds: positions up to the registered teams, finishes up to the other players (issue 16)", async () => {
    for (const [format, registered, lobby] of [
      ['Squad', 10, { teams: 10, maxFinishes: 36 }],
      ['Duo', 3, { teams: 3, maxFinishes: 4 }],
    ] as const) {
      routes({
        'GET /tournaments/5': () => [200, { ...TOURNAMENT, format }],
        'GET /registrations/tournament/5': () => [200, Array.from({ length: registered }, (_, i) => team(i + 1, `Team ${i + 1}`))],
        'GET /tournaments/5/points-table/results': () => [200, []],
        'GET /matches/tournament/5': () => [200, []],
      });
      const page = unwrap(await points.loader(args(await get(url, await adminCookie()), { tournamentId: '5' })));
      expect(page.body.lobby).toEqual(lobby);
    }
  });

  it('says §8 "No registrations found for this tournament." on 404, "Unauthorized. Please check your access." on 403', async () => {
    for (const [status, message] of [
      [404, 'No registrations found for this tournament.'],
      [403, 'Unauthorized. Please check your access.'],
      [400, 'Failed to load registrations. Please try again.'],
    ] as const) {
      routes({
        'GET /tournaments/5': () => [200, TOURNAMENT],
        'GET /registrations/tournament/5': () => [status, { message: 'nope' }],
        'GET /tournaments/5/points-table/results': () => [200, []],
        'GET /matches/tournament/5': () => [200, []],
      });
      const page = unwrap(await points.loader(args(await get(url, await adminCookie()), { tournamentId: '5' })));
      expect(page.status).toBe(status);
      expect(page.body.loadError).toBe(message);
    }
  });

  it('saves every row in ONE batch request, leaving out untouched teams, then redirects with the §8 message', async () => {
    routes({ 'PUT /tournaments/5/points-table/matches/2/3': () => [200, saved] });
    const before = stub.seen.length;
    const cookie = await adminCookie();
    const res = (await points.action(
      args(
        post(
          url,
          [
            ['position.12', '1'],
            ['finishes.12', '8'],
            ['position.9', '2'],
            ['finishes.9', ''],
            ['position.4', ''],
            ['finishes.4', ''],
          ],
          cookie,
        ),
        { tournamentId: '5' },
      ),
    )) as Response;
    // One write (the GET beside it only checks the match is not a stage group's).
    expect(stub.seen.slice(before).filter((r) => r.method !== 'GET')).toHaveLength(1);
    expect(stub.seen.at(-1)).toMatchObject({
      method: 'PUT',
      url: '/tournaments/5/points-table/matches/2/3',
      body: {
        results: [
          { teamId: 12, position: 1, finishes: 8 },
          { teamId: 9, position: 2, finishes: 0 },
        ],
      },
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/admin/add-points/5?day=2&match=3');
    const next = new Request('http://localhost/admin/add-points/5?day=2&match=3', { headers: { cookie: cookieOf(res) } });
    expect((await session.readFlash(next)).message).toBe('Points table submitted successfully!');
  });

  // Issue 27 item 5: a match played in groups is never one form of every team, nor a write to an unchosen group.
  it('sends a match played in groups to each group’s results page, and refuses to save it here', async () => {
    const groupMatch = (id: number, groupId: number, groupName: string) => ({
      id,
      tid: 5,
      day: 2,
      matchNo: 3,
      map: 'Erangel',
      matchId: '',
      password: '',
      time: '14:00:00',
      groupId,
      groupName,
      stageId: 7,
      stageName: 'Qualifiers',
    });
    const inGroups = [groupMatch(41, 31, 'A'), groupMatch(42, 32, 'B')];
    routes({
      'GET /tournaments/5': () => [200, TOURNAMENT],
      'GET /registrations/tournament/5': () => [200, [team(12, 'Soul'), team(9, 'GodLike')]],
      'GET /tournaments/5/points-table/results': () => [400, { message: 'Day 2 match 3 is played in 2 groups: say which one (groupId).' }],
      'GET /matches/tournament/5': () => [200, inGroups],
    });
    const cookie = await adminCookie();
    const page = unwrap(await points.loader(args(await get(url, cookie), { tournamentId: '5' })));
    expect(page.status).toBe(200);
    expect(page.body.inGroups).toEqual([
      { key: '41', label: 'Qualifiers · Group A', href: '/admin/5/stages/7/results?day=2&match=3&group=31' },
      { key: '42', label: 'Qualifiers · Group B', href: '/admin/5/stages/7/results?day=2&match=3&group=32' },
    ]);
    // Each scheduled chip names its group and opens that group's page: no two identical links.
    expect(page.body.scheduled.map((m: { group: string; href: string }) => [m.group, m.href])).toEqual([
      ['Qualifiers · Group A', '/admin/5/stages/7/results?day=2&match=3&group=31'],
      ['Qualifiers · Group B', '/admin/5/stages/7/results?day=2&match=3&group=32'],
    ]);

    const before = stub.seen.length;
    const refused = unwrap(await points.action(args(post(url, [['position.12', '1']], cookie), { tournamentId: '5' })));
    expect(refused.status).toBe(400);
    expect(refused.body.formError).toBe("Day 2 match 3 is played in the groups of Qualifiers: enter each group's results on its own page.");
    expect(refused.body.values).toEqual({ 'position.12': '1' });
    expect(stub.seen.slice(before).filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('puts a shared placement refusal (409) beside both rows, names both teams and keeps every value', async () => {
    const message = 'Two teams cannot share a placement. Placement 2 is given to both Soul and GodLike.';
    routes({
      'PUT /tournaments/5/points-table/matches/2/3': () => [
        409,
        { message, errors: { 'position.12': 'Placement 2 is also given to GodLike.', 'position.9': 'Placement 2 is also given to Soul.' } },
      ],
    });
    const fields: [string, string][] = [
      ['position.12', '2'],
      ['finishes.12', '4'],
      ['position.9', '2'],
      ['finishes.9', '6'],
    ];
    const result = unwrap(await points.action(args(post(url, fields, await adminCookie()), { tournamentId: '5' })));
    expect(result.status).toBe(409);
    expect(result.body.formError).toBe(message);
    expect(result.body.fieldErrors).toEqual({
      'position.12': 'Placement 2 is also given to GodLike.',
      'position.9': 'Placement 2 is also given to Soul.',
    });
    expect(result.body.values).toEqual(Object.fromEntries(fields));
  });

  it('puts 400 row errors beside their inputs with "Failed to submit points. Please try again."', async () => {
    routes({
      'PUT /tournaments/5/points-table/matches/2/3': () => [
        400,
        { message: 'Invalid', errors: { 'teamId.9': 'Team 9 is not registered in this tournament.' } },
      ],
    });
    const result = unwrap(await points.action(args(post(url, [['position.9', '3']], await adminCookie()), { tournamentId: '5' })));
    expect(result.status).toBe(400);
    expect(result.body.fieldErrors).toEqual({ 'teamId.9': 'Team 9 is not registered in this tournament.' });
    expect(result.body.formError).toBe('Failed to submit points. Please try again.');
  });

  it('refuses bad values, or a post without any team row, without calling the gateway', async () => {
    const before = stub.seen.length;
    expect(unwrap(await points.action(args(post(url, [['intent', 'save']], await adminCookie()), { tournamentId: '5' }))).status).toBe(400);
    const result = unwrap(await points.action(args(post(url, [['position.9', '-1']], await adminCookie()), { tournamentId: '5' })));
    expect(result.status).toBe(400);
    expect(result.body.fieldErrors['position.9']).toMatch(/Position must be a whole number/);
    expect(stub.seen.length).toBe(before);
  });
});

describe('matches', () => {
  const url = 'http://localhost/admin/5/matches';
  const existing = { id: 77, tid: 5, day: 1, matchNo: 1, map: 'Erangel', matchId: '1234567', password: 'cr77', time: '18:30:00' };
  const fields = (day: string, matchNo: string, extra: Record<string, string> = {}): [string, string][] =>
    Object.entries({ day, matchNo, map: 'Miramar', matchId: '7654321', password: 'room-pass 9', time: '19:00', ...extra });

  it('loads an existing match by ?day=&match= with its room details', async () => {
    routes({ 'GET /tournaments/5': () => [200, TOURNAMENT], 'GET /matches/tournament/5': () => [200, [existing]] });
    const page = unwrap(await matches.loader(args(await get(`${url}?day=1&match=1`, await adminCookie()), { tournamentId: '5' })));
    expect(page.body.selected).toMatchObject({ id: 77, map: 'Erangel', matchId: '1234567', password: 'cr77' });
    expect(page.body.matches[0].time).toBe('18:30');
  });

  it('updates the match when that day and match number exist (PUT /matches/{id})', async () => {
    routes({
      'GET /matches/tournament/5': () => [200, [existing]],
      'PUT /matches/77': (req) => [200, { ...existing, ...(req.body as object) }],
    });
    const res = (await matches.action(args(post(url, fields('1', '1'), await adminCookie()), { tournamentId: '5' }))) as Response;
    expect(seen('POST', '/matches')).toHaveLength(0);
    expect(stub.seen.at(-1)).toMatchObject({
      method: 'PUT',
      url: '/matches/77',
      body: { tid: 5, day: 1, matchNo: 1, map: 'Miramar', matchId: '7654321', password: 'room-pass 9', time: '19:00' },
    });
    expect(res.headers.get('location')).toBe('/admin/5/matches?day=1&match=1');
    expect((await session.readFlash(new Request(url, { headers: { cookie: cookieOf(res) } }))).message).toBe('Match updated successfully');
  });

  it('creates the match when none exists for that day and match number (POST /matches)', async () => {
    routes({ 'GET /matches/tournament/5': () => [200, [existing]], 'POST /matches': (req) => [201, { id: 78, ...(req.body as object) }] });
    const res = (await matches.action(args(post(url, fields('2', '1'), await adminCookie()), { tournamentId: '5' }))) as Response;
    expect(stub.seen.at(-1)).toMatchObject({
      method: 'POST',
      url: '/matches',
      body: { tid: 5, day: 2, matchNo: 1, password: 'room-pass 9' },
    });
    expect((await session.readFlash(new Request(url, { headers: { cookie: cookieOf(res) } }))).message).toBe('Match created successfully');
  });

  // Issue 27 item 5: in a tournament with stages, every row names its group and no save lands on one silently.
  it('names the group on every row, never edits a group’s match here, and refuses to save one', async () => {
    const inGroup = (id: number, groupId: number, groupName: string) => ({
      ...existing,
      id,
      matchId: '',
      password: '',
      groupId,
      groupName,
      stageId: 7,
      stageName: 'Qualifiers',
    });
    const list = [inGroup(81, 31, 'A'), inGroup(82, 32, 'B'), { ...existing, id: 90, day: 3 }];
    routes({ 'GET /tournaments/5': () => [200, TOURNAMENT], 'GET /matches/tournament/5': () => [200, list] });
    const cookie = await adminCookie();
    const page = unwrap(await matches.loader(args(await get(`${url}?day=1&match=1`, cookie), { tournamentId: '5' })));
    expect(page.body.selected).toBeNull();
    expect(page.body.inGroups).toEqual({
      text: "Day 1 match 1 is played in the groups of Qualifiers: set each group's room on the stage page.",
      href: '/admin/5/stages/7?rooms=1-1#rooms',
    });
    expect(page.body.stages).toEqual([{ id: 7, name: 'Qualifiers' }]);
    expect(page.body.matches.map((m: { groupName?: string }) => m.groupName)).toEqual(['A', 'B', undefined]);
    // A match outside the stages is still edited here.
    const outside = unwrap(await matches.loader(args(await get(`${url}?day=3&match=1`, cookie), { tournamentId: '5' })));
    expect(outside.body.selected).toMatchObject({ id: 90 });

    const before = stub.seen.length;
    const refused = unwrap(await matches.action(args(post(url, fields('1', '1'), cookie), { tournamentId: '5' })));
    expect(refused.status).toBe(400);
    expect(refused.body.fieldErrors).toEqual({
      matchNo: "Day 1 match 1 is played in the groups of Qualifiers: set each group's room on the stage page.",
    });
    expect(refused.body.values).toEqual(Object.fromEntries(fields('1', '1')));
    expect(stub.seen.slice(before).filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('keeps every value, the room password too, beside the field errors when refused', async () => {
    const before = stub.seen.length;
    const local = unwrap(
      await matches.action(args(post(url, fields('9', '1', { time: '7pm' }), await adminCookie()), { tournamentId: '5' })),
    );
    expect(stub.seen.length).toBe(before);
    expect(local.status).toBe(400);
    expect(local.body.formError).toBe('Failed to save match data');
    expect(Object.keys(local.body.fieldErrors).sort()).toEqual(['day', 'time']);
    expect(local.body.values).toEqual(Object.fromEntries(fields('9', '1', { time: '7pm' })));

    routes({
      'GET /matches/tournament/5': () => [200, []],
      'POST /matches': () => [400, { message: 'Invalid', errors: { map: 'Map must be at most 40 characters.' } }],
    });
    const remote = unwrap(await matches.action(args(post(url, fields('3', '2'), await adminCookie()), { tournamentId: '5' })));
    expect(remote.status).toBe(400);
    expect(remote.body.fieldErrors).toEqual({ map: 'Map must be at most 40 characters.' });
    expect(remote.body.formError).toMatch(/^Failed to save match data/);
    expect(remote.body.values.password).toBe('room-pass 9');
  });
});

describe('registrations and payments', () => {
  const url = 'http://localhost/admin/5/registrations?payment=submitted';

  it('lists teams filtered by ?payment= with registration time in APP_TIME_ZONE', async () => {
    routes({
      'GET /tournaments/5': () => [200, TOURNAMENT],
      'GET /registrations/tournament/5': () => [
        200,
        [team(1, 'Soul'), team(2, 'GodLike', { paymentStatus: 'verified' }), team(3, 'Orangutan')],
      ],
    });
    const page = unwrap(await registrations.loader(args(await get(url, await adminCookie()), { tournamentId: '5' })));
    expect(page.body.teams.map((t: { teamName: string }) => t.teamName)).toEqual(['Soul', 'Orangutan']);
    expect(page.body.counts).toEqual({ pending: 0, submitted: 2, verified: 1, rejected: 0 });
    expect(page.body.teams[0]).toMatchObject({ registeredAt: '5 Mar 2026, 6:30 pm', paymentReference: 'UTR1000000', username: 'owner_1' });
  });

  it('verifies one team with PUT /registrations/admin/{rid}/payment and keeps the filter', async () => {
    routes({ 'PUT /registrations/admin/3/payment': () => [200, team(3, 'Orangutan', { paymentStatus: 'verified', updatedAt: '' })] });
    const res = (await registrations.action(
      args(
        post(
          url,
          [
            ['rid', '3'],
            ['intent', registrations.INTENT.verifyOne],
          ],
          await adminCookie(),
        ),
        { tournamentId: '5' },
      ),
    )) as Response;
    expect(stub.seen.at(-1)).toMatchObject({ method: 'PUT', url: '/registrations/admin/3/payment', body: { paymentStatus: 'verified' } });
    expect(res.headers.get('location')).toBe('/admin/5/registrations?payment=submitted');
    expect((await session.readFlash(new Request(url, { headers: { cookie: cookieOf(res) } }))).message).toBe(
      'Payment of Orangutan marked verified.',
    );
  });

  it('rejects ticked teams in one all-or-nothing request', async () => {
    routes({
      'PUT /registrations/admin/payments': () => [
        200,
        [team(1, 'Soul', { paymentStatus: 'rejected' }), team(3, 'Orangutan', { paymentStatus: 'rejected' })],
      ],
    });
    const res = (await registrations.action(
      args(
        post(
          url,
          [
            ['rid', '1'],
            ['rid', '3'],
            ['intent', registrations.INTENT.rejectSelected],
          ],
          await adminCookie(),
        ),
        { tournamentId: '5' },
      ),
    )) as Response;
    expect(stub.seen.at(-1)).toMatchObject({
      method: 'PUT',
      url: '/registrations/admin/payments',
      body: { tournamentId: 5, rids: [1, 3], paymentStatus: 'rejected' },
    });
    expect((await session.readFlash(new Request(url, { headers: { cookie: cookieOf(res) } }))).message).toBe(
      '2 payments marked rejected: Soul, Orangutan.',
    );
  });

  // Issue 27 item 11: select all shown (with the filter), compact rows, and a short message for many.
  it('offers "select all shown" and compact rows as links that keep the filter; ?select=all ticks every placed team shown', async () => {
    routes({
      'GET /tournaments/5': () => [200, TOURNAMENT],
      'GET /registrations/tournament/5': () => [
        200,
        [team(1, 'Soul'), team(2, 'GodLike', { paymentStatus: 'verified' }), team(3, 'Orangutan'), team(4, 'Later', { place: 'waitlist' })],
      ],
    });
    const cookie = await adminCookie();
    const plain = unwrap(await registrations.loader(args(await get(url, cookie), { tournamentId: '5' }))).body;
    expect(plain).toMatchObject({ compact: false, selectAll: false, selectable: 2, query: '?payment=submitted' });
    expect(plain.links).toEqual({
      rows: '?payment=submitted&rows=compact',
      selectAll: '?payment=submitted&select=all',
      clear: '?payment=submitted',
    });
    const all = unwrap(await registrations.loader(args(await get(`${url}&rows=compact&select=all`, cookie), { tournamentId: '5' }))).body;
    expect(all).toMatchObject({ compact: true, selectAll: true, selectable: 2, query: '?payment=submitted&rows=compact' });
    expect(all.links.clear).toBe('?payment=submitted&rows=compact');
    // The waitlisted team is shown under the filter but has no payment to verify: not ticked.
    expect(all.teams.map((t: { rid: number; place: string }) => [t.rid, t.place])).toEqual([
      [1, 'placed'],
      [3, 'placed'],
      [4, 'waitlist'],
    ]);
  });

  it('says "90 payments verified." for many, names a few, and goes back to the same filter and rows', async () => {
    const many = Array.from({ length: 90 }, (_, i) => team(i + 1, `Squad ${i + 1}`, { paymentStatus: 'verified' }));
    routes({ 'PUT /registrations/admin/payments': () => [200, many] });
    const fields: [string, string][] = [
      ...many.map((t): [string, string] => ['rid', String(t.rid)]),
      ...many.map((t): [string, string] => [`expectedUpiReference.${t.rid}`, t.paymentReference]),
      ['intent', registrations.INTENT.verifySelected],
    ];
    const res = (await registrations.action(
      args(post(`${url}&rows=compact`, fields, await adminCookie()), { tournamentId: '5' }),
    )) as Response;
    // Bound to the references shown, as one all-or-nothing request.
    const sent = stub.seen.at(-1)!.body as { rids: number[]; expectedUpiReferences: Record<string, string> };
    expect(sent.rids).toHaveLength(90);
    expect(sent.expectedUpiReferences['90']).toBe('UTR90000000');
    expect(res.headers.get('location')).toBe('/admin/5/registrations?payment=submitted&rows=compact');
    expect((await session.readFlash(new Request(url, { headers: { cookie: cookieOf(res) } }))).message).toBe('90 payments verified.');
  });

  it('asks to tick a team when none is ticked, and shows the gateway naming a foreign rid', async () => {
    const before = stub.seen.length;
    const none = unwrap(
      await registrations.action(
        args(post(url, [['intent', registrations.INTENT.verifySelected]], await adminCookie()), { tournamentId: '5' }),
      ),
    );
    expect(none.status).toBe(400);
    expect(none.body.fieldErrors.rid).toBe('Choose at least one team.');
    expect(stub.seen.length).toBe(before);

    routes({
      'PUT /registrations/admin/payments': () => [
        400,
        {
          message: 'Registration 99 is not a team of this tournament. Nothing was changed.',
          errors: { rids: 'Registration 99 is not a team of this tournament.' },
        },
      ],
    });
    const foreign = unwrap(
      await registrations.action(
        args(
          post(
            url,
            [
              ['rid', '1'],
              ['rid', '99'],
              ['intent', registrations.INTENT.verifySelected],
            ],
            await adminCookie(),
          ),
          { tournamentId: '5' },
        ),
      ),
    );
    expect(foreign.status).toBe(400);
    expect(foreign.body.fieldErrors.rid).toBe('Registration 99 is not a team of this tournament.');
  });
});

describe('payments judged on the UPI reference the organiser saw (issue 16)', () => {
  const url = 'http://localhost/admin/5/registrations?payment=submitted';
  const CHANGED = 'This team changed its UPI reference; check it again.';

  it('sends the reference shown beside the team with its Verify, and with the ticked teams only theirs', async () => {
    routes({
      'PUT /registrations/admin/3/payment': () => [200, team(3, 'Orangutan', { paymentStatus: 'verified' })],
      'PUT /registrations/admin/payments': () => [200, [team(1, 'Soul', { paymentStatus: 'rejected' })]],
    });
    await registrations.action(
      args(
        post(
          url,
          [
            ['rid', '3'],
            ['expectedUpiReference', '412345678903'],
            ['intent', registrations.INTENT.verifyOne],
          ],
          await adminCookie(),
        ),
        { tournamentId: '5' },
      ),
    );
    expect(stub.seen.at(-1)).toMatchObject({
      url: '/registrations/admin/3/payment',
      body: { paymentStatus: 'verified', expectedUpiReference: '412345678903' },
    });

    await registrations.action(
      args(
        post(
          url,
          [
            ['expectedUpiReference.1', '412345678901'],
            ['expectedUpiReference.2', '412345678902'],
            ['expectedUpiReference.3', ''],
            ['rid', '1'],
            ['rid', '3'],
            ['intent', registrations.INTENT.rejectSelected],
          ],
          await adminCookie(),
        ),
        { tournamentId: '5' },
      ),
    );
    expect(stub.seen.at(-1)!.body).toEqual({
      tournamentId: 5,
      rids: [1, 3],
      paymentStatus: 'rejected',
      expectedUpiReferences: { 1: '412345678901', 3: '' },
    });
  });

  it("puts the gateway's 409 beside the team that changed its reference, keeps the message above, and reloads the page's data", async () => {
    routes({ 'PUT /registrations/admin/3/payment': () => [409, { message: CHANGED, errors: { expectedUpiReference: CHANGED } }] });
    const one = unwrap(
      await registrations.action(
        args(
          post(
            url,
            [
              ['rid', '3'],
              ['expectedUpiReference', '412345678903'],
              ['intent', registrations.INTENT.verifyOne],
            ],
            await adminCookie(),
          ),
          { tournamentId: '5' },
        ),
      ),
    );
    expect(one.status).toBe(409);
    expect(one.body.fieldErrors).toEqual({ 'team.3': CHANGED });
    expect(one.body.formError).toBeNull(); // said once, as the link to the team's card

    const message = 'Soul, Orangutan changed their UPI references; check them again. Nothing was changed.';
    routes({
      'PUT /registrations/admin/payments': () => [
        409,
        { message, errors: { 'expectedUpiReferences.1': CHANGED, 'expectedUpiReferences.3': CHANGED } },
      ],
    });
    const many = unwrap(
      await registrations.action(
        args(
          post(
            url,
            [
              ['rid', '1'],
              ['rid', '3'],
              ['expectedUpiReference.1', 'a'],
              ['expectedUpiReference.3', 'b'],
              ['intent', registrations.INTENT.verifySelected],
            ],
            await adminCookie(),
          ),
          { tournamentId: '5' },
        ),
      ),
    );
    expect(many.status).toBe(409);
    expect(many.body.fieldErrors).toEqual({ 'team.1': CHANGED, 'team.3': CHANGED });
    expect(many.body.formError).toBe(message);

    // With JavaScript too, the page then shows the new reference (Remix keeps a refused page's data otherwise).
    const revalidate = (actionStatus: number) =>
      registrations.shouldRevalidate({ actionStatus, defaultShouldRevalidate: false } as Parameters<
        typeof registrations.shouldRevalidate
      >[0]);
    expect(revalidate(409)).toBe(true);
    expect(revalidate(400)).toBe(false);
  });

  it('flags teams that share a UPI reference with another registration, here or in another tournament', async () => {
    routes({
      'GET /tournaments/5': () => [200, TOURNAMENT],
      'GET /registrations/tournament/5': () => [
        200,
        [
          team(1, 'Soul', {
            paymentReference: '412345678901',
            sameReferenceAs: [
              { rid: 2, tid: 5, teamName: 'GodLike' },
              { rid: 70, tid: 9, teamName: 'Elsewhere' },
            ],
          }),
          team(2, 'GodLike', { paymentReference: '412345678901', sameReferenceAs: [{ rid: 1, tid: 5, teamName: 'Soul' }] }),
          team(3, 'Orangutan'),
        ],
      ],
    });
    const page = unwrap(
      await registrations.loader(args(await get('http://localhost/admin/5/registrations', await adminCookie()), { tournamentId: '5' })),
    );
    expect(page.body.teams.map((t: any) => [t.teamName, t.sameReferenceAs])).toEqual([
      [
        'Soul',
        [
          { rid: 2, tid: 5, teamName: 'GodLike', here: true },
          { rid: 70, tid: 9, teamName: 'Elsewhere', here: false },
        ],
      ],
      ['GodLike', [{ rid: 1, tid: 5, teamName: 'Soul', here: true }]],
      ['Orangutan', []],
    ]);
    expect(page.body.expectedField).toBe('expectedUpiReference');
  });
});

describe('registrations CSV', () => {
  it('escapes cells against formula injection and quotes per RFC 4180', () => {
    expect(csvCell('=HYPERLINK("http://x","click")')).toBe(`"'=HYPERLINK(""http://x"",""click"")"`);
    expect(csvCell('+91 98765')).toBe("'+91 98765");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tTab')).toBe("'\tTab");
    expect(csvCell('\rCR')).toBe(`"'\rCR"`);
    expect(csvCell('Soul, Mumbai')).toBe('"Soul, Mumbai"');
    expect(csvCell('say "gg"')).toBe('"say ""gg"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('Team Soul')).toBe('Team Soul');
    expect(csvCell(42)).toBe('42');
    expect(
      toCsv([
        ['a', 'b'],
        ['1', '2'],
      ]),
    ).toBe('a,b\r\n1,2\r\n');
  });

  it('downloads every registration with a header row as an attachment', async () => {
    routes({
      'GET /tournaments/5': () => [200, { ...TOURNAMENT, entryFee: 100 }],
      'GET /registrations/tournament/5': () => [
        200,
        [
          team(1, '=HYPERLINK("http://evil.example","Click")'),
          team(2, 'Soul, "Mumbai"\nEast', { paymentReference: '', paymentStatus: 'pending' }),
          team(3, 'Waiting', { paymentReference: '', paymentStatus: 'pending', place: 'waitlist', waitlistPosition: 3 }),
          team(4, 'Late', { paymentReference: '', paymentStatus: 'pending', place: 'released', releasedReason: 'payment-deadline' }),
          team(5, 'Soul II', { paymentStatus: 'verified', place: 'placed', confirmed: true }),
        ],
      ],
    });
    const res = (await csv.loader(
      args(await get('http://localhost/admin/5/registrations.csv', await adminCookie()), { tournamentId: '5' }),
    )) as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="tournament-5-registrations.csv"');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const text = (await res.text()).replace(/^\uFEFF/, '');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(
      'rid,teamName,player1Username,player2Username,player3Username,player4Username,substitute1Username,substitute2Username,paymentStatus,state,paymentReference,registeredBy,registeredAt (Asia/Kolkata),' +
        'player1CharacterId,player2CharacterId,player3CharacterId,player4CharacterId,substitute1CharacterId,substitute2CharacterId,captainPhone,captainEmail,captainWhatsApp',
    );
    // A gateway without decision 046's fields: the new columns stay empty.
    expect(lines[1]).toBe(
      `1,"'=HYPERLINK(""http://evil.example"",""Click"")",p1_1,p2_1,p3_1,p4_1,,,submitted,payment submitted,UTR1000000,owner_1,2026-03-05 18:30,,,,,,,,,`,
    );
    expect(lines[2]).toBe(`2,"Soul, ""Mumbai""\nEast",p1_2,p2_2,p3_2,p4_2,,,pending,pending payment,,owner_2,2026-03-05 18:30,,,,,,,,,`);
    // The state in the registrations page's words (placeView), next to the payment as the page shows it.
    const states = lines.slice(1, 6).map((l) => l.replace(/^.*,(submitted|pending|verified),([^,]*),.*$/s, '$2'));
    expect(states).toEqual(['payment submitted', 'pending payment', 'waitlist #3', 'released (payment not verified in time)', 'confirmed']);
    expect(lines[6]).toBe('');
  });
});
