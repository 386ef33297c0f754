import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointsRow, registrationJson, tournamentJson } from '../support';
import { cookieOf, json, startGatewayStub, unwrap, useStubEnv, type GatewayStub, type StubHandler } from './support/gateway-stub';
import { renderPage } from './support/render';

// Issue 27 items 1-3 (decision 051): the pages follow the derived phase, the podium shows once the last stage is
// completed, and nobody is asked to pay in a Completed or Cancelled tournament. Route modules are imported after the
// environment points at the stub gateway.
let stub: GatewayStub;
let detail: typeof import('~/routes/tournaments.$tournamentId');
let list: typeof import('~/routes/tournaments._index');
let payment: typeof import('~/routes/payment');
let myList: typeof import('~/routes/my-tournaments._index');
let session: typeof import('~/utils/session.server');
let hub: typeof import('~/routes/admin.$tournamentId._index');
let manageList: typeof import('~/routes/admin.manage-tournaments');

beforeAll(async () => {
  stub = await startGatewayStub();
  await useStubEnv(stub);
  detail = await import('~/routes/tournaments.$tournamentId');
  list = await import('~/routes/tournaments._index');
  payment = await import('~/routes/payment');
  myList = await import('~/routes/my-tournaments._index');
  session = await import('~/utils/session.server');
  hub = await import('~/routes/admin.$tournamentId._index');
  manageList = await import('~/routes/admin.manage-tournaments');
});
afterAll(() => stub.close());

const TID = 7;
const args = (request: Request, params: Record<string, string> = { tournamentId: String(TID) }) => ({ request, params, context: {} });

async function signedIn(url: string, roles?: string[]): Promise<Request> {
  const token = await stub.token({ username: 'player_one', ...(roles ? { roles } : {}) });
  const res = await session.createUserSession(new Request('http://localhost/login'), token, 'player_one', '/');
  return new Request(url, { headers: { cookie: cookieOf(res) } });
}

function gatewayAnswers(routes: Record<string, StubHandler>) {
  stub.answer((req, res) => {
    const key = `${req.method} ${req.url.split('?')[0]}`;
    if (routes[key]) return routes[key](req, res);
    json(res, 404, { message: 'Not found.' });
  });
}

const stage = (id: number, name: string, order: number, state: 'draft' | 'published' | 'completed') => ({
  id,
  tid: TID,
  name,
  order,
  lobbySize: 4,
  firstSlot: 1,
  advancePerGroup: order === 1 ? 2 : 0,
  advanceBest: 0,
  state,
  draw: null,
  entrants: 4,
  hasResults: state !== 'draft',
  groupGap: 0,
  groupMatches: { scheduled: 0, withResults: 0, notPlayed: 0 },
  groups: [],
});

// The event: the organiser never changed "Registration Ongoing", and the registration window is still open.
const base = { id: TID, name: 'Monsoon Cup', status: 'Registration Ongoing' };
const finished = tournamentJson({ ...base, stageProgress: { stages: 2, started: true, finished: true } });
const running = tournamentJson({ ...base, stageProgress: { stages: 2, started: true, finished: false } });
const finalRows = [
  pointsRow({ rank: 1, teamName: 'Soul', totalPoints: 41 }),
  pointsRow({ rank: 2, teamName: 'GodLike', totalPoints: 30 }),
].concat([pointsRow({ rank: 3, teamName: 'Blind', totalPoints: 22 }), pointsRow({ rank: 4, teamName: 'Orangutan', totalPoints: 9 })]);

function finishedEvent(extra: Record<string, StubHandler> = {}) {
  gatewayAnswers({
    [`GET /tournaments/${TID}`]: (_req, res) => json(res, 200, finished),
    [`GET /tournaments/${TID}/stages`]: (_req, res) =>
      json(res, 200, [stage(1, 'Qualifiers', 1, 'completed'), stage(2, 'Final', 2, 'completed')]),
    [`GET /tournaments/${TID}/points-table/overall`]: (req, res) =>
      req.url.includes('stage=2') ? json(res, 200, finalRows) : json(res, 400, { message: 'the podium reads the Final' }),
    ...extra,
  });
}

describe('the tournament page once the last stage is completed', () => {
  it('says Completed, shows the podium with the final table linked, and no Register button', async () => {
    finishedEvent();
    const loaded = unwrap(await detail.loader(args(new Request(`http://localhost/tournaments/${TID}`)))).body;
    expect(loaded).toMatchObject({ canRegister: false, state: 'Completed: see the final points' });
    expect(loaded.podium).toEqual({
      stageName: 'Final',
      tableUrl: `/tournaments/${TID}/points-table?stage=2`,
      places: [
        { rank: 1, teamName: 'Soul', points: 41 },
        { rank: 2, teamName: 'GodLike', points: 30 },
        { rank: 3, teamName: 'Blind', points: 22 },
      ],
    });
    const html = await renderPage(detail.default, loaded);
    expect(html).toContain('<span class="badge b-done">Completed</span>');
    expect(html).toContain('Champions: <strong>Soul</strong>');
    expect(html).toContain(`href="/tournaments/${TID}/points-table?stage=2">Final table: the final standings</a>`);
    expect(html).not.toContain('Orangutan');
    expect(html).not.toMatch(/>Register<\/a>/);
    expect(html).not.toContain('Registration Ongoing');
    expect(loaded.og.description).toContain('Completed');
  });

  it('says In progress while a stage is published, with no podium and no Register button', async () => {
    gatewayAnswers({
      [`GET /tournaments/${TID}`]: (_req, res) => json(res, 200, running),
      [`GET /tournaments/${TID}/stages`]: (_req, res) => json(res, 200, [stage(1, 'Qualifiers', 1, 'published')]),
    });
    const loaded = unwrap(await detail.loader(args(new Request(`http://localhost/tournaments/${TID}`)))).body;
    expect(loaded).toMatchObject({ canRegister: false, podium: null, state: 'Registration closed: matches under way' });
    const html = await renderPage(detail.default, loaded);
    expect(html).toContain('<span class="badge b-live">In progress</span>');
    expect(html).not.toMatch(/>Register<\/a>/);
  });

  it('never asks a team with an unpaid place to pay', async () => {
    finishedEvent({
      [`GET /registrations/${TID}`]: (_req, res) =>
        json(
          res,
          200,
          registrationJson({ rid: 42, tid: TID, teamName: 'Soul', paymentStatus: 'pending', payBy: '2099-01-01T10:00:00.000Z' }),
        ),
    });
    const loaded = unwrap(await detail.loader(args(await signedIn(`http://localhost/tournaments/${TID}`)))).body;
    expect(loaded.team).toMatchObject({ payNow: false, resend: false });
    expect(loaded.team!.state.words).not.toMatch(/pay by/i);
    expect(await renderPage(detail.default, loaded)).not.toContain('Pay the entry fee');
  });
});

describe('cards and lists', () => {
  it('the list card of a finished event says Completed and offers details, not Register', async () => {
    gatewayAnswers({ 'GET /tournaments': (_req, res) => json(res, 200, [running, { ...finished, id: 8 }]) });
    const { body } = unwrap(await list.loader(args(new Request('http://localhost/tournaments'), {})));
    expect(body.tournaments.map((t: any) => [t.id, t.phase, t.state])).toEqual([
      [TID, 'in-progress', 'Registration closed: matches under way'],
      [8, 'completed', 'Completed: see the final points'],
    ]);
    const done = unwrap(await list.loader(args(new Request('http://localhost/tournaments?show=completed'), {}))).body;
    expect(done.tournaments.map((t: any) => t.id)).toEqual([8]);
  });

  it('My Tournaments shows the gateway’s phase, not the stored status', async () => {
    const summary = {
      id: TID,
      name: 'Monsoon Cup',
      game: 'BGMI',
      status: 'Registration Ongoing',
      startDate: '',
      endDate: '',
      entryFee: 150,
      coverImageUrl: null,
    };
    gatewayAnswers({
      'GET /registrations/user': (_req, res) =>
        json(res, 200, [{ ...registrationJson({ rid: 42, tid: TID }), tournament: { ...summary, phase: 'completed' } }]),
    });
    const { cards } = (await myList.loader(args(await signedIn('http://localhost/my-tournaments'), {}))) as any;
    expect(cards[0].phase).toBe('completed');
  });
});

describe('/payment of a Completed or Cancelled tournament', () => {
  it('says why no fee is taken and shows no QR, UPI link or reference form', async () => {
    for (const [phase, words] of [
      ['completed', 'This tournament is completed: no entry fee is taken any more.'],
      ['cancelled', 'This tournament is cancelled: no entry fee is taken. Contact the organiser about a refund.'],
    ] as const) {
      const summary = {
        id: TID,
        name: 'Monsoon Cup',
        game: 'BGMI',
        status: 'Registration Ongoing',
        startDate: '',
        endDate: '',
        entryFee: 150,
        coverImageUrl: null,
        phase,
      };
      gatewayAnswers({
        'GET /registrations/user': (_req, res) =>
          json(res, 200, [
            {
              ...registrationJson({ rid: 42, tid: TID, paymentStatus: 'pending', payBy: '2099-01-01T10:00:00.000Z' }),
              tournament: summary,
            },
          ]),
      });
      const loaded = unwrap(await payment.loader(args(await signedIn('http://localhost/payment?rid=42'), {}))).body as any;
      expect(loaded).toMatchObject({ found: true, notPlaced: words, upi: null, screenshotForm: null });
      const html = await renderPage(payment.default, loaded);
      expect(html).toContain(words);
      expect(html).not.toContain('upi://');
      expect(html).not.toContain('name="upiReference"');
    }
  });
});

describe('one hub page per tournament for the organiser (issue 27 item 24)', () => {
  const summary = {
    id: TID,
    name: 'Monsoon Cup',
    game: 'BGMI',
    status: 'Registration Ongoing',
    startDate: finished.startDate,
    endDate: finished.endDate,
    registrationClose: finished.registrationClose,
    phase: 'completed',
    maxTeams: 16,
    entryFee: 150,
    pointsSystem: 'bmps-15',
    registeredTeams: 12,
    waitlisted: 2,
    paymentsAwaiting: 3,
    payments: { pending: 0, submitted: 3, verified: 9, rejected: 0 },
  };

  it('/admin/{id} links every tool of that tournament and says what players see', async () => {
    finishedEvent({ 'GET /tournaments/admin/summary': (_req, res) => json(res, 200, [summary]) });
    const loaded = (await hub.loader(args(await signedIn(`http://localhost/admin/${TID}`, ['ROLE_USER', 'ROLE_ADMIN'])))) as any;
    expect(loaded.t).toMatchObject({ id: TID, name: 'Monsoon Cup', phase: 'completed', status: 'Registration Ongoing' });
    const html = await renderPage(hub.default, loaded);
    for (const href of ['registrations', 'stages', 'matches', 'notifications']) expect(html).toContain(`href="/admin/${TID}/${href}"`);
    expect(html).toContain(`href="/admin/add-points/${TID}"`);
    expect(html).toContain(`href="/admin/update-tournament/${TID}"`);
    expect(html).toContain(`href="/tournaments/${TID}">Public page</a>`);
    expect(html).toContain('Status you set: Registration Ongoing. Players see “Completed”');
    // A player is sent away (the /admin layout and this loader both require an admin).
    await expect(hub.loader(args(await signedIn(`http://localhost/admin/${TID}`)))).rejects.toBeInstanceOf(Response);
  });

  it('the public page offers "Manage" to an admin only, and each list row leads to the hub', async () => {
    finishedEvent();
    const admin = unwrap(
      await detail.loader(args(await signedIn(`http://localhost/tournaments/${TID}`, ['ROLE_USER', 'ROLE_ADMIN']))),
    ).body;
    expect(await renderPage(detail.default, admin)).toContain(`href="/admin/${TID}">Manage</a>`);
    finishedEvent({ [`GET /registrations/${TID}`]: (_req, res) => json(res, 404, { message: 'No team.' }) });
    const player = unwrap(await detail.loader(args(await signedIn(`http://localhost/tournaments/${TID}`)))).body;
    expect(await renderPage(detail.default, player)).not.toContain(`href="/admin/${TID}"`);
    const anonymous = unwrap(await detail.loader(args(new Request(`http://localhost/tournaments/${TID}`)))).body;
    expect(anonymous.organiser).toBe(false);

    gatewayAnswers({ 'GET /tournaments': (_req, res) => json(res, 200, [finished]) });
    const listed = unwrap(
      await manageList.loader(args(await signedIn('http://localhost/admin/manage-tournaments', ['ROLE_USER', 'ROLE_ADMIN']), {})),
    ).body;
    expect(await renderPage(manageList.default, listed)).toContain(
      `aria-label="Manage Monsoon Cup" data-discover="true" href="/admin/${TID}"`,
    );
  });
});
