import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_FIELDS, type TeamField } from '@custom-room/contract/constants';
import { formatDeadline, mayWithdraw, placeView } from '~/utils/places';
import { registrationJson } from '../support';
import {
  cookieOf,
  formPost,
  json,
  startGatewayStub,
  unwrap,
  useStubEnv,
  type GatewayStub,
  type SeenRequest,
  composeSchedule,
  type StubHandler,
} from './support/gateway-stub';
import { renderPage } from './support/render';

/** The player's side of a slot's life (decision 047): state words, withdrawal, the waitlist form. */

let stub: GatewayStub;
let register: typeof import('~/routes/register_.$tournamentId');
let payment: typeof import('~/routes/payment');
let team: typeof import('~/routes/team.$tournamentId');
let withdraw: typeof import('~/routes/team.$tournamentId_.withdraw');
let list: typeof import('~/routes/my-tournaments._index');
let session: typeof import('~/utils/session.server');

beforeAll(async () => {
  stub = await startGatewayStub();
  await useStubEnv(stub);
  register = await import('~/routes/register_.$tournamentId');
  payment = await import('~/routes/payment');
  team = await import('~/routes/team.$tournamentId');
  withdraw = await import('~/routes/team.$tournamentId_.withdraw');
  list = await import('~/routes/my-tournaments._index');
  session = await import('~/utils/session.server');
});
afterAll(() => stub.close());

const TZ = 'Asia/Kolkata';
const TOURNAMENT = {
  id: 3,
  name: 'Weekend Scrims',
  game: 'BGMI',
  startDate: '2099-12-10T12:30:00.000Z',
  endDate: '2099-12-11T12:30:00.000Z',
  registrationOpen: '2026-01-01T00:00:00.000Z',
  registrationClose: '2099-12-09T12:30:00.000Z',
  maxTeams: 2,
  entryFee: 150,
  status: 'Registration Ongoing',
  registeredTeams: 2,
};
const TEAM = Object.fromEntries(TEAM_FIELDS.map((field) => [field, registrationJson()[field]])) as Record<TeamField, string>;
const registration = (extra: Record<string, unknown> = {}) => ({ ...registrationJson({ rid: 42, tid: 3, ...TEAM }), ...extra });

async function signedIn(url: string, init?: (cookie: string) => Request): Promise<Request> {
  const token = await stub.token({ username: 'player_one' });
  const cookie = cookieOf(await session.createUserSession(new Request('http://localhost/login'), token, 'player_one', '/'));
  return init ? init(cookie) : new Request(url, { headers: { cookie } });
}
const post = (url: string, fields: Record<string, string>) => signedIn(url, (cookie) => formPost(url, fields, { cookie }));
const args = (request: Request, params: Record<string, string> = {}) => ({ request, params, context: {} });
const flashOf = async (res: Response) =>
  (await session.readFlash(new Request('http://localhost/', { headers: { cookie: cookieOf(res) } }))).message;

function routes(table: Record<string, (req: SeenRequest) => [number, unknown]>) {
  const handle: StubHandler = (req, res) => {
    if (composeSchedule(handle, req, res)) return;
    const key = `${req.method} ${req.url.split('?')[0]}`;
    const route = table[key];
    if (!route) return json(res, 404, { message: `no stub for ${key}` });
    const [status, body] = route(req);
    json(res, status, body);
  };
  stub.answer(handle);
}

describe('a team’s state in words', () => {
  // 2030-01-01 12:00 IST
  const now = Date.parse('2030-01-01T06:30:00.000Z');
  const words = (extra: Record<string, unknown>, free = false) =>
    placeView(registration(extra) as never, { timeZone: TZ, free, nowMs: now }).words;

  it('words every state of the issue, the pay-by time in the app’s zone', () => {
    expect(words({ payBy: '2030-01-01T15:30:00.000Z' })).toBe('pending payment (pay by 21:00)');
    expect(words({ payBy: '2030-01-02T15:30:00.000Z' })).toBe('pending payment (pay by 2 Jan, 21:00)');
    expect(words({ paymentStatus: 'submitted', payBy: '2030-01-01T15:30:00.000Z' })).toBe('payment submitted');
    expect(words({ paymentStatus: 'verified', confirmed: true })).toBe('confirmed');
    expect(words({ place: 'waitlist', waitlistPosition: 3, placedAt: null })).toBe('waitlist #3');
    expect(words({ place: 'released', releasedReason: 'payment-deadline' })).toBe('released (payment not verified in time)');
    expect(words({ place: 'withdrawn' })).toBe('withdrawn');
    const checkIn = (state: string) => ({
      paymentStatus: 'verified',
      confirmed: true,
      checkIns: [{ stageId: 5, stageName: 'Qualifiers', opensAt: '', closesAt: '', state, checkedInAt: null }],
    });
    expect(words(checkIn('checked-in'))).toBe('checked in');
    expect(words(checkIn('no-show'))).toBe('no-show');
    expect(words(checkIn('open'))).toBe('confirmed');
  });

  it('a free tournament’s placed team is confirmed, without a deadline, also from a gateway that sends no “confirmed”', () => {
    expect(words({ confirmed: undefined, payBy: '2030-01-01T15:30:00.000Z' }, true)).toBe('confirmed');
    expect(words({ confirmed: undefined, paymentStatus: 'verified' })).toBe('confirmed');
    expect(formatDeadline('2030-09-05T15:30:00.000Z', TZ, now)).toBe('5 Sep, 21:00');
  });

  it('offers withdrawal to a placed team until registration closes, to a waitlisted one until the tournament is over', () => {
    const closedByTime = { ...TOURNAMENT, registrationClose: '2026-01-02T00:00:00.000Z' };
    expect(mayWithdraw('placed', TOURNAMENT)).toBe(true);
    expect(mayWithdraw('waitlist', { ...TOURNAMENT, status: 'Upcoming' })).toBe(true);
    expect(mayWithdraw('placed', { ...TOURNAMENT, status: 'Registration Closed' })).toBe(false);
    expect(mayWithdraw('placed', closedByTime)).toBe(false);
    // A waitlisted team holds no place: it may leave after registration closes (decision 043).
    expect(mayWithdraw('waitlist', closedByTime)).toBe(true);
    expect(mayWithdraw('waitlist', { ...TOURNAMENT, status: 'Registration Closed' })).toBe(true);
    expect(mayWithdraw('waitlist', { ...TOURNAMENT, status: 'Ongoing' })).toBe(true);
    expect(mayWithdraw('waitlist', { ...TOURNAMENT, status: 'Completed' })).toBe(false);
    expect(mayWithdraw('waitlist', { ...TOURNAMENT, status: 'Cancelled' })).toBe(false);
    expect(mayWithdraw('withdrawn', TOURNAMENT)).toBe(false);
    expect(mayWithdraw('released', TOURNAMENT)).toBe(false);
  });
});

describe('the team page, My Tournaments and the payment page show the state', () => {
  it('team page: the words, Withdraw while registration is open, Register again once the team left', async () => {
    routes({
      'GET /tournaments/3': () => [200, TOURNAMENT],
      'GET /registrations/3': () => [200, registration({ place: 'waitlist', waitlistPosition: 2 })],
    });
    let page = unwrap(await team.loader(args(await signedIn('http://localhost/team/3'), { tournamentId: '3' }))).body;
    expect(page.state.team).toMatchObject({
      state: { words: 'waitlist #2', tone: 'wait', active: true },
      mayWithdraw: true,
      mayRegisterAgain: false,
    });

    routes({ 'GET /tournaments/3': () => [200, TOURNAMENT], 'GET /registrations/3': () => [200, registration({ place: 'withdrawn' })] });
    page = unwrap(await team.loader(args(await signedIn('http://localhost/team/3'), { tournamentId: '3' }))).body;
    expect(page.state.team).toMatchObject({
      state: { words: 'withdrawn', tone: 'gone', active: false },
      mayWithdraw: false,
      mayRegisterAgain: true,
    });
  });

  it('team page: a waitlisted team is offered “Leave the waitlist” after registration closes; a placed one nothing', async () => {
    const closed = { ...TOURNAMENT, status: 'Registration Closed' };
    routes({
      'GET /tournaments/3': () => [200, closed],
      'GET /registrations/3': () => [200, registration({ place: 'waitlist', waitlistPosition: 1 })],
    });
    let page = unwrap(await team.loader(args(await signedIn('http://localhost/team/3'), { tournamentId: '3' }))).body;
    expect(page.state.team).toMatchObject({ state: { words: 'waitlist #1' }, mayWithdraw: true });
    let html = await renderPage(team.default, page, 'http://localhost/team/3');
    expect(html).toMatch(/<a class="withdraw-link"[^>]*href="\/team\/3\/withdraw">Leave the waitlist<\/a>/);
    expect(html).not.toContain('Withdraw team');

    routes({ 'GET /tournaments/3': () => [200, closed], 'GET /registrations/3': () => [200, registration()] });
    page = unwrap(await team.loader(args(await signedIn('http://localhost/team/3'), { tournamentId: '3' }))).body;
    expect(page.state.team).toMatchObject({ mayWithdraw: false });
    html = await renderPage(team.default, page, 'http://localhost/team/3');
    expect(html).not.toContain('withdraw-link');

    routes({
      'GET /tournaments/3': () => [200, { ...TOURNAMENT, status: 'Completed' }],
      'GET /registrations/3': () => [200, registration({ place: 'waitlist', waitlistPosition: 1 })],
    });
    page = unwrap(await team.loader(args(await signedIn('http://localhost/team/3'), { tournamentId: '3' }))).body;
    expect(page.state.team).toMatchObject({ mayWithdraw: false });
  });

  it('My Tournaments: each card carries its state', async () => {
    const tournament = {
      id: 3,
      name: 'Weekend Scrims',
      game: 'BGMI',
      status: 'Registration Ongoing',
      startDate: '',
      endDate: '',
      entryFee: 150,
    };
    routes({
      'GET /registrations/user': () => [
        200,
        [
          { ...registration({ place: 'released', releasedReason: 'payment-deadline' }), tournament },
          { ...registration({ rid: 43, tid: 4 }), tournament: { ...tournament, id: 4, entryFee: 0 } },
        ],
      ],
    });
    const page = await list.loader(args(await signedIn('http://localhost/my-tournaments')));
    expect(page.cards.map((c) => c.state.words)).toEqual(['released (payment not verified in time)', 'confirmed']);
  });

  it('payment page: a waitlisted team is told to wait, with no QR and no UTR form', async () => {
    const mine = (extra: Record<string, unknown>) => [
      {
        ...registration(extra),
        tournament: { id: 3, name: 'Weekend Scrims', game: 'BGMI', status: 'Registration Ongoing', entryFee: 150 },
      },
    ];
    routes({ 'GET /registrations/user': () => [200, mine({ place: 'waitlist', waitlistPosition: 1 })] });
    let body = unwrap(await payment.loader(args(await signedIn('http://localhost/payment?rid=42')))).body;
    expect(body).toMatchObject({ upi: null, screenshotForm: null, notPlaced: 'Your team is on the waitlist: pay once it has a place.' });
    expect(body.state.words).toBe('waitlist #1');

    // A placed team pays the tournament's payee (issue 27 item 10): the page asks for the tournament.
    routes({
      'GET /registrations/user': () => [200, mine({ payBy: '2099-01-01T15:30:00.000Z' })],
      'GET /tournaments/3': () => [200, TOURNAMENT],
    });
    body = unwrap(await payment.loader(args(await signedIn('http://localhost/payment?rid=42')))).body;
    expect(body.notPlaced).toBeNull();
    expect(body.upi.uri).toContain('am=150.00');
    expect(body.state.words).toMatch(/^pending payment \(pay by 1 Jan, 21:00\)$/);
  });
});

describe('withdrawal: a confirmation page, then one post', () => {
  const url = 'http://localhost/team/3/withdraw';

  it('asks first, and tells a paid team about the refund before it withdraws', async () => {
    routes({
      'GET /tournaments/3': () => [200, TOURNAMENT],
      'GET /registrations/3': () => [200, registration({ paymentStatus: 'verified', confirmed: true })],
    });
    const page = await withdraw.loader(args(await signedIn(url), { tournamentId: '3' }));
    expect(page).toMatchObject({ teamName: 'Team Soul', paid: true, open: true, state: { words: 'confirmed' } });

    routes({
      'GET /tournaments/3': () => [200, { ...TOURNAMENT, status: 'Ongoing' }],
      'GET /registrations/3': () => [200, registration()],
    });
    expect(await withdraw.loader(args(await signedIn(url), { tournamentId: '3' }))).toMatchObject({ paid: false, open: false });
  });

  it('a waitlisted team after registration closed: “leave the waitlist?”, one button to leave it', async () => {
    routes({
      'GET /tournaments/3': () => [200, { ...TOURNAMENT, status: 'Ongoing' }],
      'GET /registrations/3': () => [200, registration({ place: 'waitlist', waitlistPosition: 2 })],
    });
    const page = await withdraw.loader(args(await signedIn(url), { tournamentId: '3' }));
    expect(page).toMatchObject({ open: true, paid: false, state: { words: 'waitlist #2' } });
    const html = await renderPage(withdraw.default, page, url);
    expect(html).toContain('Team Soul: leave the waitlist?');
    expect(html).toContain('Your team leaves the waitlist of Weekend Scrims.');
    expect(html).toMatch(/<button[^>]*type="submit"[^>]*>Leave the waitlist<\/button>/);
    expect(html).toContain('Stay on the waitlist');
    expect(html).not.toContain('gives up its place');
    // Registration has closed: nothing promises that the team can register again.
    expect(html).not.toContain('you can register again');
  });

  it('withdraws with POST /registrations/{tid}/withdraw and says “ask the organiser for a refund” (and where it will show) when paid', async () => {
    routes({
      'POST /registrations/3/withdraw': () => [200, { ...registration({ place: 'withdrawn', paymentStatus: 'verified' }), paid: true }],
    });
    let res = (await withdraw.action(args(await post(url, {}), { tournamentId: '3' }))) as Response;
    expect(res.headers.get('location')).toBe('/team/3');
    expect(await flashOf(res)).toBe(
      'Team Soul has withdrawn. You paid the entry fee: ask the organiser for a refund. Once they record it, your team page shows it.',
    );
    expect(stub.seen.at(-1)).toMatchObject({ method: 'POST', url: '/registrations/3/withdraw' });

    routes({ 'POST /registrations/3/withdraw': () => [200, { ...registration({ place: 'withdrawn' }), paid: false }] });
    res = (await withdraw.action(args(await post(url, {}), { tournamentId: '3' }))) as Response;
    expect(await flashOf(res)).toBe('Team Soul has withdrawn.');

    // A team that never had a place (placedAt null) left the waitlist.
    routes({ 'POST /registrations/3/withdraw': () => [200, { ...registration({ place: 'withdrawn', placedAt: null }), paid: false }] });
    res = (await withdraw.action(args(await post(url, {}), { tournamentId: '3' }))) as Response;
    expect(await flashOf(res)).toBe('Team Soul has left the waitlist.');
  });

  it('shows the gateway’s refusal (registration closed meanwhile) on the page', async () => {
    routes({ 'POST /registrations/3/withdraw': () => [409, { message: 'Registration has closed: the team can no longer withdraw.' }] });
    const { status, body } = unwrap(await withdraw.action(args(await post(url, {}), { tournamentId: '3' })));
    expect(status).toBe(409);
    expect(body.formError).toBe('Registration has closed: the team can no longer withdraw.');
  });
});

describe('the registration form when the tournament is full: “Join the waitlist”', () => {
  const regUrl = 'http://localhost/register/3';

  it('offers the form (with the waitlist) when full, and the form again to a captain whose team withdrew', async () => {
    routes({ 'GET /tournaments/3': () => [200, TOURNAMENT], 'GET /registrations/3': () => [404, { message: 'none' }] });
    expect(unwrap(await register.loader(args(await signedIn(regUrl), { tournamentId: '3' }))).body.state).toEqual({ kind: 'full' });

    routes({
      'GET /tournaments/3': () => [200, { ...TOURNAMENT, registeredTeams: 1 }],
      'GET /registrations/3': () => [200, registration({ place: 'withdrawn' })],
    });
    expect(unwrap(await register.loader(args(await signedIn(regUrl), { tournamentId: '3' }))).body.state).toEqual({ kind: 'open' });

    routes({
      'GET /tournaments/3': () => [200, TOURNAMENT],
      'GET /registrations/3': () => [200, registration({ place: 'waitlist', waitlistPosition: 4 })],
    });
    expect(unwrap(await register.loader(args(await signedIn(regUrl), { tournamentId: '3' }))).body.state).toEqual({
      kind: 'waitlisted',
      teamName: 'Team Soul',
      position: 4,
    });
  });

  it('joins with waitlist: true and lands on the team page with the position', async () => {
    routes({ 'POST /registrations/3': () => [201, registration({ place: 'waitlist', waitlistPosition: 3, placedAt: null })] });
    const res = (await register.action(args(await post(regUrl, { ...TEAM, waitlist: 'true' }), { tournamentId: '3' }))) as Response;
    expect(stub.seen.at(-1)).toMatchObject({ method: 'POST', url: '/registrations/3', body: { ...TEAM, waitlist: true } });
    expect(res.headers.get('location')).toBe('/team/3');
    expect(await flashOf(res)).toBe('Team Soul is on the waitlist at #3. If a place frees, your team gets it and we tell you.');
  });

  it('without the flag, a full tournament’s refusal keeps the input (the page then offers the waitlist)', async () => {
    routes({
      'POST /registrations/3': () => [409, { message: 'Registration is full.' }],
      'GET /registrations/3': () => [404, { message: 'none' }],
    });
    const { status, body } = unwrap(await register.action(args(await post(regUrl, TEAM), { tournamentId: '3' })));
    expect(status).toBe(409);
    expect(body).toMatchObject({ formError: 'Registration is full.', values: TEAM });
    expect((stub.seen.at(-2)?.body as Record<string, unknown>).waitlist).toBeUndefined();
  });
});

describe('check-in: one tap on the team page and the matches page while a window is open', () => {
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();
  const stage = (id: number, opens: number, closes: number) => ({
    id,
    tid: 3,
    name: `Stage ${id}`,
    order: id,
    lobbySize: 25,
    firstSlot: 1,
    advancePerGroup: 0,
    advanceBest: 0,
    state: 'draft',
    draw: null,
    entrants: 2,
    hasResults: false,
    groupGap: 0,
    groupMatches: { scheduled: 0, withResults: 0, notPlayed: 0 },
    groups: [],
    checkIn: { opensAt: iso(opens), closesAt: iso(closes), noShows: null },
  });
  const STAGES = [stage(5, now - 60_000, now + 600_000), stage(6, now + 600_000, now + 1_200_000)];
  const confirmed = registration({ paymentStatus: 'verified', confirmed: true });

  it('offers the stage whose window is open to a confirmed team only', async () => {
    routes({
      'GET /tournaments/3': () => [200, TOURNAMENT],
      'GET /registrations/3': () => [200, confirmed],
      'GET /tournaments/3/stages': () => [200, STAGES],
    });
    let page = unwrap(await team.loader(args(await signedIn('http://localhost/team/3'), { tournamentId: '3' }))).body;
    expect(page.state.team.checkIns).toEqual([
      { stageId: 5, stageName: 'Stage 5', closes: expect.stringMatching(/^\d{1,2} \w{3} \d{4}, /) },
    ]);

    routes({
      'GET /tournaments/3': () => [200, TOURNAMENT],
      'GET /registrations/3': () => [200, registration()],
      'GET /tournaments/3/stages': () => [200, STAGES],
    });
    page = unwrap(await team.loader(args(await signedIn('http://localhost/team/3'), { tournamentId: '3' }))).body;
    expect(page.state.team.checkIns).toEqual([]);
  });

  it('reads the team’s own check-ins when the gateway sends them: a team already checked in is not asked again', async () => {
    const checkIns = [
      {
        stageId: 5,
        stageName: 'Stage 5',
        opensAt: iso(now - 60_000),
        closesAt: iso(now + 600_000),
        state: 'checked-in',
        checkedInAt: iso(now),
      },
    ];
    routes({
      'GET /tournaments/3': () => [200, TOURNAMENT],
      'GET /registrations/3': () => [200, { ...confirmed, checkIns }],
      'GET /tournaments/3/stages': () => [200, STAGES],
    });
    const page = unwrap(await team.loader(args(await signedIn('http://localhost/team/3'), { tournamentId: '3' }))).body;
    expect(page.state.team.checkIns).toEqual([]);
    expect(page.state.team.state.words).toBe('checked in');
  });

  it('checks in with POST …/stages/{id}/check-in and comes back to the page it was on; a refusal is said there', async () => {
    routes({ 'POST /tournaments/3/stages/5/check-in': () => [200, { stageId: 5, teamId: 42, checkedInAt: iso(now) }] });
    let res = (await team.action(
      args(await post('http://localhost/team/3', { intent: 'check-in', stageId: '5' }), { tournamentId: '3' }),
    )) as Response;
    expect(stub.seen.at(-1)).toMatchObject({ method: 'POST', url: '/tournaments/3/stages/5/check-in' });
    expect(res.headers.get('location')).toBe('/team/3');
    expect(await flashOf(res)).toBe('Checked in. See you in the lobby.');

    const matches = await import('~/routes/tournament.$tournamentId.matches/route');
    routes({ 'POST /tournaments/3/stages/5/check-in': () => [409, { message: 'Check-in for Stage 5 has closed.' }] });
    res = (await matches.action(
      args(await post('http://localhost/tournament/3/matches', { intent: 'check-in', stageId: '5' }), { tournamentId: '3' }),
    )) as Response;
    expect(res.headers.get('location')).toBe('/tournament/3/matches');
    expect(await flashOf(res)).toBe('Check-in for Stage 5 has closed.');
  });

  it('the matches page offers the same check-in', async () => {
    const matches = await import('~/routes/tournament.$tournamentId.matches/route');
    routes({
      'GET /tournaments/3': () => [200, TOURNAMENT],
      'GET /registrations/3': () => [200, confirmed],
      'GET /tournaments/3/stages': () => [200, STAGES],
      'GET /matches/tournament/3': () => [200, []],
    });
    const page = unwrap(await matches.loader(args(await signedIn('http://localhost/tournament/3/matches'), { tournamentId: '3' }))).body;
    expect(page.checkIns.map((c: { stageId: number }) => c.stageId)).toEqual([5]);
  });
});
