// Issue 30 (decision 075): the staff's side of captains' reports. The lobby view (reports in placement order,
// conflicts, missing teams, reused screenshots), confirming the lobby on the shared results grid, closing and
// reopening reporting, disputes upheld or dismissed, the report settings, and who may open them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tournamentJson } from '../support';
import { renderPage } from '../support/render';
import { cookieOf, json, organiserCalls, startGatewayStub, thrown, unwrap, useStubEnv, type GatewayStub } from './support/gateway-stub';

let stub: GatewayStub;
let lobbyPage: typeof import('~/routes/admin.$tournamentId.reports.$day.$match/route');
let disputesPage: typeof import('~/routes/admin.$tournamentId.disputes');
let settingsPage: typeof import('~/routes/admin.$tournamentId.reports._index');
let session: typeof import('~/utils/session.server');

const { get, post, args, flashOf, routes } = organiserCalls(() => stub);

beforeAll(async () => {
  stub = await startGatewayStub();
  await useStubEnv(stub);
  lobbyPage = await import('~/routes/admin.$tournamentId.reports.$day.$match/route');
  disputesPage = await import('~/routes/admin.$tournamentId.disputes');
  settingsPage = await import('~/routes/admin.$tournamentId.reports._index');
  session = await import('~/utils/session.server');
});
afterAll(() => stub.close());

const LOBBY_URL = 'http://localhost/admin/5/reports/1/2?group=31';
const PARAMS = { tournamentId: '5', day: '1', match: '2' };
const AT = '2099-03-05T13:40:00.000Z';

const player = (ign: string, finishes: number, onTeam = true) => ({ ign, finishes, onTeam });
const report = (id: number, teamId: number, position: number, players: ReturnType<typeof player>[], extra = {}) => ({
  id,
  tournamentId: 5,
  day: 1,
  match: 2,
  groupId: 31,
  teamId,
  teamName: `Team ${teamId}`,
  position,
  finishes: players.reduce((n, p) => n + p.finishes, 0),
  players,
  screenshotUrl: `/tournaments/5/reports/${id}/screenshot`,
  reportedBy: `cap_${teamId}`,
  reportedAt: AT,
  updatedAt: AT,
  confirmed: false,
  sameScreenshot: [],
  ...extra,
});
const team = (teamId: number, slot: number) => ({ teamId, teamName: `Team ${teamId}`, slot, igns: [`p${teamId}a`, `p${teamId}b`] });

/** Four teams: 101 and 102 both claim 2nd, 103 reports a player not on its team with a reused screenshot, 104 has not reported. */
const LOBBY = {
  day: 1,
  match: 2,
  groupId: 31,
  groupName: 'A',
  stageName: 'Qualifiers',
  startsAt: '2099-03-05T13:00:00.000Z',
  endsAt: '2099-03-05T13:30:00.000Z',
  reporting: 'open',
  provisionalUntil: null,
  lobby: { teams: 4, maxFinishes: 12, playersPerTeam: 4 },
  reports: [
    report(801, 103, 1, [player('p103a', 3), player('ringer', 2, false)], {
      sameScreenshot: [
        { reportId: 700, sameTournament: true, teamName: 'Team 109', day: 1, match: 1, at: AT },
        { reportId: 12, sameTournament: false, at: AT },
      ],
    }),
    report(802, 102, 2, [player('p102a', 1)]),
    report(803, 101, 2, [player('p101a', 0), player('p101b', 2)]),
  ],
  missing: [{ teamId: 104, teamName: 'Team 104', slot: 4 }],
  conflicts: [
    { kind: 'placement-shared', message: 'Two teams claim placement 2.', teamIds: [102, 101] },
    { kind: 'player-not-on-team', message: 'ringer is not on Team 103.', teamIds: [103] },
  ],
  screenshotChecksPending: 0,
  teams: [team(101, 1), team(102, 2), team(103, 3), team(104, 4)],
  results: [],
};

const lobbyRoutes = (lobby: unknown = LOBBY, extra: Record<string, (req: any) => [number, unknown]> = {}) =>
  routes({
    'GET /tournaments/5': () => [200, tournamentJson({ id: 5, name: 'Lobby Cup' })],
    'GET /tournaments/5/reports/1/2': () => [200, lobby],
    ...extra,
  });

const loadLobby = async (url = LOBBY_URL) => unwrap(await lobbyPage.loader(args(await get(url), PARAMS))).body;

describe('the lobby view', () => {
  it('lists the reports in placement order with their screenshots, the conflicts, the missing team and reused screenshots', async () => {
    lobbyRoutes();
    const page = await loadLobby();
    expect(stub.seen.at(-1)!.url).toBe('/tournaments/5/reports/1/2?group=31');
    expect(page.title).toBe('Group A · Day 1 · Match 2');
    const html = await renderPage(lobbyPage.default, page, LOBBY_URL);
    // The reports in the gateway's (placement) order, each with a thumbnail linking to its full image.
    const order = [...html.matchAll(/<li id="report-(\d+)"/g)].map((m) => m[1]);
    expect(order).toEqual(['103', '102', '101']);
    expect(html).toContain('<a href="/screenshots/report/5/801" target="_blank" rel="noreferrer">Open the full image</a>');
    expect(html).toMatch(
      /<img src="\/screenshots\/report\/5\/801" alt="Team 103’s result screen" loading="lazy" width="64" height="36"\/>/,
    );
    // A player not on the team is flagged; the conflicts name their teams, linked to their reports.
    expect(html).toMatch(/<li class="lr-stranger">ringer 2<span class="lr-flag"> \(not on the team\)<\/span><\/li>/);
    expect(html).toContain('2 conflicts in the reports');
    expect(html).toContain('Two teams claim placement 2. (<a href="#report-102">Team 102</a>, <a href="#report-101">Team 101</a>)');
    expect(html).toContain('The same screenshot as Team 109’s report of day 1 match 1.');
    expect(html).toContain('The same screenshot as a report in another tournament.');
    expect(html).toContain('Not reported (1): #4 Team 104.');
    expect(html).toContain('By cap_103, 5 Mar 2099');
    expect(html).toContain('Reporting is open');
    expect(html).toContain('Close reporting');
    expect(html).not.toContain('still being compared');
  });

  it('says when screenshots are still being compared (decision 077), with a link to reload', async () => {
    lobbyRoutes({ ...LOBBY, screenshotChecksPending: 2 });
    const html = await renderPage(lobbyPage.default, await loadLobby(), LOBBY_URL);
    expect(html).toMatch(
      /2 screenshots are still being compared with earlier reports \(a few seconds\): a\s+reused screenshot may still show up\. <a href="[^"]*reports\/1\/2[^"]*">Reload<\/a> before you confirm\./,
    );
  });

  it('the confirm form has a row per team in placement order, prefilled from the reports, the missing team empty', async () => {
    lobbyRoutes();
    const page = await loadLobby();
    // 103 (1st), then 102 and 101 (both 2nd: slot order), then 104 without a report.
    expect(page.teams.map((x: { teamId: number }) => x.teamId)).toEqual([103, 101, 102, 104]);
    const html = await renderPage(lobbyPage.default, page, LOBBY_URL);
    expect(html).toMatch(/<input id="position\.103" name="position\.103"[^>]*value="1"/);
    expect(html).toMatch(/<input id="finishes\.103" name="finishes\.103"[^>]*value="5"/);
    expect(html).toMatch(/<input id="position\.104" name="position\.104"[^>]*value=""/);
    expect(html).toContain('<input type="hidden" name="intent" value="confirm"/>');
    expect(html).toContain('Confirm lobby</button>');
  });

  it('once confirmed, prefills the stored results and says who confirmed and until when they are provisional', async () => {
    const stored = (teamId: number, position: number, finishes: number, absent = false) => ({
      id: teamId,
      tid: 5,
      day: 1,
      match: 2,
      teamId,
      teamName: `Team ${teamId}`,
      position,
      positionPoints: 0,
      wins: 0,
      finishes,
      totalPoints: finishes + 1,
      groupId: 31,
      ...(absent ? { absent: true } : {}),
    });
    lobbyRoutes({
      ...LOBBY,
      reporting: 'confirmed',
      confirmedBy: 'lee',
      confirmedAt: AT,
      provisionalUntil: '2099-03-05T13:55:00.000Z',
      results: [stored(101, 3, 4), stored(102, 2, 1), stored(103, 1, 3), stored(104, 0, 0, true)],
    });
    const page = await loadLobby();
    expect(page.teams.map((x: { teamId: number }) => x.teamId)).toEqual([103, 102, 101, 104]);
    expect(page.state).toMatch(/^Confirmed by lee at 5 Mar 2099, .*\. Provisional until 19:25\.$/);
    const html = await renderPage(lobbyPage.default, page, LOBBY_URL);
    expect(html).toMatch(/<input id="position\.101" name="position\.101"[^>]*value="3"/);
    expect(html).toMatch(/<input id="absent\.104" name="absent\.104" type="checkbox"[^>]*checked=""/);
    expect(html).not.toContain('Close reporting');
  });

  it('confirm posts the rows the form shows, corrections included, with the group, then says until when they are provisional', async () => {
    lobbyRoutes(LOBBY, {
      'POST /tournaments/5/reports/1/2/confirm': () => [
        200,
        { results: [], confirmedBy: 'organiser', confirmedAt: AT, provisionalUntil: '2099-03-05T13:55:00.000Z' },
      ],
    });
    const res = (await lobbyPage.action(
      args(
        await post(LOBBY_URL, [
          ['intent', 'confirm'],
          ['position.103', '1'],
          ['finishes.103', '3'], // corrected: the ringer's 2 finishes are not counted
          ['position.101', '3'], // corrected: 101 was 3rd, not 2nd
          ['finishes.101', '2'],
          ['position.102', '2'],
          ['finishes.102', '1'],
          ['position.104', ''],
          ['finishes.104', ''],
          ['absent.104', 'on'],
        ]),
        PARAMS,
      ),
    )) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/admin/5/reports/1/2?group=31');
    expect(await flashOf(res)).toMatch(/^Lobby confirmed: results are provisional until 19:25$/);
    const sent = stub.seen.at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe('/tournaments/5/reports/1/2/confirm?group=31');
    expect(sent.body).toEqual({
      results: [
        { teamId: 103, position: 1, finishes: 3 },
        { teamId: 101, position: 3, finishes: 2 },
        { teamId: 102, position: 2, finishes: 1 },
        { teamId: 104, position: 0, finishes: 0, absent: true },
      ],
    });
  });

  it('a refusal lands on its row and keeps what was typed', async () => {
    lobbyRoutes(LOBBY, {
      'POST /tournaments/5/reports/1/2/confirm': () => [
        400,
        { message: 'Invalid results.', errors: { 'position.101': 'Team 101 and Team 102 share placement 2.' } },
      ],
    });
    const fields: [string, string][] = [
      ['intent', 'confirm'],
      ['position.103', '1'],
      ['finishes.103', '3'],
      ['position.101', '2'],
      ['finishes.101', '2'],
      ['position.102', '2'],
      ['finishes.102', '1'],
    ];
    const refused = unwrap(await lobbyPage.action(args(await post(LOBBY_URL, fields), PARAMS)));
    expect(refused.status).toBe(400);
    expect(refused.body.fieldErrors).toEqual({ 'position.101': 'Team 101 and Team 102 share placement 2.' });
    expect(refused.body.values).toMatchObject({ intent: 'confirm', 'position.101': '2', 'finishes.103': '3' });
    const html = await renderPage(lobbyPage.default, await loadLobby(), LOBBY_URL, refused.body);
    expect(html).toMatch(
      /<input id="position\.101" name="position\.101"[^>]*aria-invalid="true" aria-describedby="row-error-101" value="2"/,
    );
    expect(html).toMatch(
      /<td colSpan="6" id="row-error-101"><p class="field-error"><span aria-hidden="true">⚠ <\/span>Team 101: Team 101 and Team 102 share placement 2\./,
    );
    expect(html).toContain('<a href="#position.101">Team 101 and Team 102 share placement 2.</a>');
    // The reporting form does not show the confirm form's refusal.
    expect(html).not.toMatch(/<p class="field-error" role="alert">/);
  });

  it('a value the grid refuses is not sent', async () => {
    lobbyRoutes();
    const before = stub.seen.length;
    const refused = unwrap(
      await lobbyPage.action(
        args(
          await post(LOBBY_URL, [
            ['intent', 'confirm'],
            ['position.101', 'x'],
          ]),
          PARAMS,
        ),
      ),
    );
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.fieldErrors)).toEqual(['position.101']);
    expect(stub.seen.slice(before).filter((r) => r.method === 'POST')).toEqual([]);
  });

  it('closes and reopens reporting', async () => {
    lobbyRoutes(LOBBY, { 'PUT /tournaments/5/reports/1/2/reporting': () => [200, { message: 'ok' }] });
    const closed = (await lobbyPage.action(
      args(
        await post(LOBBY_URL, [
          ['intent', 'reporting'],
          ['open', 'false'],
        ]),
        PARAMS,
      ),
    )) as Response;
    expect(await flashOf(closed)).toBe('Reporting closed');
    expect(stub.seen.at(-1)).toMatchObject({ method: 'PUT', url: '/tournaments/5/reports/1/2/reporting?group=31', body: { open: false } });
    const reopened = (await lobbyPage.action(
      args(
        await post(LOBBY_URL, [
          ['intent', 'reporting'],
          ['open', 'true'],
        ]),
        PARAMS,
      ),
    )) as Response;
    expect(await flashOf(reopened)).toBe('Reporting reopened');
    expect(stub.seen.at(-1)!.body).toEqual({ open: true });

    lobbyRoutes({ ...LOBBY, reporting: 'closed' });
    const html = await renderPage(lobbyPage.default, await loadLobby(), LOBBY_URL);
    expect(html).toContain('<input type="hidden" name="open" value="true"/>');
    expect(html).toContain('Reopen reporting');
  });

  it('shows the gateway’s 403 (a lobby manager of another group) as a page, and 403 to a payments person', async () => {
    lobbyRoutes(LOBBY, { 'GET /tournaments/5/reports/1/2': () => [403, { message: 'Only the staff of this group can do that.' }] });
    const other = unwrap(await thrown(async () => lobbyPage.loader(args(await get(LOBBY_URL), PARAMS))));
    expect(other).toEqual({ status: 403, body: { message: 'Only the staff of this group can do that.' } });

    const token = await stub.token({ username: 'pay_pat', roles: ['ROLE_USER'] });
    const cookie = cookieOf(await session.createUserSession(new Request('http://localhost/login'), token, 'pay_pat', '/'));
    stub.answer((req, res) =>
      req.url === '/desk'
        ? json(res, 200, {
            organiser: null,
            siteAdmin: false,
            tournaments: [{ id: 5, name: 'Lobby Cup', kind: 'payments' }],
            invitations: [],
          })
        : json(res, 500, { message: 'not expected' }),
    );
    for (const [route, url, params] of [
      [lobbyPage, LOBBY_URL, PARAMS],
      [disputesPage, 'http://localhost/admin/5/disputes', { tournamentId: '5' }],
    ] as const) {
      const refused = unwrap(await thrown(() => route.loader(args(new Request(url, { headers: { cookie } }), params))));
      expect(refused.status).toBe(403);
      expect(refused.body.message).toMatch(/lobby managers/);
    }
  });

  it('answers 404 for a day or match that is no number', async () => {
    const bad = unwrap(await thrown(async () => lobbyPage.loader(args(await get(LOBBY_URL), { ...PARAMS, match: 'x' }))));
    expect(bad.status).toBe(404);
  });
});

const dispute = (id: number, state: string, extra = {}) => ({
  id,
  tournamentId: 5,
  day: 1,
  match: 2,
  groupId: 31,
  byTeamId: 102,
  byTeamName: 'Team 102',
  aboutTeamId: 101,
  aboutTeamName: 'Team 101',
  reason: 'Team 101 finished 3rd: see our screenshot.',
  screenshotUrl: `/tournaments/5/disputes/${id}/screenshot`,
  state,
  resolution: null,
  resolvedBy: null,
  resolvedAt: null,
  filedBy: 'cap_102',
  filedAt: AT,
  ...extra,
});
const DISPUTES_URL = 'http://localhost/admin/5/disputes';
const RESULT_101 = {
  id: 1,
  tid: 5,
  day: 1,
  match: 2,
  teamId: 101,
  teamName: 'Team 101',
  position: 2,
  positionPoints: 6,
  wins: 0,
  finishes: 2,
  totalPoints: 8,
  groupId: 31,
};

describe('disputes', () => {
  const disputeRoutes = (extra: Record<string, (req: any) => [number, unknown]> = {}) =>
    routes({
      'GET /tournaments/5': () => [200, tournamentJson({ id: 5, name: 'Lobby Cup' })],
      'GET /tournaments/5/disputes': () => [
        200,
        [dispute(60, 'dismissed', { resolution: 'The screenshot shows 2nd.', resolvedBy: 'lee', resolvedAt: AT }), dispute(61, 'open')],
      ],
      'GET /tournaments/5/points-table/results': () => [200, [RESULT_101]],
      ...extra,
    });

  it('lists the open ones first, with the disputed row prefilled from the current result and the screenshot link', async () => {
    disputeRoutes();
    const page = unwrap(await disputesPage.loader(args(await get(DISPUTES_URL), { tournamentId: '5' }))).body;
    expect(stub.seen.map((r) => r.url)).toContain('/tournaments/5/disputes?state=all');
    expect(stub.seen.map((r) => r.url)).toContain('/tournaments/5/points-table/results?day=1&match=2&group=31');
    expect(page.disputes.map((d: { id: number }) => d.id)).toEqual([61, 60]);
    const html = await renderPage(disputesPage.default, page, DISPUTES_URL);
    expect(html).toContain('Team 102 disputes Team 101’s row');
    expect(html).toContain('href="/screenshots/dispute/5/61"');
    expect(html).toContain('href="/admin/5/reports/1/2?group=31"');
    expect(html).toMatch(/<input name="position-61" type="text"[^>]*value="2"/);
    expect(html).toMatch(/<input name="finishes-61" type="text"[^>]*value="2"/);
    expect(html).toContain('“The screenshot shows 2nd.”');
    expect(html).not.toContain('name="position-60"');
  });

  it('uphold sends the corrected row; dismiss sends the reason', async () => {
    disputeRoutes({ 'POST /tournaments/5/disputes/61/resolve': () => [200, dispute(61, 'upheld')] });
    const upheld = (await disputesPage.action(
      args(
        await post(DISPUTES_URL, [
          ['intent', 'uphold'],
          ['disputeId', '61'],
          ['position-61', '3'],
          ['finishes-61', '2'],
        ]),
        { tournamentId: '5' },
      ),
    )) as Response;
    expect(upheld.headers.get('location')).toBe('/admin/5/disputes');
    expect(await flashOf(upheld)).toBe('Dispute upheld: Team 101’s row is corrected');
    expect(stub.seen.at(-1)!.body).toEqual({ action: 'uphold', reason: '', position: 3, finishes: 2, absent: false });

    const dismissed = (await disputesPage.action(
      args(
        await post(DISPUTES_URL, [
          ['intent', 'dismiss'],
          ['disputeId', '61'],
          ['reason-61', 'The screenshot shows 2nd.'],
        ]),
        { tournamentId: '5' },
      ),
    )) as Response;
    expect(await flashOf(dismissed)).toBe('Dispute dismissed: the team sees your reason');
    expect(stub.seen.at(-1)).toMatchObject({
      url: '/tournaments/5/disputes/61/resolve',
      body: { action: 'dismiss', reason: 'The screenshot shows 2nd.' },
    });
  });

  it('dismissing needs a reason: refused beside its field, nothing sent', async () => {
    disputeRoutes();
    const before = stub.seen.length;
    const refused = unwrap(
      await disputesPage.action(
        args(
          await post(DISPUTES_URL, [
            ['intent', 'dismiss'],
            ['disputeId', '61'],
            ['reason-61', ''],
          ]),
          { tournamentId: '5' },
        ),
      ),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.fieldErrors).toEqual({ 'reason-61': 'Tell the team why the dispute is dismissed.' });
    expect(stub.seen.slice(before).filter((r) => r.method === 'POST')).toEqual([]);
    const page = unwrap(await disputesPage.loader(args(await get(DISPUTES_URL), { tournamentId: '5' }))).body;
    const html = await renderPage(disputesPage.default, page, DISPUTES_URL, refused.body);
    expect(html).toMatch(/<textarea name="reason-61"[^>]*id="reason-61" aria-invalid="true" aria-describedby="reason-61-error"/);
    expect(html).toContain('<a href="#reason-61">Tell the team why the dispute is dismissed.</a>');
  });
});

describe('report settings', () => {
  const SETTINGS = { matchMinutes: 30, disputeMinutes: 15, stages: [{ stageId: 7, name: 'Qualifiers', matchMinutes: 30 }] };
  const SETTINGS_URL = 'http://localhost/admin/5/reports';

  it('shows the match length per stage and the dispute window, and saves them', async () => {
    routes({
      'GET /tournaments/5': () => [200, tournamentJson({ id: 5, name: 'Lobby Cup' })],
      'GET /tournaments/5/reports/settings': () => [200, SETTINGS],
      'PUT /tournaments/5/reports/settings': () => [200, SETTINGS],
    });
    const page = unwrap(await settingsPage.loader(args(await get(SETTINGS_URL), { tournamentId: '5' }))).body;
    const html = await renderPage(settingsPage.default, page, SETTINGS_URL);
    expect(html).toContain('<label for="stage-7">Match length in Qualifiers (minutes)</label>');
    expect(html).toMatch(/<input name="disputeMinutes" type="text"[^>]*value="15"/);

    const saved = (await settingsPage.action(
      args(
        await post(SETTINGS_URL, [
          ['matchMinutes', '30'],
          ['disputeMinutes', '20'],
          ['stage-7', '45'],
        ]),
        { tournamentId: '5' },
      ),
    )) as Response;
    expect(await flashOf(saved)).toBe('Report settings saved');
    expect(stub.seen.at(-1)!.body).toEqual({ matchMinutes: 30, disputeMinutes: 20, stages: [{ stageId: 7, matchMinutes: 45 }] });

    const refused = unwrap(
      await settingsPage.action(
        args(
          await post(SETTINGS_URL, [
            ['matchMinutes', '30'],
            ['disputeMinutes', '15'],
            ['stage-7', '2'],
          ]),
          { tournamentId: '5' },
        ),
      ),
    );
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.fieldErrors)).toEqual(['stage-7']);
  });

  it('the stage page’s match picker lands on the lobby view', async () => {
    const to = (await thrown(async () =>
      settingsPage.loader(args(await get(`${SETTINGS_URL}?day=1&match=2&group=31`), { tournamentId: '5' })),
    )) as Response;
    expect(to.headers.get('location')).toBe('/admin/5/reports/1/2?group=31');
  });
});

describe('links to the lobby view and the disputes', () => {
  const desk = (kind: string) => ({
    organiser: null,
    siteAdmin: false,
    tournaments: [{ id: 5, name: 'Lobby Cup', kind }],
    invitations: [],
  });
  const crewGet = async (url: string, kind: string) => {
    const token = await stub.token({ username: `crew_${kind}`, roles: ['ROLE_USER'] });
    const cookie = cookieOf(await session.createUserSession(new Request('http://localhost/login'), token, `crew_${kind}`, '/'));
    return new Request(url, { headers: { cookie } });
  };
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
    draw: null,
    entrants: 2,
    hasResults: false,
    groupGap: 0,
    groupMatches: { scheduled: 2, withResults: 0, notPlayed: 0 },
    groups: [{ id: 31, name: 'A', slots: [{ slot: 1, teamId: 101, teamName: 'Team 101' }] }],
  };
  const groupMatch = (id: number, matchNo: number) => ({
    id,
    tid: 5,
    day: 1,
    matchNo,
    map: 'Erangel',
    matchId: null,
    password: null,
    time: `1${matchNo}:00:00`,
    groupId: 31,
    groupName: 'A',
    stageId: 7,
    stageName: 'Qualifiers',
  });

  it('My groups links each shown group-match’s reports, with no gateway call more', async () => {
    const myGroups = await import('~/routes/admin.$tournamentId.my-groups/route');
    routes({
      'GET /desk': () => [200, desk('lobby')],
      'GET /tournaments/5/staff/me': () => [200, { kind: 'lobby', scopes: [{ stageId: 7, groupId: 31 }] }],
      // Every match has started: the last one is shown, with the one before it.
      'GET /tournaments/5': () => [200, tournamentJson({ id: 5, name: 'Lobby Cup', startDate: '2020-03-05T12:30:00.000Z' })],
      'GET /tournaments/5/stages': () => [200, [STAGE]],
      'GET /matches/tournament/5': () => [200, [groupMatch(901, 1), groupMatch(902, 2)]],
    });
    const before = stub.seen.length;
    const url = 'http://localhost/admin/5/my-groups';
    const loaded = (await myGroups.loader(args(await crewGet(url, 'lobby'), { tournamentId: '5' }))) as any;
    expect(stub.seen.slice(before).map((r) => r.url)).not.toContainEqual(expect.stringContaining('/reports'));
    expect(loaded.groups[0].reports).toEqual([
      { href: '/admin/5/reports/1/2?group=31', label: 'D1 M2' },
      { href: '/admin/5/reports/1/1?group=31', label: 'D1 M1' },
    ]);
    const html = await renderPage(myGroups.default, loaded, url);
    expect(html).toContain('<a data-discover="true" href="/admin/5/reports/1/2?group=31">Reports: D1 M2</a>');
  });

  it('the hub shows Disputes to whoever runs lobbies, and Report settings to the organisers only', async () => {
    const hub = await import('~/routes/admin.$tournamentId._index');
    const summary = { id: 5, name: 'Lobby Cup', maxTeams: 12, registeredTeams: 4, waitlisted: 0, paymentsAwaiting: 0, failedDeliveries: 0 };
    for (const [kind, settings] of [
      ['lobby', false],
      ['co-organiser', true],
    ] as const) {
      routes({
        'GET /desk': () => [200, desk(kind)],
        'GET /tournaments/5': () => [200, tournamentJson({ id: 5, name: 'Lobby Cup' })],
        'GET /tournaments/admin/summary': () => [200, [summary]],
      });
      const loaded = (await hub.loader(args(await crewGet('http://localhost/admin/5', kind), { tournamentId: '5' }))) as any;
      const html = await renderPage(hub.default, loaded);
      expect(html, kind).toContain('href="/admin/5/disputes"');
      expect(html.includes('href="/admin/5/reports"'), kind).toBe(settings);
    }
  });

  it('the stage page’s match picker has a Reports button that sends the same GET to /admin/:id/reports', async () => {
    const { ResultsPanel } = await import('~/routes/admin.$tournamentId.stages.$stageId/results-panel');
    const page = { t: { id: 5 }, stage: { resultsLine: '' }, slots: [{ day: 1, matchNo: 2 }], groups: [{ id: 31, name: 'A' }] };
    const html = await renderPage(() => ResultsPanel({ page: page as never, base: '/admin/5/stages/7' }), null);
    expect(html).toContain('<button type="submit" formaction="/admin/5/reports" class="button button-secondary">Reports</button>');
  });
});
