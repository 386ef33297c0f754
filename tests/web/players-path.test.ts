import { createElement } from 'react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiteNav } from '~/components/site-nav';
import { registrationJson, tournamentJson } from '../support';
import { cookieOf, json, startGatewayStub, unwrap, useStubEnv, type GatewayStub, type StubHandler } from './support/gateway-stub';
import { renderPage } from './support/render';

// Issue 19, "The player's shortest path". Route modules are imported after the environment points at the stub gateway.
let stub: GatewayStub;
let detail: typeof import('~/routes/tournaments.$tournamentId');
let list: typeof import('~/routes/tournaments._index');
let home: typeof import('~/routes/_index');
let payment: typeof import('~/routes/payment');
let session: typeof import('~/utils/session.server');

beforeAll(async () => {
  stub = await startGatewayStub();
  await useStubEnv(stub);
  detail = await import('~/routes/tournaments.$tournamentId');
  list = await import('~/routes/tournaments._index');
  home = await import('~/routes/_index');
  payment = await import('~/routes/payment');
  session = await import('~/utils/session.server');
});
afterAll(() => stub.close());

const TID = 7;
const args = (request: Request, params: Record<string, string> = { tournamentId: String(TID) }) => ({ request, params, context: {} });

async function signedIn(url: string): Promise<Request> {
  const token = await stub.token({ username: 'player_one' });
  const res = await session.createUserSession(new Request('http://localhost/login'), token, 'player_one', '/');
  return new Request(url, { headers: { cookie: cookieOf(res) } });
}

function gatewayAnswers(routes: Record<string, StubHandler>) {
  stub.answer((req, res) => {
    const key = `${req.method} ${req.url.split('?')[0]}`;
    if (routes[key]) return routes[key](req, res);
    if (key === `GET /tournaments/${TID}/stages`) return json(res, 200, []);
    json(res, 404, { message: 'Not found.' });
  });
}

const tournament = (over: Parameters<typeof tournamentJson>[0] = {}) => tournamentJson({ id: TID, name: 'Monsoon Cup', ...over });
const team = (over: Parameters<typeof registrationJson>[0] = {}) => registrationJson({ rid: 42, tid: TID, teamName: 'Team Soul', ...over });

describe('the tournament page of a registered team', () => {
  async function page(t: ReturnType<typeof tournament>, registration: ReturnType<typeof team> | null) {
    gatewayAnswers({
      [`GET /tournaments/${TID}`]: (_req, res) => json(res, 200, t),
      [`GET /registrations/${TID}`]: (_req, res) =>
        registration ? json(res, 200, registration) : json(res, 404, { message: 'You have not registered a team for this tournament.' }),
    });
    const loaded = unwrap(await detail.loader(args(await signedIn(`http://localhost/tournaments/${TID}`)))).body;
    return { loaded, html: await renderPage(detail.default, loaded) };
  }

  it('shows the team’s state and "Your team" and "Room details" instead of Register', async () => {
    for (const [paymentStatus, words] of [
      ['pending', 'pending payment'],
      ['submitted', 'payment submitted'],
      ['verified', 'confirmed'],
    ] as const) {
      const { loaded, html } = await page(tournament(), team({ paymentStatus }));
      expect(loaded.team).toMatchObject({ rid: 42, teamName: 'Team Soul', state: { words } });
      expect(html).toContain(`Your team <strong>Team Soul</strong>: <span class="team-state`);
      expect(html).toContain(`>${words}</span>`);
      expect(html).toContain(`href="/team/${TID}">Your team</a>`);
      expect(html).toContain(`href="/tournament/${TID}/matches">Room details</a>`);
      expect(html).not.toContain(`href="/register/${TID}"`);
      expect(html).not.toContain('>Register</a>');
      // A pending team is offered its payment first; others are not.
      expect(html.includes('href="/payment?rid=42"')).toBe(paymentStatus === 'pending');
    }
  });

  it('calls a free tournament’s team confirmed', async () => {
    const { html } = await page(tournament({ entryFee: 0 }), team({ paymentStatus: 'pending' }));
    expect(html).toContain('>confirmed</span>');
    expect(html).not.toContain('/payment?rid=');
  });

  it('shows Register to a signed-in player without a team, and asks an anonymous visitor’s page nothing about teams', async () => {
    const { loaded, html } = await page(tournament(), null);
    expect(loaded.team).toBeNull();
    expect(html).toContain(`href="/register/${TID}">Register</a>`);

    stub.seen.length = 0;
    const anon = unwrap(await detail.loader(args(new Request(`http://localhost/tournaments/${TID}`)))).body;
    expect(anon.team).toBeNull();
    expect(stub.seen.map((r) => r.url)).not.toContain(`/registrations/${TID}`);
  });
});

describe('a tournament that is not open for registration', () => {
  it('shows its state on the detail page, not a Register button; ?register=closed still gives the spec’s alert', async () => {
    for (const [status, words] of [
      ['Registration Closed', 'Registration closed'],
      ['Ongoing', 'Registration closed: matches under way'],
      ['Completed', 'Completed: see the final points'],
      ['Cancelled', 'Cancelled'],
    ] as const) {
      gatewayAnswers({ [`GET /tournaments/${TID}`]: (_req, res) => json(res, 200, tournament({ status })) });
      const loaded = unwrap(await detail.loader(args(new Request(`http://localhost/tournaments/${TID}`)))).body;
      expect(loaded.state).toBe(words);
      const html = await renderPage(detail.default, loaded);
      expect(html).toContain(`<p class="td-state">${words}</p>`);
      expect(html).not.toMatch(/>Register<\/a>/);
      expect(html).toContain('View Points Table');
    }
    const closed = unwrap(await detail.loader(args(new Request(`http://localhost/tournaments/${TID}?register=closed`)))).body;
    expect(await renderPage(detail.default, closed)).toContain('Registration is closed for this tournament. Status: Cancelled.');
  });

  it('says when an upcoming tournament’s registration opens, while that is ahead', async () => {
    const opens = new Date(Date.now() + 3 * 86_400_000).toISOString();
    gatewayAnswers({
      [`GET /tournaments/${TID}`]: (_req, res) => json(res, 200, tournament({ status: 'Upcoming', registrationOpen: opens })),
    });
    const loaded = unwrap(await detail.loader(args(new Request(`http://localhost/tournaments/${TID}`)))).body;
    expect(loaded.state).toMatch(/^Registration opens \d{1,2} [A-Z][a-z]{2} \d{4}, /);

    gatewayAnswers({
      [`GET /tournaments/${TID}`]: (_req, res) =>
        json(res, 200, tournament({ status: 'Upcoming', registrationOpen: '2020-01-01T00:00:00.000Z' })),
    });
    expect(unwrap(await detail.loader(args(new Request(`http://localhost/tournaments/${TID}`)))).body.state).toBe(
      'Registration opens soon',
    );
  });
});

describe('the tournament list', () => {
  const all = [
    tournament({ id: 1, name: 'Done Cup', status: 'Completed' }),
    tournament({ id: 2, name: 'Live Cup', status: 'Ongoing' }),
    tournament({ id: 3, name: 'Gone Cup', status: 'Cancelled' }),
    tournament({ id: 4, name: 'Open Cup', status: 'Registration Ongoing' }),
    tournament({ id: 5, name: 'Soon Cup', status: 'Upcoming', registrationOpen: '2099-03-05T06:30:00.000Z' }),
    tournament({ id: 6, name: 'Shut Cup', status: 'Registration Closed' }),
  ];
  const answerList = () => gatewayAnswers({ 'GET /tournaments': (_req, res) => json(res, 200, all) });

  it('puts open tournaments first, then upcoming, ongoing, completed and cancelled; cards of closed ones carry their state', async () => {
    answerList();
    const { body } = unwrap(await list.loader(args(new Request('http://localhost/tournaments'), {})));
    expect(body.filter).toBeNull();
    expect(body.tournaments.map((t: { id: number }) => t.id)).toEqual([4, 5, 6, 2, 1, 3]);
    expect(Object.fromEntries(body.tournaments.map((t: { id: number; state: string | null }) => [t.id, t.state]))).toEqual({
      4: null,
      5: 'Registration opens 5 Mar 2099',
      6: 'Registration closed',
      2: 'Registration closed: matches under way',
      1: 'Completed: see the final points',
      3: 'Cancelled',
    });
    const html = await renderPage(list.default, body);
    // One orange Register (the open one); the others link to their details in the plain style.
    const links = (label: string, className: string) =>
      [...html.matchAll(new RegExp(`class="${className}"[^>]*href="/tournaments/(\\d+)">${label}`, 'g'))].map((m) => Number(m[1]));
    expect(links('Register', 'button')).toEqual([4]);
    expect(links('View details', 'button button-secondary')).toEqual([5, 6, 2, 1, 3]);
    expect(html).toContain('<dt>Prize pool</dt>');
    expect(html).toContain('<dt>Registration closes</dt>');
    expect(html).not.toContain('Prizepool');
    expect(html).not.toContain('Last Date');
  });

  it('filters by status with plain links (?show=), the current one marked', async () => {
    answerList();
    const { body } = unwrap(await list.loader(args(new Request('http://localhost/tournaments?show=upcoming'), {})));
    expect(body.filter).toBe('upcoming');
    expect(body.tournaments.map((t: { id: number }) => t.id)).toEqual([5, 6]);
    const html = await renderPage(list.default, body);
    expect(html).toContain('<nav class="chips" aria-label="Show tournaments">');
    for (const [href, label] of [
      ['/tournaments', 'All'],
      ['/tournaments?show=open', 'Open'],
      ['/tournaments?show=ongoing', 'Ongoing'],
      ['/tournaments?show=completed', 'Completed'],
    ])
      expect(html).toMatch(new RegExp(`<a (?!aria-current)[^>]*href="${href.replace('?', '\\?')}">${label}</a>`));
    expect(html).toMatch(/<a aria-current="page"[^>]*href="\/tournaments\?show=upcoming">Upcoming<\/a>/);

    gatewayAnswers({ 'GET /tournaments': (_req, res) => json(res, 200, [all[0]]) });
    const none = unwrap(await list.loader(args(new Request('http://localhost/tournaments?show=open'), {}))).body;
    expect(await renderPage(list.default, none)).toContain('No open tournaments at the moment.');
    // An unknown filter is the whole list.
    const unknown = unwrap(await list.loader(args(new Request('http://localhost/tournaments?show=nope'), {}))).body;
    expect(unknown.filter).toBeNull();
  });

  it('starts the home carousel with open tournaments', async () => {
    answerList();
    const { body } = unwrap(await home.loader(args(new Request('http://localhost/'), {})));
    expect(body.tournaments.map((t: { id: number }) => t.id)).toEqual([4, 5, 6, 2, 1, 3]);
  });
});

describe('the menu', () => {
  const render = (user: { username: string; isAdmin: boolean } | null) => renderPage(() => createElement(SiteNav, { user }), {});

  it('has My Tournaments for a signed-in player, beside the spec’s links; not for a visitor', async () => {
    const player = await render({ username: 'player_one', isAdmin: false });
    // Twice: the phone menu and the wide screen's row.
    expect(player.match(/href="\/my-tournaments"[^>]*>My Tournaments</g)).toHaveLength(2);
    for (const label of ['Home', 'Tournaments', 'Videos']) expect(player).toContain(`>${label}</a>`);
    expect(await render(null)).not.toContain('My Tournaments');
  });
});

describe('/payment once a UTR is sent', () => {
  const mine = (extra: Parameters<typeof registrationJson>[0]) => [
    {
      ...team(extra),
      tournament: {
        id: TID,
        name: 'Monsoon Cup',
        game: 'BGMI',
        status: 'Registration Ongoing',
        startDate: '',
        endDate: '',
        entryFee: 150,
        coverImageUrl: null,
      },
    },
  ];
  async function html(extra: Parameters<typeof registrationJson>[0]) {
    gatewayAnswers({
      'GET /registrations/user': (_req, res) => json(res, 200, mine(extra)),
      // The payee is the tournament's (issue 27 item 10): asked only for a team that pays.
      [`GET /tournaments/${TID}`]: (_req, res) => json(res, 200, tournament({ entryFee: 150 })),
    });
    return renderPage(payment.default, unwrap(await payment.loader(args(await signedIn('http://localhost/payment?rid=42'), {}))).body);
  }

  it('shows the status, then the reference, then the QR and the UPI link under "Pay again or pay another amount"', async () => {
    const page = await html({ paymentStatus: 'submitted', paymentReference: '412345678901' });
    const at = (text: string) => {
      const i = page.indexOf(text);
      expect(i, text).toBeGreaterThan(-1);
      return i;
    };
    expect(at('Payment status:')).toBeLessThan(at('Correct your UPI reference'));
    expect(at('Correct your UPI reference')).toBeLessThan(at('Pay again or pay another amount'));
    expect(at('Pay again or pay another amount')).toBeLessThan(at('UPI QR code: pay ₹150'));
    expect(at('Pay again or pay another amount')).toBeLessThan(at('Pay with UPI app'));
  });

  it('before a UTR, puts the QR first and has no "Pay again"', async () => {
    const page = await html({ paymentStatus: 'pending', paymentReference: '' });
    expect(page.indexOf('UPI QR code: pay ₹150')).toBeLessThan(page.indexOf('After paying: send your UPI reference'));
    expect(page).not.toContain('Pay again');
  });
});
