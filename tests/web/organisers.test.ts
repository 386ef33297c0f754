// Issue 29 (decision 065): an organiser's public page, and "Organised by" on a tournament's page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tournamentJson } from '../support';
import { captureLogs } from '../support/logs';
import { renderPage } from '../support/render';
import { cookieOf, json, startGatewayStub, thrown, unwrap, useStubEnv, type GatewayStub } from './support/gateway-stub';

let stub: GatewayStub;
let page: typeof import('~/routes/organisers.$slug');
let detail: typeof import('~/routes/tournaments.$tournamentId');
let layout: typeof import('~/routes/admin');
let manage: typeof import('~/routes/admin.manage-tournament');
let invitation: typeof import('~/routes/staff-invitations.$token');

/** A signed-in non-admin's session cookie (the stub signs its token). */
async function playerCookie() {
  const session = await import('~/utils/session.server');
  const token = await stub.token({ username: 'crew_one', roles: ['ROLE_USER'] });
  return cookieOf(await session.createUserSession(new Request('http://localhost/login'), token, 'crew_one', '/'));
}
const signedIn = (url: string, cookie: string, params: Record<string, string> = {}) => ({
  request: new Request(url, { headers: { cookie } }),
  params,
  context: {},
});

const args = (url: string, params: Record<string, string> = {}) => ({ request: new Request(url), params, context: {} });

const organiser = (over: Record<string, unknown> = {}) => ({
  id: 2,
  slug: 'xtreme-esports',
  name: 'Xtreme Esports',
  logoUrl: null,
  about: 'Weekly BGMI scrims and monthly cups.',
  whatsapp: 'https://wa.me/919876543210',
  instagram: null,
  youtube: 'https://youtube.com/@xtreme',
  discord: null,
  status: 'approved',
  isSite: false,
  tournaments: [
    { id: 7, name: 'Xtreme Monthly', game: 'BGMI', startDate: '2099-03-05T12:30:00.000Z', phase: 'registration-open' },
    { id: 3, name: 'Xtreme Opener', game: 'BGMI', startDate: '2026-01-05T12:30:00.000Z', phase: 'completed' },
  ],
  ...over,
});

beforeAll(async () => {
  stub = await startGatewayStub();
  await useStubEnv(stub);
  page = await import('~/routes/organisers.$slug');
  detail = await import('~/routes/tournaments.$tournamentId');
  layout = await import('~/routes/admin');
  manage = await import('~/routes/admin.manage-tournament');
  invitation = await import('~/routes/staff-invitations.$token');
});
afterAll(() => stub.close());

describe('the organiser page', () => {
  it('shows the name, about, contact links and tournaments in the gateway’s order (open first)', async () => {
    stub.answer((req, res) => (req.url === '/organisers/xtreme-esports' ? json(res, 200, organiser()) : json(res, 404, { message: 'x' })));
    const { status, body } = unwrap(await page.loader(args('http://localhost/organisers/xtreme-esports', { slug: 'xtreme-esports' })));
    expect(status).toBe(200);
    expect(body.links).toEqual([
      { label: 'WhatsApp', href: 'https://wa.me/919876543210' },
      { label: 'YouTube', href: 'https://youtube.com/@xtreme' },
    ]);
    expect(body.tournaments.map((t: { id: number }) => t.id)).toEqual([7, 3]);
    const html = await renderPage(page.default, body, 'http://localhost/organisers/xtreme-esports');
    expect(html).toContain('<h1>Xtreme Esports</h1>');
    expect(html).toContain('Weekly BGMI scrims and monthly cups.');
    expect(html).toMatch(/href="\/tournaments\/7"/);
    expect(html).toMatch(/<a href="https:\/\/wa\.me\/919876543210" rel="noopener noreferrer nofollow" target="_blank">WhatsApp/);
    expect(html).not.toContain('not public yet');
  });

  it('tells its owner the page waits for approval', async () => {
    stub.answer((_req, res) => json(res, 200, organiser({ status: 'pending', tournaments: [] })));
    const { body } = unwrap(await page.loader(args('http://localhost/organisers/xtreme-esports', { slug: 'xtreme-esports' })));
    const html = await renderPage(page.default, body);
    expect(html).toContain('not public yet');
    expect(html).toContain('No tournaments yet.');
  });

  it('answers 404 for an unknown or malformed address (the malformed one without asking the gateway)', async () => {
    stub.answer((_req, res) => json(res, 404, { message: 'No organiser has this page.' }));
    const missing = await thrown(() => page.loader(args('http://localhost/organisers/nobody-here', { slug: 'nobody-here' })));
    expect(unwrap(missing)).toEqual({ status: 404, body: { message: 'No organiser has this page.' } });
    const before = stub.seen.length;
    for (const slug of ['A', 'has space', '-x-', 'x'.repeat(41)]) {
      expect(unwrap(await thrown(() => page.loader(args('http://localhost/organisers/x', { slug }))))).toEqual({
        status: 404,
        body: { message: 'No organiser has this page.' },
      });
    }
    expect(stub.seen.length).toBe(before);
  });

  it('answers 503 with a retry when the gateway is down', async () => {
    const logs = captureLogs();
    stub.answer((_req, res) => res.socket?.destroy());
    const down = unwrap(await thrown(() => page.loader(args('http://localhost/organisers/xtreme-esports', { slug: 'xtreme-esports' }))));
    expect(down.status).toBe(503);
    expect(down.body.retry).toBe(true);
    expect(logs).toContainEqual(expect.objectContaining({ level: 'error', msg: 'gateway unreachable' }));
  });
});

describe('a tournament page', () => {
  const t = (over: Record<string, unknown> = {}) =>
    tournamentJson({ id: 7, name: 'Xtreme Monthly', startDate: '2099-03-05T12:30:00.000Z', endDate: '2099-03-06T12:30:00.000Z', ...over });

  it('says who organises it, linking to the organiser’s page', async () => {
    stub.answer((req, res) =>
      req.url.endsWith('/stages')
        ? json(res, 200, [])
        : json(res, 200, t({ organiser: { slug: 'xtreme-esports', name: 'Xtreme Esports', logoUrl: null } })),
    );
    const { body } = unwrap(await detail.loader(args('http://localhost/tournaments/7', { tournamentId: '7' })));
    expect(body.t.organiser).toEqual({ slug: 'xtreme-esports', name: 'Xtreme Esports' });
    const html = await renderPage(detail.default, body, 'http://localhost/tournaments/7');
    expect(html).toMatch(/Organised by <a [^>]*href="\/organisers\/xtreme-esports">Xtreme Esports<\/a>/);
  });

  it('leaves the line out for an answer without an organiser (an older gateway)', async () => {
    stub.answer((req, res) => (req.url.endsWith('/stages') ? json(res, 200, []) : json(res, 200, t())));
    const { body } = unwrap(await detail.loader(args('http://localhost/tournaments/7', { tournamentId: '7' })));
    expect(await renderPage(detail.default, body)).not.toContain('Organised by');
  });
});

describe('the organiser pages for an organiser or a crew member (not a site admin)', () => {
  const desk = (over: Record<string, unknown>) => ({ organiser: null, siteAdmin: false, tournaments: [], invitations: [], ...over });
  const approved = { ...organiser(), contact: 'x@y.example', ownerUsername: 'crew_one', tournaments: undefined };

  it('lets an approved organiser in, with "Add tournament", and lists only its own tournaments', async () => {
    const cookie = await playerCookie();
    stub.answer((req, res) => {
      if (req.url === '/desk')
        return json(res, 200, desk({ organiser: approved, tournaments: [{ id: 7, name: 'Xtreme Monthly', kind: 'owner' }] }));
      if (req.url === '/tournaments')
        return json(res, 200, [tournamentJson({ id: 7, name: 'Xtreme Monthly' }), tournamentJson({ id: 8, name: 'Someone Else Cup' })]);
      return json(res, 404, { message: 'x' });
    });
    expect(await layout.loader(signedIn('http://localhost/admin/manage-tournament', cookie))).toEqual({ organises: true });
    const list = unwrap(await manage.loader(signedIn('http://localhost/admin/manage-tournament', cookie)));
    expect(list.body.tournaments.map((t: { id: number }) => t.id)).toEqual([7]);
  });

  it('lets a crew member in without "Add tournament"; refuses a player with no desk', async () => {
    const cookie = await playerCookie();
    stub.answer((_req, res) => json(res, 200, desk({ tournaments: [{ id: 7, name: 'Xtreme Monthly', kind: 'payments' }] })));
    expect(await layout.loader(signedIn('http://localhost/admin', cookie))).toEqual({ organises: false });
    stub.answer((_req, res) => json(res, 200, desk({})));
    const refused = (await thrown(() => layout.loader(signedIn('http://localhost/admin', cookie)))) as Response;
    expect(refused.status).toBe(302);
    expect(refused.headers.get('location')).toBe('/login?redirectTo=%2Fadmin');
  });
});

describe('a staff invitation’s page', () => {
  const TOKEN = 'a'.repeat(32);
  const url = `http://localhost/staff-invitations/${TOKEN}`;
  const post = (cookie: string) => ({
    request: new Request(url, { method: 'POST', headers: { cookie } }),
    params: { token: TOKEN },
    context: {},
  });

  it('names the tournament and the role, and accepting leads to the tournament’s organiser page with a message', async () => {
    const cookie = await playerCookie();
    stub.answer((req, res) => {
      if (req.url === '/desk') {
        return json(res, 200, {
          organiser: null,
          siteAdmin: false,
          tournaments: [],
          invitations: [{ tournamentId: 7, tournamentName: 'Xtreme Monthly', role: 'payments', token: TOKEN }],
        });
      }
      if (req.method === 'POST' && req.url === `/staff-invitations/${TOKEN}/accept`) {
        return json(res, 200, { tournamentId: 7, tournamentName: 'Xtreme Monthly', role: 'payments' });
      }
      return json(res, 404, { message: 'x' });
    });
    const page = await invitation.loader(signedIn(url, cookie, { token: TOKEN }));
    expect(page).toEqual({ username: 'crew_one', tournamentId: 7, tournamentName: 'Xtreme Monthly', role: 'Payments' });
    const html = await renderPage(invitation.default, page, url);
    expect(html).toContain('Join the crew of Xtreme Monthly');
    expect(html).toMatch(/<form method="post"/);
    const done = (await invitation.action(post(cookie))) as Response;
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/admin/7');
  });

  it('tells another account, or a withdrawn invitation, that it is not open', async () => {
    const cookie = await playerCookie();
    stub.answer((req, res) =>
      req.url === '/desk'
        ? json(res, 200, { organiser: null, siteAdmin: false, tournaments: [], invitations: [] })
        : json(res, 403, { message: 'This invitation is for another account: log in as the invited account.' }),
    );
    const gone = unwrap(await thrown(() => invitation.loader(signedIn(url, cookie, { token: TOKEN }))));
    expect(gone).toEqual({ status: 404, body: { message: invitation.INVITATION_GONE } });
    const refused = unwrap(await invitation.action(post(cookie)));
    expect(refused.status).toBe(403);
    expect(refused.body.formError).toMatch(/another account/);
  });
});
