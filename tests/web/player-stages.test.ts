import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { matchStartsAt } from '@custom-room/contract/constants';
import { pointsRow, registrationJson } from '../support';
import { renderPage } from '../support/render';
import {
  cookieOf,
  json,
  startGatewayStub,
  thrown,
  unwrap,
  useStubEnv,
  type GatewayStub,
  type StubHandler,
  composeSchedule,
} from './support/gateway-stub';

// Issue 18, players' and visitors' screens. Route modules are imported after the environment points at the stub gateway.
let stub: GatewayStub;
let matchesRoute: typeof import('~/routes/tournament.$tournamentId.matches/route');
let teamRoute: typeof import('~/routes/team.$tournamentId');
let myRoute: typeof import('~/routes/my-tournaments._index');
let infoRoute: typeof import('~/routes/my-tournaments.$tournamentId.info');
let detailRoute: typeof import('~/routes/tournaments.$tournamentId');
let pointsRoute: typeof import('~/routes/tournaments.$tournamentId_.points-table');
let stagesRoute: typeof import('~/routes/tournaments.$tournamentId_.stages');
let groupRoute: typeof import('~/routes/tournaments.$tournamentId_.stages_.$stageId.groups.$groupId');
let session: typeof import('~/utils/session.server');
let stages: typeof import('~/utils/stages');

beforeAll(async () => {
  stub = await startGatewayStub();
  await useStubEnv(stub);
  matchesRoute = await import('~/routes/tournament.$tournamentId.matches/route');
  teamRoute = await import('~/routes/team.$tournamentId');
  myRoute = await import('~/routes/my-tournaments._index');
  infoRoute = await import('~/routes/my-tournaments.$tournamentId.info');
  detailRoute = await import('~/routes/tournaments.$tournamentId');
  pointsRoute = await import('~/routes/tournaments.$tournamentId_.points-table');
  stagesRoute = await import('~/routes/tournaments.$tournamentId_.stages');
  groupRoute = await import('~/routes/tournaments.$tournamentId_.stages_.$stageId.groups.$groupId');
  session = await import('~/utils/session.server');
  stages = await import('~/utils/stages');
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.seen.length = 0;
});

const TID = 5;
const tournament = {
  id: TID,
  name: 'Monsoon Cup',
  game: 'BGMI',
  startDate: '2030-06-01T12:00:00.000Z',
  endDate: '2030-06-03T12:00:00.000Z',
  status: 'Ongoing',
  entryFee: 0,
};
const placement = (over: Record<string, unknown> = {}) => ({
  stageId: 11,
  stageName: 'Qualifiers',
  stageState: 'published',
  groupId: 103,
  groupName: 'C',
  slot: 7,
  outcome: null,
  ...over,
});
const qualified = placement({
  stageState: 'completed',
  outcome: { groupRank: 2, stageRank: 5, qualified: true, nextStageName: 'Semi-finals', final: false },
});
const team = (over: Record<string, unknown> = {}) => registrationJson({ tid: TID, paymentStatus: 'verified', ...over });

/** A group match as GET /matches/tournament/{tid} answers it. */
const gm = (id: number, groupId: number, groupName: string, over: Record<string, unknown> = {}) => ({
  id,
  tid: TID,
  day: 1,
  matchNo: 1,
  map: 'Erangel',
  matchId: null,
  password: null,
  time: '18:30',
  groupId,
  groupName,
  stageId: 11,
  stageName: 'Qualifiers',
  ...over,
});

/** A stage as GET /tournaments/{id}/stages answers it. */
function stageJson(
  id: number,
  name: string,
  order: number,
  state: string,
  groupCount: number,
  perGroup = 4,
  over: Record<string, unknown> = {},
) {
  const groups = Array.from({ length: groupCount }, (_, g) => ({
    id: id * 100 + g + 1,
    name: String.fromCharCode(65 + (g % 26)) + (g >= 26 ? String.fromCharCode(65 + Math.floor(g / 26) - 1) : ''),
    slots: Array.from({ length: perGroup }, (_, s) => ({ slot: s + 1, teamId: g * 100 + s + 1, teamName: `Squad ${g}-${s}` })),
  }));
  return {
    id,
    tid: TID,
    name,
    order,
    lobbySize: perGroup,
    firstSlot: 1,
    advancePerGroup: 2,
    advanceBest: 0,
    state,
    draw: { method: 'registration', seed: null, drawnAt: '2030-05-30T10:00:00.000Z' },
    entrants: groupCount * perGroup,
    hasResults: false,
    groupGap: 0,
    groupMatches: { scheduled: 0, withResults: 0, notPlayed: 0 },
    groups: state === 'draft' ? [] : groups,
    ...over,
  };
}

const args = (request: Request, params: Record<string, string> = { tournamentId: String(TID) }) => ({ request, params, context: {} });

function gatewayAnswers(routes: Record<string, StubHandler>) {
  const handle: StubHandler = (req, res) => {
    if (composeSchedule(handle, req, res)) return;
    const path = req.url.split('?')[0]!;
    if (routes[`${req.method} ${path}`]) return routes[`${req.method} ${path}`]!(req, res);
    if (req.method === 'GET' && path === `/tournaments/${TID}`) return json(res, 200, tournament);
    if (req.method === 'GET' && path === `/tournaments/${TID}/stages`) return json(res, 200, []);
    // Issue 27: the days the asked table has matches on.
    if (req.method === 'GET' && path === `/tournaments/${TID}/points-table/days`) return json(res, 200, { days: [1, 2] });
    json(res, 404, { message: 'Tournament not found.' });
  };
  stub.answer(handle);
}

async function signedIn(url: string) {
  const res = await session.createUserSession(
    new Request('http://localhost/login'),
    await stub.token({ username: 'player_one' }),
    'player_one',
    '/',
  );
  return new Request(url, { headers: { cookie: cookieOf(res) } });
}

describe('labels', () => {
  it('names the stage, group and slot, and the outcome only once the stage is completed', () => {
    expect(stages.placementView(placement())).toEqual({
      stageId: 11,
      groupId: 103,
      groupName: 'C',
      label: 'Qualifiers · Group C · Slot 7',
      outcome: null,
    });
    expect(stages.placementView(qualified).outcome).toBe('Qualified for Semi-finals (2nd in Group C)');
    const out = placement({
      stageState: 'completed',
      outcome: { groupRank: 14, stageRank: 40, qualified: false, nextStageName: 'Semi-finals', final: false },
    });
    expect(stages.placementView(out).outcome).toBe('Eliminated in Qualifiers (14th in Group C)');
    // An outcome the gateway sent for a stage that is not completed (reopened) is not shown.
    expect(stages.placementView({ ...qualified, stageState: 'published' }).outcome).toBeNull();
    expect(stages.placementViews(undefined)).toEqual([]);
  });

  it('dates a match from the start date (its day in IST), the day and the time', () => {
    // 1 Jun 2030 17:30 IST; day 2 at 18:30 IST is 2 Jun 13:00 UTC.
    expect(matchStartsAt('2030-06-01T12:00:00.000Z', 2, '18:30', 'Asia/Kolkata')).toBe(Date.parse('2030-06-02T13:00:00.000Z'));
    // 31 May 2030 20:00 UTC is already 1 Jun in India: day 1 is 1 Jun.
    expect(matchStartsAt('2030-05-31T20:00:00.000Z', 1, '09:05:00', 'Asia/Kolkata')).toBe(Date.parse('2030-06-01T03:35:00.000Z'));
    expect(matchStartsAt('', 1, '18:30', 'Asia/Kolkata')).toBeNull();
    expect(matchStartsAt('2030-06-01T12:00:00.000Z', 1, 'soon', 'Asia/Kolkata')).toBeNull();
    // One copy with the gateway's reminders (the contract's): seconds count, and a zone with daylight saving
    // takes the offset of the match's own day (Berlin: 30 Mar 2030 is CET +1, 31 Mar CEST +2).
    expect(matchStartsAt('2030-06-01T12:00:00.000Z', 1, '18:30:30', 'Asia/Kolkata')).toBe(Date.parse('2030-06-01T13:00:30.000Z'));
    expect(matchStartsAt('2030-03-30T10:00:00.000Z', 1, '20:00', 'Europe/Berlin')).toBe(Date.parse('2030-03-30T19:00:00.000Z'));
    expect(matchStartsAt('2030-03-30T10:00:00.000Z', 2, '20:00', 'Europe/Berlin')).toBe(Date.parse('2030-03-31T18:00:00.000Z'));
  });

  it('marks the first match that has not started as next', () => {
    const ms = [gm(3, 1, 'A', { day: 2, matchNo: 1 }), gm(1, 1, 'A', { matchNo: 1 }), gm(2, 1, 'A', { matchNo: 2, time: '19:15' })].map(
      (m) => ({
        ...m,
        groupName: m.groupName,
      }),
    );
    const start = '2030-06-01T12:00:00.000Z';
    const at = (iso: string) => stages.nextMatchId(ms, start, 'Asia/Kolkata', Date.parse(iso));
    expect(at('2030-05-01T00:00:00.000Z')).toBe(1);
    expect(at('2030-06-01T13:00:01.000Z')).toBe(2); // match 1 (18:30 IST) has started
    expect(at('2030-06-01T13:45:00.000Z')).toBe(2); // 19:15 IST: starting now
    expect(at('2030-06-01T13:45:01.000Z')).toBe(3);
    expect(at('2030-06-03T00:00:00.000Z')).toBeNull();
  });
});

describe('matches page with stages', () => {
  const schedule = [
    gm(1, 101, 'A', { matchId: '1111111', password: 'a-pass' }), // the gateway must not send this; the page must not show it anyway
    gm(2, 102, 'B'),
    gm(3, 103, 'C', { matchId: '3333333', password: 'c-pass' }),
    gm(4, 103, 'C', { matchNo: 2, map: 'Sanhok', time: '19:15', matchId: '4444444', password: 'c-pass2' }),
  ];

  it("lists the team's own group first with its rooms, the next match marked and the slot on every card; other groups after, without rooms", async () => {
    gatewayAnswers({
      [`GET /matches/tournament/${TID}`]: (_req, res) => json(res, 200, schedule),
      [`GET /registrations/${TID}`]: (_req, res) => json(res, 200, team({ placements: [placement()] })),
    });
    const loaded = unwrap(await matchesRoute.loader(args(await signedIn(`http://localhost/tournament/${TID}/matches`)))).body;
    expect(loaded.stages.own.map((m: { id: number }) => m.id)).toEqual([3, 4]);
    expect(loaded.stages.nextId).toBe(3);
    // A and B play the same match at the same time: one entry for both (decision 087).
    expect(loaded.stages.others).toEqual([
      {
        stageId: 11,
        stageName: 'Qualifiers',
        groups: [
          { groupId: 101, groupName: 'A' },
          { groupId: 102, groupName: 'B' },
        ],
        matches: [{ id: 1, day: 1, matchNo: 1, map: 'Erangel', time: '18:30' }],
      },
    ]);
    // Another group's room never reaches the page's data, even if the gateway sent it.
    expect(JSON.stringify(loaded)).not.toContain('1111111');

    const html = await renderPage(matchesRoute.default, loaded);
    expect(html.indexOf('Your matches')).toBeLessThan(html.indexOf('Other groups'));
    expect(html.indexOf('3333333')).toBeLessThan(html.indexOf('Other groups'));
    expect(html).toContain('<code class="room-v">4444444</code>');
    expect(html.match(/<p class="match-slot">Qualifiers · Group C · Slot 7<\/p>/g)).toHaveLength(2);
    // The next match: the first card, and only it.
    expect(html.match(/Next match/g)).toHaveLength(1);
    expect(html.indexOf('Next match')).toBeLessThan(html.indexOf('Day 1 · Match 1'));
    expect(html).toContain('<h3 id="group-101">Qualifiers · Groups A and B</h3>');
    expect(html).toContain('Room details are shown to each group&#x27;s own teams.');
    expect(html.match(/Day 1 · Match 1 · Sat 1 Jun · Erangel/g)).toHaveLength(1);
    expect(html).not.toContain('1111111');
    expect(html).not.toContain('a-pass');
    expect(html).not.toContain('only for registered teams');
  });

  it('shows a visitor every group without rooms, and a team not drawn yet why it has no group', async () => {
    gatewayAnswers({
      [`GET /matches/tournament/${TID}`]: (_req, res) =>
        json(
          res,
          200,
          schedule.map((m) => ({ ...m, matchId: null, password: null })),
        ),
    });
    const loaded = unwrap(await matchesRoute.loader(args(await signedIn(`http://localhost/tournament/${TID}/matches`)))).body;
    const html = await renderPage(matchesRoute.default, loaded);
    expect(html).not.toContain('Your matches');
    expect(html).toContain('>Groups<');
    expect(html).toContain('Room details are shown to Group C&#x27;s teams.');
    expect(html).toContain('Room IDs and passwords are only for registered teams.');
    expect(html).not.toContain('room-v');

    gatewayAnswers({
      [`GET /matches/tournament/${TID}`]: (_req, res) =>
        json(
          res,
          200,
          schedule.map((m) => ({ ...m, matchId: null, password: null })),
        ),
      [`GET /registrations/${TID}`]: (_req, res) => json(res, 200, team()),
    });
    const undrawn = await renderPage(
      matchesRoute.default,
      unwrap(await matchesRoute.loader(args(await signedIn(`http://localhost/tournament/${TID}/matches`)))).body,
    );
    expect(undrawn).toContain('Your team is not in a group yet.');
  });

  it('stays within 14 KB gzip (page and its data) for 40 groups with 6 matches each, at the same times or staggered', async () => {
    const { gzipSync } = await import('node:zlib');
    // Staggered: each group starts 30 minutes after the one before, so no two share a schedule.
    for (const staggered of [false, true]) {
      const big = Array.from({ length: 40 * 6 }, (_, i) => {
        const g = Math.floor(i / 6);
        const time = staggered ? `${String(10 + Math.floor(g / 2)).padStart(2, '0')}:${g % 2 ? '30' : '00'}` : '18:30';
        return gm(i + 1, 1000 + g, `G${g}`, { day: 1 + Math.floor((i % 6) / 3), matchNo: 1 + (i % 3), time });
      });
      gatewayAnswers({
        [`GET /matches/tournament/${TID}`]: (_req, res) => json(res, 200, big),
        [`GET /registrations/${TID}`]: (_req, res) => json(res, 200, team({ placements: [placement({ groupId: 1003, groupName: 'G3' })] })),
      });
      const loaded = unwrap(await matchesRoute.loader(args(await signedIn(`http://localhost/tournament/${TID}/matches`)))).body;
      const html = await renderPage(matchesRoute.default, loaded);
      expect(loaded.stages.others).toHaveLength(staggered ? 39 : 1);
      if (staggered) expect(html).toContain('Room details are shown to Group G39&#x27;s teams.');
      else expect(html).toContain('Qualifiers · Groups G0, G1, G2, G4, G5');
      // The document carries the markup and the loader data (for hydration).
      expect(gzipSync(html + JSON.stringify(loaded)).length).toBeLessThan(14 * 1024);
    }
  });

  it('renders a tournament without stages as before: days, "Match N" cards, no groups', async () => {
    const plain = [
      { id: 1, tid: TID, day: 1, matchNo: 1, map: 'Erangel', matchId: '1234567', password: 'soul#1', time: '18:30:00' },
      { id: 2, tid: TID, day: 2, matchNo: 1, map: 'Miramar', matchId: '', password: '', time: '20:00' },
    ];
    gatewayAnswers({
      [`GET /matches/tournament/${TID}`]: (_req, res) => json(res, 200, plain),
      [`GET /registrations/${TID}`]: (_req, res) => json(res, 200, team()),
    });
    const loaded = unwrap(await matchesRoute.loader(args(await signedIn(`http://localhost/tournament/${TID}/matches`)))).body;
    expect(loaded.stages).toBeNull();
    const html = await renderPage(matchesRoute.default, loaded);
    // Issue 27: each day heading carries its date.
    expect(html).toContain('<h2 id="day-1">Day 1 · Sat 1 Jun</h2>');
    expect(html).toContain('<h3 id="match-1">Match 1</h3>');
    expect(html).toContain('<code class="room-v">1234567</code>');
    for (const text of ['Group', 'Next match', 'Your matches', 'match-slot', 'match-next']) expect(html).not.toContain(text);
  });
});

describe('team, My Tournaments and the tournament page', () => {
  it("show the team's group and slot, and the outcome once the stage is completed", async () => {
    const placements = [qualified, placement({ stageId: 12, stageName: 'Semi-finals', groupId: 201, groupName: 'A', slot: 3 })];
    gatewayAnswers({
      [`GET /registrations/${TID}`]: (_req, res) => json(res, 200, team({ placements })),
      'GET /registrations/user': (_req, res) =>
        json(res, 200, [
          {
            ...team({ placements }),
            tournament: { id: TID, name: 'Monsoon Cup', game: 'BGMI', status: 'Ongoing', startDate: tournament.startDate, entryFee: 0 },
          },
        ]),
      [`GET /tournaments/${TID}/stages`]: (_req, res) => json(res, 200, [stageJson(11, 'Qualifiers', 1, 'completed', 3)]),
    });
    const pages = [
      await renderPage(teamRoute.default, unwrap(await teamRoute.loader(args(await signedIn(`http://localhost/team/${TID}`)))).body),
      await renderPage(myRoute.default, await myRoute.loader(args(await signedIn('http://localhost/my-tournaments'), {}))),
      await renderPage(infoRoute.default, await infoRoute.loader(args(await signedIn(`http://localhost/my-tournaments/${TID}/info`)))),
      await renderPage(
        detailRoute.default,
        unwrap(await detailRoute.loader(args(await signedIn(`http://localhost/tournaments/${TID}`)))).body,
      ),
    ];
    for (const html of pages) {
      expect(html).toContain('Qualifiers · Group C · Slot 7');
      expect(html).toContain('Qualified for Semi-finals (2nd in Group C)');
      expect(html).toContain('Semi-finals · Group A · Slot 3');
    }
    // The tournament page links to its stages once one is published.
    expect(pages[3]).toContain(`href="/tournaments/${TID}/stages"`);
  });

  it('ask nobody for a team on the public page of an anonymous visitor, and show nothing new without stages', async () => {
    gatewayAnswers({});
    const anon = unwrap(await detailRoute.loader(args(new Request(`http://localhost/tournaments/${TID}`)))).body;
    expect(stub.seen.map((r) => r.url)).not.toContain(`/registrations/${TID}`);
    expect(anon.placements).toEqual([]);
    expect(anon.stages).toBe(false);
    const html = await renderPage(detailRoute.default, anon);
    expect(html).not.toContain('/stages');
    expect(html).not.toContain('Your team');

    gatewayAnswers({ [`GET /registrations/${TID}`]: (_req, res) => json(res, 200, team()) });
    const teamHtml = await renderPage(
      teamRoute.default,
      unwrap(await teamRoute.loader(args(await signedIn(`http://localhost/team/${TID}`)))).body,
    );
    expect(teamHtml).not.toContain('Group');
    const info = await infoRoute.loader(args(await signedIn(`http://localhost/my-tournaments/${TID}/info`)));
    expect(await renderPage(infoRoute.default, info)).not.toContain('Group');
  });

  it('keeps the public page when the signed-in member has no team or the token is refused', async () => {
    gatewayAnswers({ [`GET /registrations/${TID}`]: (_req, res) => json(res, 401, { message: 'Token revoked.' }) });
    const loaded = unwrap(await detailRoute.loader(args(await signedIn(`http://localhost/tournaments/${TID}`))));
    expect(loaded.status).toBe(200);
    expect(loaded.body.placements).toEqual([]);
  });
});

describe('public stage pages', () => {
  it('/stages inlines the slot lists of a small stage and links the groups of a big one, never sending its slots', async () => {
    gatewayAnswers({
      [`GET /tournaments/${TID}/stages`]: (_req, res) =>
        json(res, 200, [
          stageJson(11, 'Qualifiers', 1, 'completed', 40, 25),
          stageJson(12, 'Grand Final', 2, 'published', 1, 16, { advancePerGroup: 0 }),
          stageJson(13, 'Secret', 3, 'draft', 0),
        ]),
    });
    const loaded = unwrap(await stagesRoute.loader(args(new Request(`http://localhost/tournaments/${TID}/stages`)))).body;
    expect(loaded.stages.map((s: { name: string }) => s.name)).toEqual(['Qualifiers', 'Grand Final']);
    const data = JSON.stringify(loaded);
    expect(data).not.toContain('Squad 39-24'); // a Qualifiers team: 1,000 of them are links' worth, not rows
    const html = await renderPage(stagesRoute.default, loaded);
    expect(html).toContain(`href="/tournaments/${TID}/stages/11/groups/1140"`);
    expect(html).toContain('The top 2 of each group advance.');
    expect(html).toContain('Final: nobody advances');
    expect(html).toContain(`href="/tournaments/${TID}/points-table?stage=11"`);
    expect(html).toContain('Squad 0-15'); // the final's one group of 16, inline
    expect(html).not.toContain('Secret');
    const { gzipSync } = await import('node:zlib');
    expect(gzipSync(html).length).toBeLessThan(14 * 1024);
  });

  it("a group page shows one group's slots and its table, asking the gateway for that group", async () => {
    gatewayAnswers({
      [`GET /tournaments/${TID}/stages`]: (_req, res) => json(res, 200, [stageJson(11, 'Qualifiers', 1, 'published', 40, 25)]),
      [`GET /tournaments/${TID}/points-table/day`]: (_req, res) =>
        json(res, 200, [pointsRow({ rank: 1, teamName: 'Squad 2-3', groupName: 'C', slot: 4 })]),
    });
    const url = `http://localhost/tournaments/${TID}/stages/11/groups/1103?day=2`;
    const loaded = unwrap(
      await groupRoute.loader(args(new Request(url), { tournamentId: String(TID), stageId: '11', groupId: '1103' })),
    ).body;
    expect(stub.seen.find((r) => r.url.startsWith(`/tournaments/${TID}/points-table/day`))!.url).toBe(
      `/tournaments/${TID}/points-table/day?day=2&stage=11&group=1103`,
    );
    expect(loaded.group.slots).toHaveLength(25);
    expect(JSON.stringify(loaded)).not.toContain('Squad 4-0'); // another group's team
    const html = await renderPage(groupRoute.default, loaded);
    expect(html).toContain('Qualifiers · Group C');
    expect(html).toContain('Slot 25');
    expect(html).toContain('>Slot<'); // the table's Slot column; no Group column on a group's own table
    expect(html).not.toContain('>Group and slot</span>');
    expect(html).toContain(`href="/tournaments/${TID}/points-table?stage=11"`);

    for (const groupId of ['9999', 'x']) {
      const missing = await thrown(() => groupRoute.loader(args(new Request(url), { tournamentId: String(TID), stageId: '11', groupId })));
      expect(unwrap(missing)).toEqual({ status: 404, body: { message: 'Group not found.' } });
    }
  });

  it("a group's overall table marks its qualifying places with a line, in words too; a day's table does not (issue 27 item 23)", async () => {
    const rows = Array.from({ length: 5 }, (_, i) => pointsRow({ rank: i + 1, teamName: `Squad 2-${i}`, groupName: 'C', slot: i + 1 }));
    gatewayAnswers({
      [`GET /tournaments/${TID}/stages`]: (_req, res) =>
        json(res, 200, [stageJson(11, 'Qualifiers', 1, 'published', 4, 5, { advancePerGroup: 2, advanceBest: 3 })]),
      [`GET /tournaments/${TID}/points-table/overall`]: (_req, res) => json(res, 200, rows),
      [`GET /tournaments/${TID}/points-table/day`]: (_req, res) => json(res, 200, rows),
    });
    const page = async (query: string) => {
      const url = `http://localhost/tournaments/${TID}/stages/11/groups/1103${query}`;
      const loaded = unwrap(await groupRoute.loader(args(new Request(url), { tournamentId: String(TID), stageId: '11', groupId: '1103' })));
      return renderPage(groupRoute.default, loaded.body);
    };
    const html = await page('');
    const bodyRows = html.slice(html.indexOf('<tbody>'), html.indexOf('</tbody>')).split('<tr').slice(1);
    expect(bodyRows.map((r) => r.includes('pt-cut'))).toEqual([false, true, false, false, false]);
    expect(bodyRows.map((r) => r.includes('(qualifies)'))).toEqual([true, true, false, false, false]);
    expect(html).toContain('Above the line: the top 2 qualify for the next stage, and the best 3 of the rest across groups.');

    const day = await page('?day=1');
    expect(day).not.toContain('pt-cut');
    expect(day).not.toContain('(qualifies)');
    expect(day).not.toContain('Above the line');
  });

  it('the points table passes ?stage=&group= on, shows Group and Slot columns, and calls the completed last stage the final standings', async () => {
    gatewayAnswers({
      [`GET /tournaments/${TID}/stages`]: (_req, res) =>
        json(res, 200, [
          stageJson(11, 'Qualifiers', 1, 'completed', 3),
          stageJson(12, 'Grand Final', 2, 'completed', 1, 8, { advancePerGroup: 0 }),
        ]),
      [`GET /tournaments/${TID}/points-table/overall`]: (_req, res) =>
        json(res, 200, [pointsRow({ rank: 1, teamName: 'Squad 0-1', groupName: 'A', slot: 2 })]),
    });
    const current = unwrap(await pointsRoute.loader(args(new Request(`http://localhost/tournaments/${TID}/points-table`)))).body;
    expect(stub.seen.find((r) => r.url.includes('/points-table/'))!.url).toBe(`/tournaments/${TID}/points-table/overall`);
    const html = await renderPage(pointsRoute.default, current);
    expect(html).toContain('<h1>Final standings</h1>');
    expect(html).toContain("Its table is the tournament's final standings.".replace("'", '&#x27;'));
    expect(html).toContain('>Group and slot</span>');
    expect(html).toContain('<td class="pt-slot">A·2</td>');
    expect(html).toContain(`href="/tournaments/${TID}/points-table?stage=11"`);

    stub.seen.length = 0;
    const scoped = unwrap(
      await pointsRoute.loader(args(new Request(`http://localhost/tournaments/${TID}/points-table?stage=11&group=1102`))),
    ).body;
    expect(stub.seen.find((r) => r.url.includes('/points-table/'))!.url).toBe(
      `/tournaments/${TID}/points-table/overall?stage=11&group=1102`,
    );
    const scopedHtml = await renderPage(pointsRoute.default, scoped);
    expect(scopedHtml).toContain('<h1>Points table</h1>');
    expect(scopedHtml).toContain('Qualifiers · Group B');
    // The day links keep the stage and group (relative links: the test renders at /page).
    expect(scopedHtml).toContain('href="/page?day=1&amp;stage=11&amp;group=1102"');

    expect(
      unwrap(await thrown(() => pointsRoute.loader(args(new Request(`http://localhost/tournaments/${TID}/points-table?stage=abc`)))))
        .status,
    ).toBe(404);
  });

  it('the points table of a tournament without stages is as before: six columns, plain day links, no stage links', async () => {
    gatewayAnswers({
      [`GET /tournaments/${TID}/points-table/overall`]: (_req, res) => json(res, 200, [pointsRow({ rank: 1, teamName: 'Team Soul' })]),
    });
    const loaded = unwrap(await pointsRoute.loader(args(new Request(`http://localhost/tournaments/${TID}/points-table`)))).body;
    expect(loaded.stages).toBeUndefined();
    const html = await renderPage(pointsRoute.default, loaded);
    expect(html).toContain('<h1>Points table</h1>');
    expect(html).toContain('href="/page?day=1"');
    expect(html).not.toContain('Group');
    expect(html).not.toContain('Slot');
    expect(html).not.toContain('/stages');
    expect(html).toContain('<caption id="pt-caption">Overall standings</caption>');
  });
});
