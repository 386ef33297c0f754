// Issue 30 (decision 074), the team's side: the report form (POST first, PUT after), the report lines on the
// team page and the room cards, the disputes page and its form, and the private screenshot proxy.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DISPUTE_TAKEN, DISPUTE_WINDOW_CLOSED, NOT_IN_LOBBY, REPORT_CONFIRMED, SCREENSHOT_MESSAGES } from '@custom-room/contract/constants';
import { matchJson, registrationJson, tournamentJson } from '../support';
import { captureLogs, type LogLine } from '../support/logs';
import { renderPage } from '../support/render';
import {
  cookieOf,
  json,
  startGatewayStub,
  thrown,
  unwrap,
  useStubEnv,
  type GatewayStub,
  type SeenRequest,
  composeSchedule,
  type StubHandler,
} from './support/gateway-stub';

let stub: GatewayStub;
let report: typeof import('~/routes/team.$tournamentId_.reports.$day.$match');
let disputes: typeof import('~/routes/team.$tournamentId_.disputes');
let team: typeof import('~/routes/team.$tournamentId');
let matches: typeof import('~/routes/tournament.$tournamentId.matches/route');
let shot: typeof import('~/routes/screenshots.report.$tournamentId.$reportId');
let session: typeof import('~/utils/session.server');
let token: string;

beforeAll(async () => {
  stub = await startGatewayStub();
  await useStubEnv(stub);
  report = await import('~/routes/team.$tournamentId_.reports.$day.$match');
  disputes = await import('~/routes/team.$tournamentId_.disputes');
  team = await import('~/routes/team.$tournamentId');
  matches = await import('~/routes/tournament.$tournamentId.matches/route');
  shot = await import('~/routes/screenshots.report.$tournamentId.$reportId');
  session = await import('~/utils/session.server');
  token = await stub.token({ username: 'viper_acc' });
});
afterAll(() => stub.close());
// Nothing here is a failure of the web app: no error line in its log (answers the schema refuses would be one).
let logs: LogLine[];
beforeEach(() => {
  logs = captureLogs();
});
afterEach(() => expect(logs.filter((l) => l.level === 'error')).toEqual([]));

const TOURNAMENT = tournamentJson({ id: 3, name: 'Weekend Scrims' });
const PAGE = 'http://localhost/team/3/reports/1/2?group=31';
const PARAMS = { tournamentId: '3', day: '1', match: '2' };
const REPORT = {
  id: 55,
  tournamentId: 3,
  day: 1,
  match: 2,
  groupId: 31,
  teamId: 101,
  teamName: 'Team Soul',
  position: 3,
  finishes: 7,
  players: [
    { ign: 'Mortal', finishes: 4, onTeam: true },
    { ign: 'Ghost', finishes: 3, onTeam: false },
  ],
  screenshotUrl: '/tournaments/3/reports/55/screenshot',
  reportedBy: 'viper_acc',
  reportedAt: '2026-11-28T13:05:00.000Z',
  updatedAt: '2026-11-28T13:05:00.000Z',
  confirmed: false,
};
const teamMatch = (extra: Record<string, unknown> = {}) => ({
  day: 1,
  match: 2,
  groupId: 31,
  groupName: 'A',
  stageName: 'Qualifiers',
  startsAt: '2026-11-28T12:30:00.000Z',
  endsAt: '2026-11-28T13:00:00.000Z',
  reporting: 'open',
  provisionalUntil: null,
  due: true,
  report: null,
  ...extra,
});
const IGNS = ['Mortal', 'Viper', 'Regaltos', 'Owais'];
const mine = (...list: Record<string, unknown>[]) => ({ teamId: 101, teamName: 'Team Soul', igns: IGNS, captain: true, matches: list });
/** The same, asked by a member of the team who did not register it. */
const member = (...list: Record<string, unknown>[]) => ({ ...mine(...list), captain: false });

async function cookie() {
  return cookieOf(await session.createUserSession(new Request('http://localhost/login'), token, 'viper_acc', '/'));
}
const get = async (url: string) => new Request(url, { headers: { cookie: await cookie() } });
const args = (request: Request, params: Record<string, string>) => ({ request, params, context: {} });
/** A PNG's first bytes and a marker the test finds in the gateway's body. */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new TextEncoder().encode('SHOT-BYTES'.padEnd(120, '.'))]);
async function multipart(url: string, fields: Record<string, string>, file?: { name: string; bytes: Uint8Array<ArrayBuffer> }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('screenshot', new Blob([file.bytes], { type: 'image/png' }), file.name);
  return new Request(url, { method: 'POST', body: form, headers: { cookie: await cookie(), origin: 'http://localhost' } });
}
const flashOf = async (res: Response) =>
  (await session.readFlash(new Request('http://localhost/', { headers: { cookie: cookieOf(res) } }))).message;

type Route = (req: SeenRequest) => [number, unknown];
function routes(table: Record<string, Route>) {
  const handle: StubHandler = (req, res) => {
    if (composeSchedule(handle, req, res)) return;
    const route = table[`${req.method} ${req.url.split('?')[0]}`];
    if (!route) return json(res, 404, { message: `no stub for ${req.method} ${req.url}` });
    const [status, body] = route(req);
    json(res, status, body);
  };
  stub.answer(handle);
}
const base = (reports: unknown, registration: Route = () => [200, registrationJson({ tid: 3 })]): Record<string, Route> => ({
  'GET /tournaments/3': () => [200, TOURNAMENT],
  'GET /tournaments/3/reports/mine': () => [200, reports],
  'GET /registrations/3': registration,
});
const calls = (method: string, path: string) => stub.seen.filter((r) => r.method === method && r.url.split('?')[0] === path);
/** The value of one multipart part as the gateway received it. */
const part = (body: unknown, name: string) => new RegExp(`name="${name}"\\r\\n\\r\\n([^\\r]*)`).exec(String(body))?.[1];

describe('the report page', () => {
  it('first report: the roster prefilled, the screenshot required, no word for the captain (the caller is the captain)', async () => {
    routes(base(mine(teamMatch())));
    const data = unwrap(await report.loader(args(await get(PAGE), PARAMS))).body;
    expect(data.rows.map((r: { ign: string }) => r.ign)).toEqual(['Mortal', 'Viper', 'Regaltos', 'Owais', '', '']);
    expect(data).toMatchObject({ captain: true, report: null, action: '/team/3/reports/1/2?group=31', perTeam: 4 });
    const html = await renderPage(report.default, data, PAGE);
    expect(html).toContain('encType="multipart/form-data"');
    expect(html).toMatch(/<input type="file" name="screenshot" accept="image\/jpeg,image\/png,image\/webp" required=""/);
    for (const name of ['position', 'player1', 'finishes1', 'player6', 'finishes6']) expect(html).toContain(`name="${name}"`);
    expect(html).toContain('value="Mortal"');
    expect(html).not.toContain('The captain is told');
    expect(html).toContain('Reporting is open: your team has not reported yet.');
  });

  it('an existing report: its players first, the thumbnail through the proxy, the file optional; another member is told the captain hears', async () => {
    routes(base(member(teamMatch({ due: false, report: REPORT }))));
    const data = unwrap(await report.loader(args(await get(PAGE), PARAMS))).body;
    expect(data.rows).toEqual([
      { ign: 'Mortal', finishes: '4' },
      { ign: 'Ghost', finishes: '3' },
      { ign: 'Viper', finishes: '' },
      { ign: 'Regaltos', finishes: '' },
      { ign: 'Owais', finishes: '' },
      { ign: '', finishes: '' },
    ]);
    expect(data.captain).toBe(false);
    const html = await renderPage(report.default, data, PAGE);
    expect(html).toContain('The captain is told when you report.');
    expect(html).toContain('src="/screenshots/report/3/55"');
    expect(html).toContain('New screenshot (optional)');
    expect(html).not.toMatch(/name="screenshot"[^>]*required/);
    expect(html).toMatch(/Reported .* by viper_acc/);
  });

  it('confirmed: read-only, with the way to dispute while the window is open', async () => {
    const confirmed = teamMatch({ due: false, reporting: 'confirmed', report: REPORT, provisionalUntil: '2099-01-01T00:00:00.000Z' });
    routes(base(mine(confirmed)));
    const data = unwrap(await report.loader(args(await get(PAGE), PARAMS))).body;
    const html = await renderPage(report.default, data, PAGE);
    expect(html).not.toContain('encType=');
    expect(html).toContain('href="/team/3/disputes?day=1&amp;match=2&amp;group=31"');
    expect(html).toContain('Results confirmed; they may be disputed until');
  });

  it('a match the team does not play, no confirmed team, a refusal: pages in words, never a stack', async () => {
    routes(base(mine(teamMatch({ groupId: 32 }))));
    expect(unwrap(await thrown(async () => report.loader(args(await get(PAGE), PARAMS))))).toEqual({
      status: 404,
      body: { message: NOT_IN_LOBBY },
    });
    routes({ ...base(null), 'GET /tournaments/3/reports/mine': () => [404, { message: 'No confirmed team.' }] });
    expect(unwrap(await thrown(async () => report.loader(args(await get(PAGE), PARAMS)))).status).toBe(404);
    routes({ ...base(null), 'GET /tournaments/3/reports/mine': () => [403, { message: 'Not for you.' }] });
    expect(unwrap(await thrown(async () => report.loader(args(await get(PAGE), PARAMS))))).toEqual({
      status: 403,
      body: { message: 'Not for you.' },
    });
    const nonsense = await thrown(async () =>
      report.loader(args(await get('http://localhost/team/3/reports/9/x'), { ...PARAMS, day: '9' })),
    );
    expect(unwrap(nonsense).status).toBe(404);
  });
});

describe('sending a report', () => {
  const FIELDS = { position: '3', player1: 'Mortal', finishes1: '4', player2: 'Ghost', finishes2: '3', player3: 'Regaltos', finishes3: '' };

  it('the first time: POST with every field and the file, the group passed on; back to the page with "Reported"', async () => {
    routes({ ...base(mine(teamMatch())), 'POST /tournaments/3/reports/1/2': () => [201, REPORT] });
    const res = (await report.action(args(await multipart(PAGE, FIELDS, { name: 'result.png', bytes: PNG }), PARAMS))) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/team/3/reports/1/2?group=31');
    expect(await flashOf(res)).toMatch(/^Reported\./);
    const [sent] = calls('POST', '/tournaments/3/reports/1/2');
    expect(sent!.url).toBe('/tournaments/3/reports/1/2?group=31');
    expect(sent!.headers.authorization).toBe(`Bearer ${token}`);
    expect(sent!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect([part(sent!.body, 'position'), part(sent!.body, 'player2'), part(sent!.body, 'finishes2')]).toEqual(['3', 'Ghost', '3']);
    expect(String(sent!.body)).toMatch(/name="screenshot"; filename="result.png"/);
    expect(String(sent!.body)).toContain('SHOT-BYTES');
    expect(calls('PUT', '/tournaments/3/reports/1/2')).toEqual([]);
  });

  it('after that: PUT, and without a new file the current screenshot stays', async () => {
    routes({ ...base(mine(teamMatch({ due: false, report: REPORT }))), 'PUT /tournaments/3/reports/1/2': () => [200, REPORT] });
    const before = calls('POST', '/tournaments/3/reports/1/2').length;
    const res = (await report.action(args(await multipart(PAGE, FIELDS), PARAMS))) as Response;
    expect(res.status).toBe(302);
    const [sent] = calls('PUT', '/tournaments/3/reports/1/2').slice(-1);
    expect(part(sent!.body, 'position')).toBe('3');
    expect(String(sent!.body)).not.toContain('name="screenshot"');
    expect(calls('POST', '/tournaments/3/reports/1/2').length).toBe(before);
  });

  it('checks the fields first: errors by field, values kept, the file asked for again; nothing reaches the gateway', async () => {
    routes(base(mine(teamMatch())));
    const before = stub.seen.length;
    const bad = { ...FIELDS, position: '', finishes2: 'lots' };
    const answer = unwrap(await report.action(args(await multipart(PAGE, bad, { name: 'result.png', bytes: PNG }), PARAMS)));
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body.fieldErrors).sort()).toEqual(['finishes2', 'position']);
    expect(answer.body.values).toMatchObject({ player2: 'Ghost', finishes2: 'lots', screenshotChosen: 'result.png' });
    expect(stub.seen.slice(before).filter((r) => r.method !== 'GET')).toEqual([]);
    const page = unwrap(await report.loader(args(await get(PAGE), PARAMS))).body;
    const html = await renderPage(report.default, page, PAGE, answer.body);
    expect(html).toContain('value="lots"');
    expect(html).toMatch(/id="finishes2"[^>]*aria-invalid="true"[^>]*aria-describedby="finishes2-error"/);
    expect(html).toContain('please choose the screenshot again');
    expect(html).toMatch(/<a href="#finishes2">Player 2, finishes: /);

    const noFile = unwrap(await report.action(args(await multipart(PAGE, FIELDS), PARAMS)));
    expect(noFile.body.fieldErrors).toEqual({ screenshot: SCREENSHOT_MESSAGES.required });
  });

  it("maps the gateway's refusals: field errors beside their fields, a 409's message on top, a 415 beside the file", async () => {
    const refuse = (status: number, body: unknown) =>
      routes({ ...base(mine(teamMatch())), 'POST /tournaments/3/reports/1/2': () => [status, body] });
    const send = async () => unwrap(await report.action(args(await multipart(PAGE, FIELDS, { name: 'r.png', bytes: PNG }), PARAMS)));
    refuse(400, { message: 'Check the report.', errors: { player2: 'Ghost is not on any team.' } });
    expect((await send()).body).toMatchObject({ fieldErrors: { player2: 'Ghost is not on any team.' }, formError: null });
    refuse(409, { message: 'Your team has already reported: edit the report.' });
    expect(await send()).toMatchObject({ status: 409, body: { formError: 'Your team has already reported: edit the report.' } });
    // Confirmed meanwhile: the page comes back without the form, and says why the report was not taken.
    routes({
      ...base(mine(teamMatch({ due: false, reporting: 'confirmed' }))),
      'POST /tournaments/3/reports/1/2': () => [409, { message: REPORT_CONFIRMED }],
    });
    const late = await send();
    const page = unwrap(await report.loader(args(await get(PAGE), PARAMS))).body;
    expect(await renderPage(report.default, page, PAGE, late.body)).toContain(`<p class="notice" role="alert">${REPORT_CONFIRMED}</p>`);
    refuse(415, { message: SCREENSHOT_MESSAGES.unreadable });
    expect((await send()).body).toMatchObject({ fieldErrors: { screenshot: SCREENSHOT_MESSAGES.unreadable }, formError: null });
  });
});

describe('"Report your result" where a report is due', () => {
  const lines = mine(
    teamMatch(),
    teamMatch({ match: 3, due: false, report: REPORT }),
    teamMatch({ match: 4, due: false, reporting: 'not-started' }),
  );

  it('the team page: one extra call, a link per due match, reported ones as a line; none without reports', async () => {
    routes(base(lines));
    const before = stub.seen.length;
    const data = unwrap(await team.loader(args(await get('http://localhost/team/3'), { tournamentId: '3' }))).body;
    expect(
      stub.seen
        .slice(before)
        .map((r) => r.url.split('?')[0])
        .sort(),
    ).toEqual(['/registrations/3', '/tournaments/3', '/tournaments/3/reports/mine']);
    const html = await renderPage(team.default, data, 'http://localhost/team/3');
    expect(html).toMatch(/href="\/team\/3\/reports\/1\/2\?group=31">Report your result/);
    expect(html).toMatch(/href="\/team\/3\/reports\/1\/3\?group=31">Edit the report/);
    expect(html).not.toContain('/reports/1/4');

    routes({ ...base(null), 'GET /tournaments/3/reports/mine': () => [404, { message: 'No confirmed team.' }] });
    const none = unwrap(await team.loader(args(await get('http://localhost/team/3'), { tournamentId: '3' }))).body;
    expect(await renderPage(team.default, none, 'http://localhost/team/3')).not.toContain('Match results');
  });

  it('the room card: the match’s line on its card', async () => {
    routes({
      ...base(mine(teamMatch({ groupId: 0, groupName: undefined, stageName: undefined }))),
      'GET /matches/tournament/3': () => [
        200,
        [matchJson({ id: 9, tid: 3, day: 1, matchNo: 2 }), matchJson({ id: 8, tid: 3, matchNo: 1 })],
      ],
    });
    const data = unwrap(await matches.loader(args(await get('http://localhost/tournament/3/matches'), { tournamentId: '3' }))).body;
    const html = await renderPage(matches.default, data, 'http://localhost/tournament/3/matches');
    const cards = html.split('<article').slice(1);
    expect(cards).toHaveLength(2);
    expect(cards[0]).not.toContain('Report your result');
    expect(cards[1]).toMatch(/href="\/team\/3\/reports\/1\/2">Report your result/);
  });
});

describe('disputes', () => {
  const URL_FORM = 'http://localhost/team/3/disputes?day=1&match=2&group=31&team=102';
  const confirmed = (until: string) =>
    teamMatch({ due: false, reporting: 'confirmed', report: { ...REPORT, confirmed: true }, provisionalUntil: until });
  const dispute = (extra: Record<string, unknown>) => ({
    id: 5,
    tournamentId: 3,
    day: 1,
    match: 1,
    groupId: 31,
    byTeamId: 101,
    byTeamName: 'Team Soul',
    aboutTeamId: 102,
    aboutTeamName: 'Team Blind',
    reason: 'They were 4th, not 2nd.',
    screenshotUrl: '/tournaments/3/disputes/5/screenshot',
    state: 'dismissed',
    resolution: 'The screen shows 2nd.',
    resolvedBy: 'host',
    resolvedAt: '2026-11-28T14:00:00.000Z',
    filedBy: 'viper_acc',
    filedAt: '2026-11-28T13:40:00.000Z',
    ...extra,
  });
  const breakdown = {
    matches: [
      { day: 1, match: 1 },
      { day: 1, match: 2 },
    ],
    rows: [101, 102, 103].map((teamId, i) => ({
      rank: i + 1,
      teamId,
      teamName: `Team ${teamId}`,
      positionPoints: 0,
      finishes: 0,
      wins: 0,
      totalPoints: 0,
      matchesPlayed: 1,
      results: [null, teamId === 103 ? null : { position: i + 1, finishes: 2 }],
    })),
  };
  const table = (reports: unknown, list: unknown[]): Record<string, Route> => ({
    ...base(reports),
    'GET /tournaments/3/disputes': () => [200, list],
    'GET /tournaments/3/points-table/breakdown': () => [200, breakdown],
  });

  it('lists the team’s disputes with the staff’s answer (a dismissal’s reason) and its screenshot through the proxy', async () => {
    const against = dispute({ id: 6, byTeamId: 103, byTeamName: 'Team 103', aboutTeamId: 101, state: 'open', resolution: null });
    routes(table(mine(confirmed('2099-01-01T00:00:00.000Z')), [dispute({}), against]));
    const data = unwrap(await disputes.loader(args(await get('http://localhost/team/3/disputes'), { tournamentId: '3' }))).body;
    expect(data.form).toBeNull();
    const html = await renderPage(disputes.default, data, 'http://localhost/team/3/disputes');
    expect(html).toContain('Dismissed.');
    expect(html).toContain('Reason: The screen shows 2nd.');
    expect(html).toContain('href="/screenshots/dispute/3/5"');
    // Another team's proof is for it and the staff: no link that would only be refused.
    expect(html).not.toContain('/screenshots/dispute/3/6');
    expect(html).toContain('Day 1 · Match 1: your team’s result');
    expect(html).not.toContain('encType=');
  });

  it('the form for a confirmed match in its window: the match’s teams, ?team= chosen; else why not', async () => {
    routes(table(mine(confirmed('2099-01-01T00:00:00.000Z')), []));
    const data = unwrap(await disputes.loader(args(await get(URL_FORM), { tournamentId: '3' }))).body;
    expect(data.form).toMatchObject({ open: true, day: 1, match: 2, group: 31, team: 102 });
    expect(data.form.teams.map((t: { teamId: number }) => t.teamId)).toEqual([101, 102]);
    const html = await renderPage(disputes.default, data, URL_FORM);
    expect(html).toContain('encType="multipart/form-data"');
    expect(html).toMatch(/<option value="102" selected="">Team 102 \(#2, 2 finishes\)/);

    routes(table(mine(confirmed('2020-01-01T00:00:00.000Z')), []));
    expect(unwrap(await disputes.loader(args(await get(URL_FORM), { tournamentId: '3' }))).body.form).toEqual({
      open: false,
      message: DISPUTE_WINDOW_CLOSED,
    });
    routes(table(mine(confirmed('2099-01-01T00:00:00.000Z')), [dispute({ match: 2, state: 'open' })]));
    expect(unwrap(await disputes.loader(args(await get(URL_FORM), { tournamentId: '3' }))).body.form.message).toBe(DISPUTE_TAKEN);
  });

  it('files one (multipart, the screenshot optional); the gateway’s 409 comes back as the form’s message', async () => {
    routes({ ...table(mine(confirmed('2099-01-01T00:00:00.000Z')), []), 'POST /tournaments/3/disputes': () => [201, dispute({})] });
    const fields = { day: '1', match: '2', group: '31', teamId: '102', reason: 'They were 4th, not 2nd.' };
    const res = (await disputes.action(
      args(await multipart(URL_FORM, fields, { name: 'proof.png', bytes: PNG }), { tournamentId: '3' }),
    )) as Response;
    expect(res.headers.get('location')).toBe('/team/3/disputes');
    const [sent] = calls('POST', '/tournaments/3/disputes').slice(-1);
    expect(['day', 'match', 'group', 'teamId', 'reason'].map((n) => part(sent!.body, n))).toEqual(['1', '2', '31', '102', fields.reason]);
    expect(String(sent!.body)).toContain('SHOT-BYTES');

    routes({
      ...table(mine(confirmed('2099-01-01T00:00:00.000Z')), []),
      'POST /tournaments/3/disputes': () => [409, { message: DISPUTE_TAKEN }],
    });
    const again = unwrap(await disputes.action(args(await multipart(URL_FORM, fields), { tournamentId: '3' })));
    expect(again).toMatchObject({ status: 409, body: { formError: DISPUTE_TAKEN, values: { teamId: '102', reason: fields.reason } } });
    const short = unwrap(await disputes.action(args(await multipart(URL_FORM, { ...fields, reason: 'no' }), { tournamentId: '3' })));
    expect(Object.keys(short.body.fieldErrors)).toEqual(['reason']);
  });
});

describe('the screenshot proxy', () => {
  it('asks the gateway with the caller’s token and never lets anything cache the picture; refusals as the gateway says', async () => {
    stub.answer((req, res) => {
      if (req.url === '/tournaments/3/reports/55/screenshot') {
        res.writeHead(200, { 'content-type': 'image/webp', 'cache-control': 'public, max-age=600' });
        return res.end('WEBP');
      }
      json(res, req.url.includes('/56/') ? 403 : 404, { message: 'no' });
    });
    const res = (await shot.loader(
      args(await get('http://localhost/screenshots/report/3/55'), { tournamentId: '3', reportId: '55' }),
    )) as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(await res.text()).toBe('WEBP');
    expect(stub.seen.at(-1)!.headers.authorization).toBe(`Bearer ${token}`);
    const refused = (await shot.loader(
      args(await get('http://localhost/screenshots/report/3/56'), { tournamentId: '3', reportId: '56' }),
    )) as Response;
    expect([refused.status, refused.headers.get('cache-control')]).toEqual([403, 'private, no-store']);
    const gone = (await shot.loader(
      args(await get('http://localhost/screenshots/report/3/57'), { tournamentId: '3', reportId: '57' }),
    )) as Response;
    expect(gone.status).toBe(404);
    const anonymous = await thrown(() =>
      shot.loader(args(new Request('http://localhost/screenshots/report/3/55'), { tournamentId: '3', reportId: '55' })),
    );
    expect((anonymous as Response).headers.get('location')).toMatch(/^\/login/);
  });
});
