import { createElement, type ComponentType } from 'react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderPage } from '../support/render';
import { cookieOf, formPost, json, startGatewayStub, thrown, unwrap, useStubEnv, type GatewayStub } from './support/gateway-stub';

// Decision 044: the notifications page, its form posts and the nav's unread count, against a stub gateway.
let stub: GatewayStub;
let route: typeof import('~/routes/notifications');
let session: typeof import('~/utils/session.server');
let signedInModule: typeof import('~/utils/signed-in.server');
let nav: typeof import('~/components/site-nav');

beforeAll(async () => {
  stub = await startGatewayStub();
  await useStubEnv(stub);
  route = await import('~/routes/notifications');
  session = await import('~/utils/session.server');
  signedInModule = await import('~/utils/signed-in.server');
  nav = await import('~/components/site-nav');
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.seen.length = 0;
});

const line = (id: number, over: Record<string, unknown> = {}) => ({
  id,
  kind: 'room-posted',
  tournamentId: 5,
  title: 'Room details are up',
  body: 'Monsoon Cup: the room for day 1 match 2 (B) is up. Open the room card for the ID and password.',
  link: '/tournament/5/matches',
  createdAt: '2030-06-01T12:30:00.000Z',
  read: false,
  ...over,
});

async function cookie() {
  const res = await session.createUserSession(
    new Request('http://localhost/login'),
    await stub.token({ username: 'player_one' }),
    'player_one',
    '/',
  );
  return cookieOf(res);
}
const args = (request: Request) => ({ request, params: {}, context: {} });

/** The notification pages at their own URL (the nav marks the page it is on). */
const render = (Component: ComponentType, loaderData: unknown) => renderPage(Component, loaderData, 'http://localhost/notifications');

describe('/notifications', () => {
  it('sends visitors to log in', async () => {
    const res = (await thrown(() => route.loader(args(new Request('http://localhost/notifications'))))) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/login?${new URLSearchParams({ redirectTo: '/notifications' })}`);
  });

  it('lists the caller’s notifications with times in the app’s zone, read forms for unread ones, and an older page', async () => {
    stub.answer((req, res) => {
      if (req.url.startsWith('/notifications'))
        return json(res, 200, { items: [line(9), line(8, { read: true, title: 'Payment verified' })], nextBefore: 8, unread: 3 });
      if (req.url === '/push/public-key') return json(res, 200, { publicKey: 'BPub' });
      json(res, 404, { message: 'nope' });
    });
    const loaded = unwrap(
      await route.loader(args(new Request('http://localhost/notifications?before=20', { headers: { cookie: await cookie() } }))),
    ).body;
    expect(stub.seen.find((r) => r.url.startsWith('/notifications'))!.url).toBe('/notifications?before=20');
    expect(loaded).toMatchObject({ unread: 3, nextBefore: 8, older: true, publicKey: 'BPub' });
    expect(loaded.items[0]).toMatchObject({ id: 9, read: false, when: '1 Jun 2030, 6:00 pm' });

    const html = await render(route.default, loaded);
    expect(html).toContain('<h1 id="notifications-title">Notifications</h1>');
    expect(html).toContain('3 unread.');
    expect(html).toContain('Mark all as read');
    // One "Mark as read" form for the one unread line, described by its title.
    expect(html.match(/Mark as read</g)).toHaveLength(1);
    expect(html).toContain('name="id" value="9"');
    expect(html).toContain('aria-describedby="n-9"');
    expect(html).toContain('<span class="visually-hidden">Unread: </span>Room details are up');
    expect(html).toContain('href="/tournament/5/matches"');
    expect(html).toContain('href="/notifications?before=8"');
    // The push button needs JavaScript: nothing of it in the server's page.
    expect(html).not.toContain('Notify me on this phone');
  });

  it('marks one as read, or all, at the gateway and comes back to the list (post/redirect/get)', async () => {
    stub.answer((req, res) => json(res, 200, { unread: 0 }));
    const c = await cookie();
    const one = (await route.action(
      args(formPost('http://localhost/notifications', { intent: 'read', id: '9' }, { cookie: c })),
    )) as Response;
    expect(one.status).toBe(303);
    expect(one.headers.get('location')).toBe('/notifications');
    const all = (await route.action(
      args(formPost('http://localhost/notifications?before=8', { intent: 'read-all' }, { cookie: c })),
    )) as Response;
    expect(all.headers.get('location')).toBe('/notifications?before=8');
    expect(stub.seen.filter((r) => r.url === '/notifications/read').map((r) => r.body)).toEqual([{ ids: [9] }, {}]);
    // A made-up id reaches nobody.
    await route.action(args(formPost('http://localhost/notifications', { intent: 'read', id: '-1' }, { cookie: c })));
    expect(stub.seen.filter((r) => r.url === '/notifications/read')).toHaveLength(2);
  });

  it('hands a push subscription to the gateway, and refuses one that is not a subscription', async () => {
    stub.answer((req, res) => json(res, req.url === '/push/subscribe' ? 201 : 200, { message: 'ok' }));
    const c = await cookie();
    const subscription = { endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys: { p256dh: 'B'.repeat(87), auth: 'a'.repeat(22) } };
    const ok = unwrap(
      await route.action(
        args(
          formPost(
            'http://localhost/notifications',
            { intent: 'push-subscribe', subscription: JSON.stringify(subscription) },
            { cookie: c },
          ),
        ),
      ),
    );
    expect(ok.body).toEqual({ push: 'on' });
    expect(stub.seen.find((r) => r.url === '/push/subscribe')!.body).toEqual(subscription);
    const bad = unwrap(
      await route.action(args(formPost('http://localhost/notifications', { intent: 'push-subscribe', subscription: '{' }, { cookie: c }))),
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ push: 'error' });
    expect(stub.seen.filter((r) => r.url === '/push/subscribe')).toHaveLength(1);
  });
});

describe('the nav', () => {
  it('takes the unread count from the gateway’s answer about the account, in the same call', async () => {
    stub.answer((req, res) =>
      req.url === '/api/auth/me'
        ? json(res, 200, {
            id: 1,
            username: 'player_one',
            email: 'p@x.in',
            phone: '+919876543210',
            roles: ['ROLE_USER'],
            unreadNotifications: 4,
          })
        : json(res, 404, { message: 'nope' }),
    );
    const signed = await signedInModule.signedIn(new Request('http://localhost/', { headers: { cookie: await cookie() } }));
    expect(signed).toMatchObject({ state: 'accepted', unread: 4 });
    expect(stub.seen.map((r) => r.url).filter((u) => u !== '/.well-known/jwks.json')).toEqual(['/api/auth/me']);
  });

  it('shows a bell with the count for a signed-in user, "99+" past 99, and none for visitors', async () => {
    const html = (user: Parameters<typeof nav.SiteNav>[0]['user']) => render(() => createElement(nav.SiteNav, { user }), {});
    const four = await html({ username: 'p', isAdmin: false, unread: 4 });
    expect(four).toContain('aria-label="Notifications, 4 unread"');
    expect(four).toContain('<span class="nav-bell-count" aria-hidden="true">4</span>');
    expect(await html({ username: 'p', isAdmin: false, unread: 100 })).toContain('>99+</span>');
    expect(await html({ username: 'p', isAdmin: false, unread: 0 })).toContain('aria-label="Notifications"');
    expect(await html(null)).not.toContain('/notifications');
  });
});

// Decision 044: the organiser's list of a tournament's deliveries that gave up, and the link to it.
describe('/admin/{id}/notifications', () => {
  let failedPage: typeof import('~/routes/admin.$tournamentId.notifications');
  let list: typeof import('~/routes/admin.tournament-list');
  beforeAll(async () => {
    failedPage = await import('~/routes/admin.$tournamentId.notifications');
    list = await import('~/routes/admin.tournament-list');
  });

  const TOURNAMENT = {
    id: 5,
    name: 'Monsoon Cup',
    game: 'BGMI',
    status: 'Registration Ongoing',
    startDate: '2030-06-10T12:30:00.000Z',
    maxTeams: 16,
    entryFee: 0,
  };
  const failed = [
    {
      id: 12,
      channel: 'push',
      kind: 'room-posted',
      title: 'Room details are up',
      username: 'player_two',
      attempts: 1,
      error: 'Push service answered 410: gone',
      failedAt: '2030-06-01T12:31:00.000Z',
    },
    {
      id: 11,
      channel: 'email',
      kind: 'payment-verified',
      title: 'Payment verified',
      username: 'player_one',
      attempts: 5,
      error: 'Mail not sent: Mailbox busy, try later',
      failedAt: '2030-06-01T09:00:00.000Z',
    },
  ];
  const answer = (deliveries: unknown[]) =>
    stub.answer((req, res) => {
      if (req.url === '/tournaments/5') return json(res, 200, TOURNAMENT);
      if (req.url === '/tournaments/5/notifications/failed') return json(res, 200, deliveries);
      json(res, 404, { message: 'Tournament not found.' });
    });
  async function adminCookie() {
    const token = await stub.token({ username: 'organiser', roles: ['ROLE_USER', 'ROLE_ADMIN'] });
    return cookieOf(await session.createUserSession(new Request('http://localhost/login'), token, 'organiser', '/'));
  }
  const load = async (id: string, c: string) =>
    failedPage.loader({
      request: new Request(`http://localhost/admin/${id}/notifications`, { headers: { cookie: c } }),
      params: { tournamentId: id },
      context: {},
    });

  it('lists who missed which notice, on which channel, when, why in words and after how many attempts', async () => {
    answer(failed);
    const loaded = unwrap(await load('5', await adminCookie())).body;
    expect(stub.seen.find((r) => r.url === '/tournaments/5/notifications/failed')!.headers.authorization).toMatch(/^Bearer /);
    expect(loaded.failed).toEqual([
      {
        id: 12,
        username: 'player_two',
        channel: 'Phone notification',
        title: 'Room details are up',
        when: '1 Jun 2030, 6:01 pm',
        attempts: 1,
        error: 'The phone has turned notifications off (its push service no longer knows it).',
        detail: 'Push service answered 410: gone',
      },
      {
        id: 11,
        username: 'player_one',
        channel: 'Email',
        title: 'Payment verified',
        when: '1 Jun 2030, 2:30 pm',
        attempts: 5,
        error: 'The mail server did not accept the email, five times over.',
        detail: 'Mail not sent: Mailbox busy, try later',
      },
    ]);
    const html = await render(failedPage.default, loaded);
    expect(html).toContain('<h1 id="ops-title">Failed notifications</h1>');
    expect(html).toContain('Monsoon Cup: 2 deliveries gave up');
    expect(html).toContain(
      '<h2 id="delivery-11" class="ops-card-title">player_one<span class="visually-hidden">: Payment verified</span></h2>',
    );
    expect(html).toContain('<dt>Channel</dt><dd>Email</dd>');
    expect(html).toContain('<dt>Attempts</dt><dd>5</dd>');
    expect(html).toContain(
      'The mail server did not accept the email, five times over.<span class="ops-detail mono">Mail not sent: Mailbox busy, try later</span>',
    );
    expect(html).not.toContain('Every notification was delivered.');
  });

  it('says every notification was delivered when none failed', async () => {
    answer([]);
    const loaded = unwrap(await load('5', await adminCookie())).body;
    expect(loaded.failed).toEqual([]);
    const html = await render(failedPage.default, loaded);
    expect(html).toContain('<p class="nothing">Every notification was delivered.</p>');
    expect(html).toContain('Monsoon Cup: none');
  });

  it('sends a player to log in as every admin page does, and answers 404 for a tournament that is not there', async () => {
    answer(failed);
    stub.seen.length = 0;
    const refused = (await thrown(() => load('5', ''))) as Response;
    expect(refused.status).toBe(302);
    expect(refused.headers.get('location')).toMatch(/^\/login\?/);
    const player = (await thrown(async () => load('5', await cookie()))) as Response;
    expect(player.status).toBe(302);
    expect(player.headers.get('location')).toMatch(/^\/login\?/);
    expect(stub.seen.filter((r) => r.url.includes('/notifications/failed'))).toEqual([]);
    const missing = (await thrown(async () => load('6', await adminCookie()))) as { init: ResponseInit | null };
    expect(missing.init?.status).toBe(404);
  });

  it('links each tournament of the organiser’s list to it, with the count when some failed', async () => {
    const summary = (id: number, extra: Record<string, unknown>) => ({
      ...TOURNAMENT,
      id,
      status: 'Registration Ongoing',
      endDate: '2030-06-11T12:30:00.000Z',
      registrationClose: '2030-06-09T12:30:00.000Z',
      pointsSystem: 'bgis-10',
      registeredTeams: 2,
      paymentsAwaiting: 0,
      payments: { pending: 0, submitted: 0, verified: 2, rejected: 0 },
      ...extra,
    });
    stub.answer((req, res) => json(res, 200, [summary(5, { failedDeliveries: 2 }), summary(7, { name: 'Quiet Cup' })]));
    const c = await adminCookie();
    const loaded = unwrap(
      await list.loader({
        request: new Request('http://localhost/admin/tournament-list', { headers: { cookie: c } }),
        params: {},
        context: {},
      }),
    ).body;
    expect(loaded.tournaments.map((t: { failedDeliveries: number }) => t.failedDeliveries)).toEqual([2, 0]);
    const html = await render(list.default, loaded);
    expect(html).toContain(
      '<a data-discover="true" href="/admin/5/notifications">Failed notifications (2)<span class="visually-hidden"> of Monsoon Cup</span></a>',
    );
    expect(html).toContain(
      '<a data-discover="true" href="/admin/7/notifications">Failed notifications<span class="visually-hidden"> of Quiet Cup</span></a>',
    );
  });
});
