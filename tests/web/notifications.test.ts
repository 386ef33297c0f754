import { createElement, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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

async function render(Component: ComponentType, loaderData: unknown) {
  const handler = createStaticHandler([{ id: 'page', path: '*', Component, loader: () => loaderData as object }]);
  const context = await handler.query(new Request('http://localhost/notifications'));
  if (context instanceof Response) throw new Error('unexpected redirect');
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(createElement(StaticRouterProvider, { router, context, hydrate: false })).replaceAll('<!-- -->', '');
}

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
