import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseResultsForm } from '~/utils/results-entry.server';
import { parseScheduleForm } from '~/utils/stage-admin.server';
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

/** Issue 18's organiser screens: stages list, the stage page's intents, group results, the CSV exports. */

let stub: GatewayStub;
let list: typeof import('~/routes/admin.$tournamentId.stages._index');
let stagePage: typeof import('~/routes/admin.$tournamentId.stages.$stageId/route');
let results: typeof import('~/routes/admin.$tournamentId.stages.$stageId_.results');
let slotsCsv: typeof import('~/routes/admin.$tournamentId.stages.$stageId_.slots[.csv]');
let resultsCsv: typeof import('~/routes/admin.$tournamentId.stages.$stageId_.results[.csv]');
let session: typeof import('~/utils/session.server');

beforeAll(async () => {
  stub = await startGatewayStub();
  await useStubEnv(stub);
  list = await import('~/routes/admin.$tournamentId.stages._index');
  stagePage = await import('~/routes/admin.$tournamentId.stages.$stageId/route');
  results = await import('~/routes/admin.$tournamentId.stages.$stageId_.results');
  slotsCsv = await import('~/routes/admin.$tournamentId.stages.$stageId_.slots[.csv]');
  resultsCsv = await import('~/routes/admin.$tournamentId.stages.$stageId_.results[.csv]');
  session = await import('~/utils/session.server');
});
afterAll(() => stub.close());

const TOURNAMENT = {
  id: 5,
  name: 'Lobby Cup',
  game: 'Free Fire',
  description: 'x',
  startDate: '2026-12-10T12:30:00.000Z',
  endDate: '2026-12-11T12:30:00.000Z',
  registrationOpen: '2026-12-01T12:30:00.000Z',
  registrationClose: '2026-12-09T12:30:00.000Z',
  maxTeams: 12,
  format: 'Squad',
  platform: 'Mobile',
  entryFee: 0,
  prizePool: '₹1',
  status: 'Ongoing',
  overview: '',
  imageUrl: null,
  pointsSystem: 'bgis-10',
};
const slot = (s: number, teamId: number, teamName = `Team ${teamId}`) => ({ slot: s, teamId, teamName });
const GROUP_A = { id: 31, name: 'A', slots: [slot(2, 102), slot(1, 101, '=HYPERLINK("x")')] };
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
  groupMatches: { scheduled: 0, withResults: 0, notPlayed: 0 },
  groups: [GROUP_A, GROUP_B],
};
const match = (id: number, day: number, matchNo: number, group: { id: number; name: string }, room = '') => ({
  id,
  tid: 5,
  day,
  matchNo,
  map: 'Bermuda',
  matchId: room,
  password: room ? 'pw' : '',
  time: '18:00:00',
  groupId: group.id,
  groupName: group.name,
  stageId: 7,
  stageName: 'Qualifiers',
});
const registration = (rid: number, teamName: string) => ({
  rid,
  tid: 5,
  teamName,
  player1Username: `igl_${rid}`,
  player2Username: `p2_${rid}`,
  player3Username: `p3_${rid}`,
  player4Username: `p4_${rid}`,
  substitute1Username: '',
  substitute2Username: '',
  paymentStatus: 'verified',
  paymentReference: '',
  createdAt: '2026-03-05T13:00:00.000Z',
  username: `owner_${rid}`,
});

async function cookieFor(roles: string[]) {
  const token = await stub.token({ username: roles.includes('ROLE_ADMIN') ? 'organiser' : 'player_one', roles });
  return cookieOf(await session.createUserSession(new Request('http://localhost/login'), token, 'x', '/'));
}
const adminCookie = () => cookieFor(['ROLE_USER', 'ROLE_ADMIN']);
const get = (url: string, cookie?: string) => new Request(url, { headers: cookie ? { cookie } : {} });
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
const STAGE_PARAMS = { tournamentId: '5', stageId: '7' };
const STAGE_URL = 'http://localhost/admin/5/stages/7';

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
const form = (fields: [string, string][]) => {
  const fd = new FormData();
  for (const [k, v] of fields) fd.append(k, v);
  return fd;
};

describe('stage screens: access', () => {
  it('send anonymous visitors and players to /login without calling the gateway', async () => {
    const player = await cookieFor(['ROLE_USER']);
    stub.answer((_req, res) => json(res, 200, EMPTY_DESK)); // a player is only asked whether it has a desk
    const before = stub.seen.length;
    const screens = [
      { url: 'http://localhost/admin/5/stages', params: { tournamentId: '5' }, loader: list.loader, action: list.action },
      { url: STAGE_URL, params: STAGE_PARAMS, loader: stagePage.loader, action: stagePage.action },
      { url: `${STAGE_URL}/results?day=1&match=1&group=31`, params: STAGE_PARAMS, loader: results.loader, action: results.action },
      { url: `${STAGE_URL}/slots.csv`, params: STAGE_PARAMS, loader: slotsCsv.loader, action: null },
      { url: `${STAGE_URL}/results.csv`, params: STAGE_PARAMS, loader: resultsCsv.loader, action: null },
    ];
    for (const screen of screens) {
      for (const cookie of [undefined, player]) {
        const res = (await thrown(() => screen.loader(args(get(screen.url, cookie), screen.params) as never))) as Response;
        expect(res.status, screen.url).toBe(302);
        expect(res.headers.get('location')).toMatch(/^\/login\?redirectTo=/);
        if (screen.action) {
          const res2 = (await thrown(() =>
            screen.action!(args(post(screen.url, [['intent', 'publish']], cookie), screen.params) as never),
          )) as Response;
          expect(res2.status).toBe(302);
        }
      }
    }
    expect(besidesDesk(stub.seen.slice(before))).toEqual([]);
  });
});

describe('stages list', () => {
  it('lists the stages in order with the advance rule in words, and prefills the lobby from the game', async () => {
    routes({
      'GET /tournaments/5': () => [200, TOURNAMENT],
      'GET /tournaments/5/stages': () => [
        200,
        [STAGE, { ...STAGE, id: 8, order: 2, name: 'Final', state: 'draft', advancePerGroup: 0, groups: [] }],
      ],
    });
    const page = unwrap(await list.loader(args(get('http://localhost/admin/5/stages', await adminCookie()), { tournamentId: '5' })));
    expect(page.body.lobbyDefault).toBe(12);
    expect(page.body.stages).toEqual([
      expect.objectContaining({ id: 7, order: 1, state: 'published', groups: 2, entrants: 4, advance: 'Top 1 per group' }),
      expect.objectContaining({ id: 8, order: 2, groups: 0, advance: 'Final: nobody advances' }),
    ]);
    // Drafts come too: the admin's token goes along.
    expect(seen('GET', '/tournaments/5/stages').at(-1)!.headers.authorization).toMatch(/^Bearer /);
  });

  it('refuses a bad lobby size beside the field without calling the gateway, keeping the input', async () => {
    const cookie = await adminCookie();
    const before = stub.seen.length;
    const res = unwrap(
      await list.action(
        args(
          post(
            'http://localhost/admin/5/stages',
            [
              ['name', 'Qualifiers'],
              ['lobbySize', '1'],
              ['firstSlot', ''],
              ['advancePerGroup', '2'],
            ],
            cookie,
          ),
          { tournamentId: '5' },
        ),
      ),
    );
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors.lobbySize).toBe('Lobby size must be a whole number from 2 to 25.');
    expect(res.body.values).toEqual({ name: 'Qualifiers', lobbySize: '1', firstSlot: '', advancePerGroup: '2' });
    expect(stub.seen.length).toBe(before);
  });

  it('sends numbers, leaves blank fields out, and shows a gateway refusal by its field', async () => {
    routes({ 'POST /tournaments/5/stages': () => [201, { ...STAGE, id: 9, name: 'Semis', state: 'draft', groups: [] }] });
    const cookie = await adminCookie();
    const ok = (await list.action(
      args(
        post(
          'http://localhost/admin/5/stages',
          [
            ['name', ' Semis '],
            ['lobbySize', '4'],
            ['firstSlot', ''],
            ['advancePerGroup', '1'],
            ['advanceBest', '0'],
          ],
          cookie,
        ),
        {
          tournamentId: '5',
        },
      ),
    )) as Response;
    expect(ok.status).toBe(302);
    expect(ok.headers.get('location')).toBe('/admin/5/stages/9');
    expect(seen('POST', '/tournaments/5/stages').at(-1)!.body).toEqual({ name: 'Semis', lobbySize: 4, advancePerGroup: 1, advanceBest: 0 });

    routes({
      'POST /tournaments/5/stages': () => [
        400,
        { message: 'Invalid input', errors: { lobbySize: 'Lobby size is required for this game.' } },
      ],
    });
    const refused = unwrap(
      await list.action(args(post('http://localhost/admin/5/stages', [['name', 'Semis']], cookie), { tournamentId: '5' })),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.fieldErrors).toEqual({ lobbySize: 'Lobby size is required for this game.' });
    expect(refused.body.values.name).toBe('Semis');
  });
});

describe('stage page', () => {
  const stageRoutes = (extra: Record<string, (req: SeenRequest) => [number, unknown]> = {}, matches: unknown[] = []) =>
    routes({
      'GET /tournaments/5': () => [200, TOURNAMENT],
      'GET /tournaments/5/stages': () => [200, [STAGE]],
      'GET /matches/tournament/5': () => [200, matches],
      'GET /tournaments/5/stages/7/entrants': () => [
        200,
        [101, 102, 103, 104].map((id) => ({ teamId: id, teamName: `Team ${id}`, via: 'confirmed', seed: null })),
      ],
      'GET /tournaments/5/stages/7/advance': () => [
        200,
        {
          stage: STAGE,
          qualifiers: [{ teamId: 101, teamName: 'Team 101', groupName: 'A', groupRank: 1, stageRank: 1, totalPoints: 20, via: 'group' }],
          cuts: [
            {
              scope: 'Group A',
              lastIn: { teamId: 101, teamName: 'Team 101', rank: 1 },
              firstOut: { teamId: 102, teamName: 'Team 102', rank: 2 },
              decidedBy: 'Team 101 20 points, Team 102 12 points.',
            },
          ],
          nextStage: null,
          missing: [],
        },
      ],
      ...extra,
    });
  const act = async (fields: [string, string][]) => stagePage.action(args(post(STAGE_URL, fields, await adminCookie()), STAGE_PARAMS));

  it('shows one group at a time (?group=), the group matches by day and match, and who advances', async () => {
    stageRoutes({}, [match(41, 1, 1, GROUP_B, '700'), match(40, 1, 1, GROUP_A), { ...match(99, 1, 1, GROUP_A), stageId: 3 }]);
    const page = unwrap(await stagePage.loader(args(get(`${STAGE_URL}?group=32`, await adminCookie()), STAGE_PARAMS)));
    expect(page.body.shownGroup).toEqual(GROUP_B);
    expect(page.body.groups).toEqual([
      { id: 31, name: 'A', count: 2 },
      { id: 32, name: 'B', count: 2 },
    ]);
    expect(page.body.slots).toEqual([{ day: 1, matchNo: 1, map: 'Bermuda', time: '18:00', groups: 2 }]);
    expect(page.body.rooms.inline).toBe(true);
    expect(page.body.rooms.slots[0].groups[1]).toEqual({ id: 41, groupId: 32, groupName: 'B', room: '700', pw: 'pw' });
    expect(page.body.advance.cuts).toEqual([
      { scope: 'Group A', line: 'Team 101 in, Team 102 out — Team 101 20 points, Team 102 12 points.' },
    ]);
    expect(page.body.advance.qualifiers).toEqual([{ teamId: 101, line: 'Team 101 · A1 · 20 pts' }]);
  });

  it('past 40 registered teams, the invite select lists only the teams a name search finds', async () => {
    const later = { ...STAGE, order: 2, name: 'Finals' };
    stageRoutes({
      'GET /tournaments/5/stages': () => [200, [later]],
      'GET /registrations/tournament/5': () => [200, Array.from({ length: 60 }, (_, i) => registration(i + 1, `Crew ${i + 1}`))],
      'GET /tournaments/5/stages/7/entrants': () => [200, [{ teamId: 12, teamName: 'Crew 12', via: 'invited', seed: null }]],
    });
    const cookie = await adminCookie();
    const none = unwrap(await stagePage.loader(args(get(STAGE_URL, cookie), STAGE_PARAMS)));
    expect(none.body.invite).toEqual({ search: true, query: '', teams: [], more: false });
    expect(none.body.entrants.invited).toEqual([{ teamId: 12, teamName: 'Crew 12' }]);
    const found = unwrap(await stagePage.loader(args(get(`${STAGE_URL}?team=crew 1`, cookie), STAGE_PARAMS)));
    // Crew 1, 10, 11, 13 … 19: Crew 12 is already in the stage.
    expect(found.body.invite.teams.map((t: { rid: number }) => t.rid)).toEqual([1, 10, 11, 13, 14, 15, 16, 17, 18, 19]);
  });

  it('with many group matches, shows the rooms of one day and match at a time', async () => {
    const many = Array.from({ length: 40 }, (_, g) => ({ id: 200 + g, name: `G${g}` }));
    const matches = [1, 2].flatMap((n) => many.map((g) => match(n * 1000 + g.id, 1, n, g)));
    stageRoutes({}, matches);
    const page = unwrap(await stagePage.loader(args(get(`${STAGE_URL}?rooms=1-2`, await adminCookie()), STAGE_PARAMS)));
    expect(page.body.rooms.inline).toBe(false);
    expect(page.body.rooms.slots).toHaveLength(1);
    expect(page.body.rooms.slots[0]).toMatchObject({ day: 1, matchNo: 2 });
    expect(page.body.rooms.slots[0].groups).toHaveLength(40);
  });

  it('refuses an unknown intent, and delete / complete without the confirmation, without calling the gateway', async () => {
    const before = stub.seen.length;
    expect(unwrap(await act([['intent', 'explode']])).status).toBe(400);
    const del = unwrap(await act([['intent', 'delete']]));
    expect(del.status).toBe(400);
    expect(del.body.fieldErrors.confirm).toMatch(/Tick the box/);
    expect(del.body.values.intent).toBe('delete');
    expect(unwrap(await act([['intent', 'complete']])).body.fieldErrors.confirm).toMatch(/Tick the box/);
    expect(stub.seen.length).toBe(before);
  });

  it('deletes with the confirmation and goes back to the list', async () => {
    routes({ 'DELETE /tournaments/5/stages/7': () => [200, { message: 'ok' }] });
    const res = (await act([
      ['intent', 'delete'],
      ['confirm', 'yes'],
    ])) as Response;
    expect(res.headers.get('location')).toBe('/admin/5/stages');
    expect(seen('DELETE', '/tournaments/5/stages/7')).toHaveLength(1);
  });

  it("keeps the gateway's reason when a delete is refused", async () => {
    routes({ 'DELETE /tournaments/5/stages/7': () => [409, { message: 'Delete the later stage first.' }] });
    const res = unwrap(
      await act([
        ['intent', 'delete'],
        ['confirm', 'yes'],
      ]),
    );
    expect(res.status).toBe(409);
    expect(res.body.formError).toBe('Delete the later stage first.');
  });

  it('draws: a random draw sends its seed, a registration draw none; a bad seed is refused here', async () => {
    routes({ 'POST /tournaments/5/stages/7/groups': () => [200, STAGE] });
    await act([
      ['intent', 'draw'],
      ['method', 'random'],
      ['seed', 'cup-2026'],
    ]);
    expect(seen('POST', '/tournaments/5/stages/7/groups').at(-1)!.body).toEqual({ method: 'random', seed: 'cup-2026' });
    await act([
      ['intent', 'draw'],
      ['method', 'registration'],
      ['seed', 'ignored'],
    ]);
    expect(seen('POST', '/tournaments/5/stages/7/groups').at(-1)!.body).toEqual({ method: 'registration' });
    const bad = unwrap(
      await act([
        ['intent', 'draw'],
        ['method', 'random'],
        ['seed', 'no spaces'],
      ]),
    );
    expect(bad.body.fieldErrors.seed).toBe('Seed may only contain letters, digits, "-" and "_".');
    expect(bad.body.values).toMatchObject({ intent: 'draw', method: 'random', seed: 'no spaces' });
    const none = unwrap(await act([['intent', 'draw']]));
    expect(none.body.fieldErrors.method).toBe('Method is required.');
  });

  it('moves a slot, putting the gateway’s to.slot error beside the "To slot" field', async () => {
    routes({
      'POST /tournaments/5/stages/7/slots': () => [
        409,
        { message: 'Group B is full.', errors: { 'to.slot': 'Slot 3 is outside group B (1–2).' } },
      ],
    });
    const res = unwrap(
      await act([
        ['intent', 'move'],
        ['fromGroup', '31'],
        ['fromSlot', '1'],
        ['toGroup', '32'],
        ['toSlot', '3'],
      ]),
    );
    expect(seen('POST', '/tournaments/5/stages/7/slots').at(-1)!.body).toEqual({
      from: { groupId: 31, slot: 1 },
      to: { groupId: 32, slot: 3 },
    });
    expect(res.status).toBe(409);
    expect(res.body.fieldErrors).toEqual({ toSlot: 'Slot 3 is outside group B (1–2).' });
    expect(res.body.values).toMatchObject({ fromGroup: '31', toSlot: '3' });

    routes({ 'POST /tournaments/5/stages/7/slots': () => [200, STAGE] });
    const ok = (await act([
      ['intent', 'move'],
      ['fromGroup', '31'],
      ['fromSlot', '1'],
      ['toGroup', '32'],
      ['toSlot', '2'],
      ['group', '32'],
    ])) as Response;
    expect(ok.headers.get('location')).toBe('/admin/5/stages/7?group=32');
    const empty = unwrap(await act([['intent', 'move']]));
    expect(Object.keys(empty.body.fieldErrors).sort()).toEqual(['fromGroup', 'fromSlot', 'toGroup', 'toSlot']);
  });

  it('schedules the non-blank rows and puts the gateway’s row errors beside the form rows they came from', async () => {
    routes({
      'POST /tournaments/5/stages/7/matches': () => [
        400,
        { message: 'Invalid input', errors: { 'matches.1.map': 'Map is too long.', day: 'Day 1 match 1 belongs to Finals.' } },
      ],
    });
    const fields: [string, string][] = [
      ['intent', 'schedule'],
      ['day.0', '1'],
      ['matchNo.0', '1'],
      ['map.0', 'Bermuda'],
      ['time.0', '18:00'],
      ['day.1', '1'],
      ['matchNo.1', '2'],
      ['map.1', ''],
      ['time.1', ''],
      ['day.2', '1'],
      ['matchNo.2', '3'],
      ['map.2', 'Kalahari'],
      ['time.2', '19:20'],
    ];
    const res = unwrap(await act(fields));
    expect(seen('POST', '/tournaments/5/stages/7/matches').at(-1)!.body).toEqual({
      matches: [
        { day: 1, matchNo: 1, map: 'Bermuda', time: '18:00' },
        { day: 1, matchNo: 3, map: 'Kalahari', time: '19:20' },
      ],
    });
    expect(res.body.fieldErrors).toEqual({ 'map.2': 'Map is too long.' });
    expect(res.body.formError).toBe('Day 1 match 1 belongs to Finals.');
    expect(res.body.values['map.2']).toBe('Kalahari');
  });

  it('refuses an all-blank schedule and a row without its time here', () => {
    expect(parseScheduleForm(form([['day.0', '1']]))).toMatchObject({
      ok: false,
      formError: 'Fill in at least one match: its map and time.',
    });
    const noTime = parseScheduleForm(
      form([
        ['day.3', '2'],
        ['matchNo.3', '1'],
        ['map.3', 'Bermuda'],
      ]),
    );
    expect(noTime).toMatchObject({ ok: false, fieldErrors: { 'time.3': 'Time is required.' } });
  });

  it('saves every room in one call; a refusal lands beside the room and keeps the passwords', async () => {
    routes({
      'PUT /tournaments/5/stages/7/rooms': () => [
        400,
        { message: 'Invalid input', errors: { 'rooms.1.password': 'Room password must be at most 50 characters.' } },
      ],
    });
    const res = unwrap(
      await act([
        ['intent', 'rooms'],
        ['room.40', ' 7001 '],
        ['pw.40', 'alpha'],
        ['room.41', '7002'],
        ['pw.41', 'beta'],
      ]),
    );
    expect(seen('PUT', '/tournaments/5/stages/7/rooms').at(-1)!.body).toEqual({
      rooms: [
        { id: 40, matchId: '7001', password: 'alpha' },
        { id: 41, matchId: '7002', password: 'beta' },
      ],
    });
    expect(res.body.fieldErrors).toEqual({ 'pw.41': 'Room password must be at most 50 characters.' });
    expect(res.body.values).toMatchObject({ 'pw.40': 'alpha', 'pw.41': 'beta', intent: 'rooms' });
    expect(unwrap(await act([['intent', 'rooms']])).body.formError).toMatch(/schedule the matches first/);
  });

  it('publishes, completes with the confirmation and reopens, each a plain POST that redirects back', async () => {
    routes({
      'POST /tournaments/5/stages/7/publish': () => [200, STAGE],
      'POST /tournaments/5/stages/7/complete': () => [200, { stage: STAGE, qualifiers: [], cuts: [], nextStage: null, missing: [] }],
      'POST /tournaments/5/stages/7/reopen': () => [409, { message: 'The next stage already has results.' }],
    });
    expect(((await act([['intent', 'publish']])) as Response).headers.get('location')).toBe('/admin/5/stages/7');
    expect(
      (
        (await act([
          ['intent', 'complete'],
          ['confirm', 'yes'],
        ])) as Response
      ).headers.get('location'),
    ).toBe('/admin/5/stages/7');
    const reopen = unwrap(await act([['intent', 'reopen']]));
    expect(reopen.status).toBe(409);
    expect(reopen.body.formError).toBe('The next stage already has results.');
  });

  it('invites a chosen team and refuses an empty choice here', async () => {
    routes({ 'POST /tournaments/5/stages/7/invites': () => [200, []] });
    expect(unwrap(await act([['intent', 'invite']])).body.fieldErrors.teamId).toBe('Choose a team to invite.');
    await act([
      ['intent', 'invite'],
      ['teamId', '120'],
    ]);
    expect(seen('POST', '/tournaments/5/stages/7/invites').at(-1)!.body).toEqual({ teamId: 120 });
    // Issue 27: "ask the team to check in" is sent only when ticked.
    await act([
      ['intent', 'invite'],
      ['teamId', '121'],
      ['checkIn', 'yes'],
    ]);
    expect(seen('POST', '/tournaments/5/stages/7/invites').at(-1)!.body).toEqual({ teamId: 121, checkIn: true });
  });

  describe('issue 27', () => {
    const missing = [
      { id: 40, day: 1, matchNo: 1, groupId: 31, groupName: 'A', notPlayed: false },
      { id: 43, day: 1, matchNo: 2, groupId: 32, groupName: 'B', notPlayed: true },
    ];
    const counted = { ...STAGE, groupMatches: { scheduled: 4, withResults: 1, notPlayed: 1 } };

    it('shows "1 of 4 group-matches have results" and lists the matches without results, marked ones ticked', async () => {
      stageRoutes({
        'GET /tournaments/5/stages': () => [200, [counted]],
        'GET /tournaments/5/stages/7/advance': () => [200, { stage: counted, qualifiers: [], cuts: [], nextStage: null, missing }],
      });
      const page = unwrap(await stagePage.loader(args(get(STAGE_URL, await adminCookie()), STAGE_PARAMS)));
      expect(page.body.stage.resultsLine).toBe('1 of 4 group-matches have results; 1 marked not played');
      expect(page.body.advance.missing).toEqual([
        { id: 40, label: 'Day 1 · Match 1 · Group A', notPlayed: false },
        { id: 43, label: 'Day 1 · Match 2 · Group B', notPlayed: true },
      ]);
    });

    it('completes with the ticked matches as notPlayed; a refusal keeps the ticks and shows the count beside them', async () => {
      const message = '1 of 4 group-matches have results. Enter the results of Day 1 match 2 Group A, or mark it as not played.';
      routes({ 'POST /tournaments/5/stages/7/complete': () => [409, { message, errors: { notPlayed: message } }] });
      const res = unwrap(
        await act([
          ['intent', 'complete'],
          ['confirm', 'yes'],
          ['notPlayed', '40'],
          ['notPlayed', '43'],
          ['notPlayed', 'x'],
        ]),
      );
      expect(seen('POST', '/tournaments/5/stages/7/complete').at(-1)!.body).toEqual({ notPlayed: [40, 43] });
      expect(res.status).toBe(409);
      expect(res.body.fieldErrors).toEqual({ notPlayed: message });
      expect(res.body.values).toMatchObject({ notPlayed: '40,43', intent: 'complete' });
    });

    it('says how many checked in, warns before a small split, and sends confirmSplit only when ticked', async () => {
      const windowed = {
        ...STAGE,
        state: 'draft',
        lobbySize: 8,
        entrants: 12,
        checkedIn: 9,
        groups: [],
        checkIn: { opensAt: '2026-12-01T10:00:00.000Z', closesAt: '2026-12-01T11:00:00.000Z', noShows: null },
      };
      stageRoutes({
        'GET /tournaments/5/stages': () => [200, [windowed]],
        'GET /tournaments/5/stages/7/check-ins': () => [
          200,
          { stageId: 7, opensAt: windowed.checkIn.opensAt, closesAt: windowed.checkIn.closesAt, closed: true, noShows: null, teams: [] },
        ],
      });
      const page = unwrap(await stagePage.loader(args(get(STAGE_URL, await adminCookie()), STAGE_PARAMS)));
      expect(page.body.stage).toMatchObject({ checkedIn: 9, entrants: 12 });
      expect(page.body.split).toBe('9 teams are 1 more than one lobby of 8: the draw makes 2 smaller groups.');

      routes({ 'POST /tournaments/5/stages/7/groups': () => [200, windowed] });
      await act([
        ['intent', 'draw'],
        ['method', 'registration'],
        ['confirmSplit', 'yes'],
      ]);
      expect(seen('POST', '/tournaments/5/stages/7/groups').at(-1)!.body).toEqual({ method: 'registration', confirmSplit: true });
      await act([
        ['intent', 'draw'],
        ['method', 'registration'],
      ]);
      expect(seen('POST', '/tournaments/5/stages/7/groups').at(-1)!.body).toEqual({ method: 'registration' });
    });

    it('a 6-match stage goes in one submit (8 rows shown), with the minutes between groups', async () => {
      stageRoutes();
      const page = unwrap(await stagePage.loader(args(get(STAGE_URL, await adminCookie()), STAGE_PARAMS)));
      expect(page.body.scheduleRows).toBeGreaterThanOrEqual(8);
      const rows = Array.from({ length: 6 }, (_, r): [string, string][] => [
        [`day.${r}`, '1'],
        [`matchNo.${r}`, String(r + 1)],
        [`map.${r}`, 'Bermuda'],
        [`time.${r}`, `1${r}:00`],
      ]).flat();
      const parsed = parseScheduleForm(form([['groupGap', '90'], ...rows]));
      expect(parsed.ok && parsed.body.matches).toHaveLength(6);
      expect(parsed.ok && parsed.body.groupGap).toBe(90);
      expect(parseScheduleForm(form([['groupGap', '-5'], ...rows]))).toMatchObject({
        ok: false,
        fieldErrors: { groupGap: 'Minutes between groups must be a whole number from 0 to 720.' },
      });
    });
  });
});

describe('group results', () => {
  const URL_A = `${STAGE_URL}/results?day=1&match=2&group=31`;
  const groupRoutes = (extra: Record<string, (req: SeenRequest) => [number, unknown]> = {}) =>
    routes({
      'GET /tournaments/5': () => [200, TOURNAMENT],
      'GET /tournaments/5/stages': () => [200, [STAGE]],
      ...extra,
    });

  it('reads rows by team: empty is 0, a team at 0 and 0 is left out, an absent team is sent as absent', () => {
    const parsed = parseResultsForm(
      form([
        ['position.101', '1'],
        ['finishes.101', ' 6 '],
        ['position.102', ''],
        ['finishes.102', ''],
        ['position.103', ''],
        ['finishes.103', ''],
        ['absent.103', 'on'],
        ['position.999', '2'],
      ]),
      { teamIds: [101, 102, 103], absent: true },
    );
    expect(parsed).toEqual({
      ok: true,
      rows: [
        { teamId: 101, position: 1, finishes: 6 },
        { teamId: 103, position: 0, finishes: 0, absent: true },
      ],
      values: {
        'position.101': '1',
        'finishes.101': ' 6 ',
        'position.102': '',
        'finishes.102': '',
        'position.103': '',
        'finishes.103': '',
        'absent.103': 'on',
      },
    });
    expect(parseResultsForm(form([['position.101', 'x']]), { teamIds: [101], absent: true })).toMatchObject({
      ok: false,
      fieldErrors: { 'position.101': 'Position must be a whole number from 0 to 100.' },
    });
  });

  it("lists the group's teams in slot order, prefilled from the group's results", async () => {
    groupRoutes({
      'GET /tournaments/5/points-table/results': (req) => {
        expect(new URL(req.url, 'http://x').searchParams.get('group')).toBe('31');
        return [
          200,
          [
            {
              id: 1,
              tid: 5,
              day: 1,
              match: 2,
              teamId: 102,
              teamName: 'Team 102',
              position: 0,
              positionPoints: 0,
              wins: 0,
              finishes: 0,
              totalPoints: 0,
              groupId: 31,
              absent: true,
            },
          ],
        ];
      },
    });
    const page = unwrap(await results.loader(args(get(URL_A, await adminCookie()), STAGE_PARAMS)));
    expect(page.body.teams.map((t: { slot: number; teamId: number }) => [t.slot, t.teamId])).toEqual([
      [1, 101],
      [2, 102],
    ]);
    expect(page.body.saved['102']).toEqual({ position: 0, finishes: 0, absent: true, totalPoints: 0 });
    expect(page.body.lobby).toEqual({ teams: 2, maxFinishes: 4 });
  });

  // Issue 27 item 22: the game's result screen lists players, so the grid shows each team's IGNs under its name.
  it("shows the four players' IGNs under each team name, and still works when the registrations cannot be read", async () => {
    groupRoutes({
      'GET /tournaments/5/points-table/results': () => [200, []],
      'GET /registrations/tournament/5': () => [
        200,
        [registration(101, 'Team 101'), { ...registration(102, 'Team 102'), player4Username: '' }],
      ],
    });
    const cookie = await adminCookie();
    const page = unwrap(await results.loader(args(get(URL_A, cookie), STAGE_PARAMS)));
    expect(page.body.teams.map((t: { teamId: number; igns: string[] }) => [t.teamId, t.igns])).toEqual([
      [101, ['igl_101', 'p2_101', 'p3_101', 'p4_101']],
      [102, ['igl_102', 'p2_102', 'p3_102']],
    ]);

    groupRoutes({
      'GET /tournaments/5/points-table/results': () => [200, []],
      'GET /registrations/tournament/5': () => [403, { message: 'Forbidden' }],
    });
    const without = unwrap(await results.loader(args(get(URL_A, cookie), STAGE_PARAMS)));
    expect(without.body.teams.map((t: { igns: string[] }) => t.igns)).toEqual([[], []]);
  });

  it('answers 404 for a group of another stage or a missing match number', async () => {
    groupRoutes();
    const cookie = await adminCookie();
    const other = (await thrown(() =>
      results.loader(args(get(`${STAGE_URL}/results?day=1&match=2&group=99`, cookie), STAGE_PARAMS)),
    )) as Response;
    expect(other.status).toBe(404);
    const noMatch = (await thrown(() =>
      results.loader(args(get(`${STAGE_URL}/results?day=1&group=31`, cookie), STAGE_PARAMS)),
    )) as Response;
    expect(noMatch.status).toBe(404);
  });

  it("saves the group's rows with its groupId, and shows the gateway's row errors beside their rows", async () => {
    groupRoutes({
      'PUT /tournaments/5/points-table/matches/1/2': () => [
        400,
        {
          message: 'Invalid input',
          errors: {
            'finishes.101': 'Finishes must be from 0 to 4.',
            'absent.102': 'An absent team has position 0.',
            other: 'Two winners.',
          },
        },
      ],
    });
    const cookie = await adminCookie();
    const res = unwrap(
      await results.action(
        args(
          post(
            URL_A,
            [
              ['position.101', '1'],
              ['finishes.101', '9'],
              ['position.102', '2'],
              ['absent.102', 'on'],
            ],
            cookie,
          ),
          STAGE_PARAMS,
        ),
      ),
    );
    expect(seen('PUT', '/tournaments/5/points-table/matches/1/2').at(-1)!.body).toEqual({
      groupId: 31,
      results: [
        { teamId: 101, position: 1, finishes: 9 },
        { teamId: 102, position: 2, finishes: 0, absent: true },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors).toEqual({
      'finishes.101': 'Finishes must be from 0 to 4.',
      'absent.102': 'An absent team has position 0.',
    });
    expect(res.body.formError).toBe('Failed to save the results. Two winners.');
    expect(res.body.values).toMatchObject({ 'finishes.101': '9', 'absent.102': 'on' });

    groupRoutes({ 'PUT /tournaments/5/points-table/matches/1/2': () => [200, []] });
    const ok = (await results.action(args(post(URL_A, [['position.101', '1']], cookie), STAGE_PARAMS))) as Response;
    expect(ok.headers.get('location')).toBe('/admin/5/stages/7/results?day=1&match=2&group=31');
  });
});

describe('stage CSV exports', () => {
  it('slots: group, slot, team, the IGNs and the captain (player 1), formula-guarded, in group and slot order', async () => {
    routes({
      'GET /tournaments/5/stages': () => [200, [{ ...STAGE, groups: [GROUP_B, GROUP_A] }]],
      'GET /registrations/tournament/5': () => [200, [101, 102, 103, 104].map((rid) => registration(rid, `Team ${rid}`))],
    });
    const res = (await slotsCsv.loader(args(get(`${STAGE_URL}/slots.csv`, await adminCookie()), STAGE_PARAMS))) as Response;
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="tournament-5-Qualifiers-slots.csv"');
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    // The players cell holds '; ' so it is quoted (issue 27 item 20: Excel with a semicolon separator).
    expect(lines).toEqual([
      'group,slot,team,players,captain',
      `A,1,"'=HYPERLINK(""x"")","igl_101; p2_101; p3_101; p4_101",igl_101`,
      'A,2,Team 102,"igl_102; p2_102; p3_102; p4_102",igl_102',
      'B,1,Team 103,"igl_103; p2_103; p3_103; p4_103",igl_103',
      'B,2,Team 104,"igl_104; p2_104; p3_104; p4_104",igl_104',
    ]);
  });

  it('results: one line per team and group match, absent marked; a missing stage is a plain 404', async () => {
    routes({
      'GET /tournaments/5/stages': () => [200, [STAGE]],
      'GET /matches/tournament/5': () => [
        200,
        [match(41, 1, 1, GROUP_B), match(40, 1, 1, GROUP_A), { ...match(99, 1, 1, GROUP_A), stageId: 3 }],
      ],
      'GET /tournaments/5/points-table/results': (req) => {
        const group = new URL(req.url, 'http://x').searchParams.get('group');
        const row = (teamId: number, position: number, absent = false) => ({
          id: teamId,
          tid: 5,
          day: 1,
          match: 1,
          teamId,
          teamName: `Team ${teamId}`,
          position,
          positionPoints: position === 1 ? 12 : 0,
          wins: position === 1 ? 1 : 0,
          finishes: position ? 3 : 0,
          totalPoints: position === 1 ? 15 : position ? 3 : 0,
          groupId: Number(group),
          ...(absent ? { absent: true } : {}),
        });
        return [200, group === '31' ? [row(102, 1), row(101, 2)] : [row(103, 1), row(104, 0, true)]];
      },
    });
    const cookie = await adminCookie();
    const res = (await resultsCsv.loader(args(get(`${STAGE_URL}/results.csv`, cookie), STAGE_PARAMS))) as Response;
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toEqual([
      'group,slot,team,day,match,position,finishes,points,absent',
      'A,1,Team 101,1,1,2,3,3,no',
      'A,2,Team 102,1,1,1,3,15,no',
      'B,1,Team 103,1,1,1,3,15,no',
      'B,2,Team 104,1,1,0,0,0,yes',
    ]);
    const missing = (await resultsCsv.loader(
      args(get('http://localhost/admin/5/stages/70/results.csv', cookie), { tournamentId: '5', stageId: '70' }),
    )) as Response;
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe('Stage not found.');
  });
});
