// Issue 29 (decision 065): an organiser's public page, and "Organised by" on a tournament's page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tournamentJson } from '../support';
import { pngImage } from '../support/images';
import { captureLogs } from '../support/logs';
import { renderPage } from '../support/render';
import { besidesDesk, cookieOf, json, startGatewayStub, thrown, unwrap, useStubEnv, type GatewayStub } from './support/gateway-stub';

let stub: GatewayStub;
let page: typeof import('~/routes/organisers.$slug');
let detail: typeof import('~/routes/tournaments.$tournamentId');
let layout: typeof import('~/routes/admin');
let manage: typeof import('~/routes/admin.manage-tournament');
let invitation: typeof import('~/routes/staff-invitations.$token');
let hub: typeof import('~/routes/admin.$tournamentId._index');

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
  hub = await import('~/routes/admin.$tournamentId._index');
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
      req.url.endsWith('/stages') || req.url.endsWith('/announcements')
        ? json(res, 200, [])
        : json(res, 200, t({ organiser: { slug: 'xtreme-esports', name: 'Xtreme Esports', logoUrl: null } })),
    );
    const { body } = unwrap(await detail.loader(args('http://localhost/tournaments/7', { tournamentId: '7' })));
    expect(body.t.organiser).toEqual({ slug: 'xtreme-esports', name: 'Xtreme Esports', logoUrl: null });
    const html = await renderPage(detail.default, body, 'http://localhost/tournaments/7');
    expect(html).toMatch(/Organised by <a [^>]*href="\/organisers\/xtreme-esports">Xtreme Esports<\/a>/);
    expect(html).not.toContain('org-by-logo');
  });

  it('shows the organiser’s logo beside "Organised by": small, lazy, its size set, alt="" (the name is the text)', async () => {
    const logoUrl = '/images/3336d05948b5e4a4d5c3b8777a005fb3-128.webp';
    stub.answer((req, res) =>
      req.url.endsWith('/stages') || req.url.endsWith('/announcements')
        ? json(res, 200, [])
        : json(res, 200, t({ organiser: { slug: 'xtreme-esports', name: 'Xtreme Esports', logoUrl } })),
    );
    const { body } = unwrap(await detail.loader(args('http://localhost/tournaments/7', { tournamentId: '7' })));
    const html = await renderPage(detail.default, body, 'http://localhost/tournaments/7');
    expect(html).toMatch(
      new RegExp(
        `<p class="td-org org-by"><img class="org-by-logo" src="${logoUrl}" alt="" width="32" height="32" loading="lazy" decoding="async"/><span>Organised by <a [^>]*href="/organisers/xtreme-esports">Xtreme Esports</a></span></p>`,
      ),
    );
    // A logo URL that is neither ours nor https is not shown; the name still is.
    stub.answer((req, res) =>
      req.url.endsWith('/stages') || req.url.endsWith('/announcements')
        ? json(res, 200, [])
        : json(res, 200, t({ organiser: { slug: 'xtreme-esports', name: 'Xtreme Esports', logoUrl: 'javascript:alert(1)' } })),
    );
    const unsafe = unwrap(await detail.loader(args('http://localhost/tournaments/7', { tournamentId: '7' }))).body;
    expect(unsafe.t.organiser.logoUrl).toBeNull();
  });

  it('leaves the line out for an answer without an organiser (an older gateway)', async () => {
    stub.answer((req, res) =>
      req.url.endsWith('/stages') || req.url.endsWith('/announcements') ? json(res, 200, []) : json(res, 200, t()),
    );
    const { body } = unwrap(await detail.loader(args('http://localhost/tournaments/7', { tournamentId: '7' })));
    expect(await renderPage(detail.default, body)).not.toContain('Organised by');
  });
});

describe('"Organised by" on the tournament cards and the home slides (decision 068)', () => {
  const logoUrl = '/images/3336d05948b5e4a4d5c3b8777a005fb3-128.webp';
  const listed = [
    tournamentJson({ id: 7, name: 'Xtreme Monthly', organiser: { slug: 'xtreme-esports', name: 'Xtreme Esports', logoUrl } }),
    tournamentJson({ id: 8, name: 'Plain Cup', organiser: { slug: 'plain', name: 'Plain Org', logoUrl: null } }),
    tournamentJson({ id: 9, name: 'Old Gateway Cup' }),
  ];

  it('each card names its organiser, with the logo when it has one; a card without an organiser has no line', async () => {
    const cards = await import('~/routes/tournaments._index');
    stub.answer((_req, res) => json(res, 200, listed));
    const { body } = unwrap(await cards.loader(args('http://localhost/tournaments')));
    const html = await renderPage(cards.default, body, 'http://localhost/tournaments');
    const card = (name: string) =>
      html.slice(html.indexOf(`<h2>${name}</h2>`), html.indexOf('</article>', html.indexOf(`<h2>${name}</h2>`)));
    expect(card('Xtreme Monthly')).toContain(
      `<p class="org-by"><img class="org-by-logo" src="${logoUrl}" alt="" width="24" height="24" loading="lazy" decoding="async"/><span>Organised by Xtreme Esports</span></p>`,
    );
    expect(card('Plain Cup')).toContain('<p class="org-by"><span>Organised by Plain Org</span></p>');
    expect(card('Old Gateway Cup')).not.toContain('Organised by');
  });

  it('each home slide names its organiser too', async () => {
    const home = await import('~/routes/_index');
    stub.answer((_req, res) => json(res, 200, listed));
    const { body } = unwrap(await home.loader(args('http://localhost/')));
    expect(body.tournaments.map((x: { organiser: unknown }) => x.organiser)).toEqual([
      { slug: 'xtreme-esports', name: 'Xtreme Esports', logoUrl },
      { slug: 'plain', name: 'Plain Org', logoUrl: null },
      null,
    ]);
    const html = await renderPage(home.default, body, 'http://localhost/');
    expect(html).toContain('<span>Organised by Xtreme Esports</span>');
    expect(html).toContain('<span>Organised by Plain Org</span>');
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
    expect(await layout.loader(signedIn('http://localhost/admin/manage-tournament', cookie))).toEqual({
      organises: true,
      siteAdmin: false,
      payments: true,
    });
    const list = unwrap(await manage.loader(signedIn('http://localhost/admin/manage-tournament', cookie)));
    expect(list.body.tournaments.map((t: { id: number }) => t.id)).toEqual([7]);
  });

  it('lets a crew member in without "Add tournament"; refuses a player with no desk', async () => {
    const cookie = await playerCookie();
    stub.answer((_req, res) => json(res, 200, desk({ tournaments: [{ id: 7, name: 'Xtreme Monthly', kind: 'payments' }] })));
    expect(await layout.loader(signedIn('http://localhost/admin', cookie))).toEqual({ organises: false, siteAdmin: false, payments: true });
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

describe('a tournament’s hub for a crew member', () => {
  const summary = {
    id: 7,
    name: 'Xtreme Monthly',
    game: 'BGMI',
    status: 'Registration Ongoing',
    startDate: '2099-03-05T12:30:00.000Z',
    endDate: '2099-03-06T12:30:00.000Z',
    registrationClose: '2099-03-04T12:30:00.000Z',
    maxTeams: 16,
    entryFee: 150,
    pointsSystem: 'bgis-10',
    registeredTeams: 5,
    waitlisted: 0,
    paymentsAwaiting: 2,
    payments: { pending: 0, submitted: 2, verified: 3, rejected: 0 },
  };
  const answers = (kind: string) =>
    stub.answer((req, res) => {
      if (req.url === '/desk')
        return json(res, 200, {
          organiser: null,
          siteAdmin: false,
          tournaments: [{ id: 7, name: 'Xtreme Monthly', kind }],
          invitations: [],
        });
      if (req.url === '/tournaments/7/staff/me') return json(res, 200, { kind, scopes: [] });
      if (req.url === '/tournaments/admin/summary') return json(res, 200, [summary]);
      if (req.url === '/tournaments/7')
        return json(res, 200, tournamentJson({ id: 7, name: 'Xtreme Monthly', startDate: summary.startDate, endDate: summary.endDate }));
      return json(res, 404, { message: 'x' });
    });

  it('shows a payments person the registrations and the payments to verify, not the organiser’s other tools', async () => {
    answers('payments');
    const cookie = await playerCookie();
    const loaded = (await hub.loader(signedIn('http://localhost/admin/7', cookie, { tournamentId: '7' }))) as any;
    expect(loaded.may).toEqual({ run: false, payments: true, announce: false, groups: false });
    const html = await renderPage(hub.default, loaded);
    expect(html).toContain('href="/admin/7/registrations?payment=submitted"');
    expect(html).toContain('href="/admin/7/registrations"');
    for (const gone of [
      '/admin/7/stages',
      '/admin/7/matches',
      '/admin/add-points/7',
      '/admin/update-tournament/7',
      '/admin/7/notifications',
    ]) {
      expect(html).not.toContain(`href="${gone}"`);
    }
  });

  it('shows a co-organiser every tool', async () => {
    answers('co-organiser');
    const loaded = (await hub.loader(signedIn('http://localhost/admin/7', await playerCookie(), { tournamentId: '7' }))) as any;
    expect(loaded.may).toEqual({ run: true, payments: true, announce: true, groups: false });
    const html = await renderPage(hub.default, loaded);
    for (const link of ['/admin/7/stages', '/admin/7/matches', '/admin/add-points/7', '/admin/update-tournament/7'])
      expect(html).toContain(`href="${link}"`);
  });
});

describe('the crew page', () => {
  let crew: typeof import('~/routes/admin.$tournamentId.staff');
  beforeAll(async () => {
    crew = await import('~/routes/admin.$tournamentId.staff');
  });
  const url = 'http://localhost/admin/7/staff';
  const post = (cookie: string, fields: [string, string][]) => ({
    request: new Request(url, {
      method: 'POST',
      body: new URLSearchParams(fields),
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    }),
    params: { tournamentId: '7' },
    context: {},
  });
  const deskOf = (kind: string) => ({
    organiser: null,
    siteAdmin: false,
    tournaments: [{ id: 7, name: 'Xtreme Monthly', kind }],
    invitations: [],
  });

  it('lists the crew with roles and scopes; the owner invites a lobby manager for one group and removes a member', async () => {
    const cookie = await playerCookie();
    stub.answer((req, res) => {
      if (req.url === '/desk') return json(res, 200, deskOf('owner'));
      if (req.url === '/tournaments/7/staff/me') return json(res, 200, { kind: 'owner', scopes: [] });
      if (req.url === '/tournaments/7') return json(res, 200, tournamentJson({ id: 7, name: 'Xtreme Monthly' }));
      if (req.url === '/tournaments/7/stages') {
        return json(res, 200, [
          {
            id: 3,
            tid: 7,
            name: 'Qualifiers',
            order: 1,
            lobbySize: 4,
            firstSlot: 1,
            advancePerGroup: 1,
            advanceBest: 0,
            state: 'draft',
            draw: null,
            entrants: 4,
            hasResults: false,
            groupGap: 0,
            groupMatches: { scheduled: 0, withResults: 0, notPlayed: 0 },
            groups: [{ id: 31, name: 'A', slots: [] }],
          },
        ]);
      }
      if (req.method === 'GET' && req.url === '/tournaments/7/staff') {
        return json(res, 200, {
          owner: { organiser: { slug: 'xtreme-esports', name: 'Xtreme Esports', logoUrl: null }, username: 'crew_one' },
          staff: [
            {
              userId: 9,
              username: 'lobby_lee',
              role: 'lobby',
              status: 'active',
              scopes: [{ stageId: 3, stageName: 'Qualifiers', groupId: 31, groupName: 'A' }],
              invitedAt: '2026-11-28T05:00:00.000Z',
              acceptedAt: '2026-11-28T06:00:00.000Z',
            },
          ],
        });
      }
      if (req.method === 'POST' && req.url === '/tournaments/7/staff')
        return json(res, 201, { tournamentId: 7, tournamentName: 'Xtreme Monthly', role: 'lobby', token: 'b'.repeat(32) });
      if (req.method === 'DELETE' && req.url === '/tournaments/7/staff/9') return json(res, 200, { message: 'Removed from the crew.' });
      return json(res, 404, { message: 'x' });
    });
    const loaded = (await crew.loader(signedIn(url, cookie, { tournamentId: '7' }))) as any;
    expect(loaded.manages).toBe(true);
    expect(loaded.staff).toEqual([
      expect.objectContaining({ username: 'lobby_lee', role: 'Lobby manager', scope: 'Qualifiers · Group A', invited: false }),
    ]);
    expect(loaded.scopes).toEqual([
      { value: '3', label: 'Qualifiers: every group' },
      { value: '3:31', label: 'Qualifiers · Group A' },
    ]);
    const html = await renderPage(crew.default, loaded, url);
    expect(html).toContain('<label for="who">Username or email</label>');
    expect(html).toMatch(/<input type="checkbox" name="scope" value="3:31"\/> Qualifiers · Group A/);

    const invited = (await crew.action(
      post(cookie, [
        ['intent', 'invite'],
        ['who', 'lee@example.com'],
        ['role', 'lobby'],
        ['scope', '3:31'],
      ]),
    )) as Response;
    expect(invited.status).toBe(302);
    expect(stub.seen.at(-1)).toMatchObject({
      method: 'POST',
      url: '/tournaments/7/staff',
      body: { who: 'lee@example.com', role: 'lobby', scopes: [{ stageId: 3, groupId: 31 }] },
    });

    const removed = (await crew.action(
      post(cookie, [
        ['intent', 'remove'],
        ['userId', '9'],
      ]),
    )) as Response;
    expect(removed.status).toBe(302);
    expect(stub.seen.at(-1)).toMatchObject({ method: 'DELETE', url: '/tournaments/7/staff/9' });
  });

  it('keeps a lobby manager without groups in the form, with the message beside the choices, without calling the gateway', async () => {
    const cookie = await playerCookie();
    stub.answer((_req, res) => json(res, 200, deskOf('owner')));
    const before = stub.seen.length;
    const result = unwrap(
      await crew.action(
        post(cookie, [
          ['intent', 'invite'],
          ['who', 'lee'],
          ['role', 'lobby'],
        ]),
      ),
    );
    expect(result.status).toBe(400);
    expect(result.body.fieldErrors.scopes).toMatch(/stages or groups/);
    expect(result.body.values.who).toBe('lee');
    expect(besidesDesk(stub.seen.slice(before))).toEqual([]);
  });
});

describe('the organiser’s edit page (decision 068)', () => {
  let edit: typeof import('~/routes/admin.organiser');
  beforeAll(async () => {
    edit = await import('~/routes/admin.organiser');
  });
  const url = 'http://localhost/admin/organiser';
  const LOGO = '/images/3336d05948b5e4a4d5c3b8777a005fb3-128.webp';
  const mine = (over: Record<string, unknown> = {}) =>
    organiser({ contact: '+91 98765 43210', ownerUsername: 'crew_one', logoUrl: LOGO, instagram: 'https://instagram.com/xtreme', ...over });
  const deskWith = (o: unknown) => ({ organiser: o, siteAdmin: false, tournaments: [], invitations: [] });
  /** The stub as the gateway: the desk, the page, and the PUT answered by `put`. */
  const gatewayWith = (put: (req: { body: unknown }) => [number, unknown] = () => [200, { ...mine(), tournaments: undefined }]) =>
    stub.answer((req, res) => {
      if (req.url === '/desk') return json(res, 200, deskWith({ ...mine(), tournaments: undefined }));
      if (req.method === 'GET' && req.url === '/organisers/xtreme-esports') return json(res, 200, mine());
      if (req.method === 'PUT' && req.url === '/organisers/xtreme-esports') return json(res, ...put(req));
      return json(res, 404, { message: `no stub for ${req.method} ${req.url}` });
    });
  const textFields = (over: Record<string, string> = {}) => ({
    name: 'Xtreme Esports',
    about: 'Weekly BGMI scrims.',
    contact: '+91 98765 43210',
    whatsapp: '',
    instagram: 'https://instagram.com/xtreme',
    youtube: '',
    discord: 'https://discord.gg/xtreme',
    ...over,
  });
  /** The multipart post a browser sends, JavaScript or not. */
  async function post(cookie: string, fields: Record<string, string>, file?: { data: Buffer; name: string; type: string }, at = url) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('logo', file ? new Blob([new Uint8Array(file.data)], { type: file.type }) : new Blob([]), file?.name ?? '');
    const request = new Request(at, { method: 'POST', body: form, headers: { cookie, origin: 'http://localhost' } });
    return edit.action({ request, params: {}, context: {} });
  }

  it('shows the owner every field with its label, the current logo and a way to remove it; the layout links to it', async () => {
    const cookie = await playerCookie();
    gatewayWith();
    const loaded = (await edit.loader(signedIn(url, cookie))) as any;
    expect(loaded).toMatchObject({ slug: 'xtreme-esports', action: '/admin/organiser', approved: true, logoUrl: LOGO });
    expect(loaded.values).toMatchObject({
      name: 'Xtreme Esports',
      contact: '+91 98765 43210',
      instagram: 'https://instagram.com/xtreme',
      discord: '',
    });
    const html = await renderPage(edit.default, loaded, url);
    for (const [id, label] of [
      ['name', 'Organisation name'],
      ['about', 'About (optional)'],
      ['contact', 'Contact'],
      ['whatsapp', 'WhatsApp link'],
      ['instagram', 'Instagram link'],
      ['youtube', 'YouTube link'],
      ['discord', 'Discord invite'],
      ['logo', 'New logo (optional)'],
    ])
      expect(html).toContain(`<label for="${id}">${label}</label>`);
    expect(html).toMatch(/<form method="post" action="\/admin\/organiser" encType="multipart\/form-data"/);
    expect(html).toContain(`<img src="${LOGO}" alt="Current logo" width="64" height="64"/>`);
    expect(html).toMatch(/<input type="checkbox" id="removeLogo" name="removeLogo" value="on"\/> Remove the current logo/);
    expect(html).toContain('value="https://instagram.com/xtreme"');
    const nav = await renderPage(layout.default, { organises: true }, 'http://localhost/admin');
    expect(nav).toMatch(/<a [^>]*href="\/admin\/organiser"[^>]*>Your organiser page<\/a>/);
    expect(await renderPage(layout.default, { organises: false }, 'http://localhost/admin')).not.toContain('Your organiser page');
  });

  it('sends the fields and the chosen logo to the gateway in one multipart PUT, then shows the public page with a message', async () => {
    const cookie = await playerCookie();
    gatewayWith();
    const png = await pngImage(300, 300);
    const res = (await post(cookie, textFields({ about: 'Line one\r\nline two' }), {
      data: png,
      name: 'logo.png',
      type: 'image/png',
    })) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/organisers/xtreme-esports');
    const session = await import('~/utils/session.server');
    expect((await session.readFlash(new Request('http://localhost/', { headers: { cookie: cookieOf(res) } }))).message).toBe(
      'Your organiser page is saved.',
    );
    const put = stub.seen.at(-1)!;
    expect(put).toMatchObject({ method: 'PUT', url: '/organisers/xtreme-esports' });
    expect(put.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const body = String(put.body);
    expect(body).toMatch(/name="logo"; filename="logo\.png"\r\nContent-Type: image\/png/);
    expect(body).toContain('name="about"\r\n\r\nLine one line two\r\n');
    expect(body).toContain('name="discord"\r\n\r\nhttps://discord.gg/xtreme\r\n');
    expect(body).not.toContain('name="removeLogo"');
    // Removing: the flag goes along, no file.
    await post(cookie, { ...textFields(), removeLogo: 'on' });
    const removing = String(stub.seen.at(-1)!.body);
    expect(removing).toContain('name="removeLogo"\r\n\r\non\r\n');
    expect(removing).not.toContain('name="logo"');
  });

  it('keeps what was typed and ties each message to its field, without calling the gateway', async () => {
    const cookie = await playerCookie();
    gatewayWith();
    const before = stub.seen.length;
    const typed = textFields({ name: '', youtube: 'https://evil.example/watch', about: 'Still here' });
    const failed = unwrap(
      await post(cookie, typed, { data: Buffer.from('not a picture at all, only words'), name: 'notes.txt', type: 'text/plain' }),
    );
    expect(failed.status).toBe(415);
    expect(failed.body.fieldErrors).toMatchObject({
      name: expect.stringMatching(/Organisation name/),
      youtube: 'YouTube link must be an https link to youtube.com.',
      logo: 'Please upload only image files.',
    });
    expect(failed.body.values).toMatchObject({ about: 'Still here', youtube: 'https://evil.example/watch', logoName: 'notes.txt' });
    expect(besidesDesk(stub.seen.slice(before))).toEqual([]);
    const html = await renderPage(edit.default, (await edit.loader(signedIn(url, cookie))) as object, url, failed.body);
    expect(html).toMatch(
      /<input name="youtube" type="url" [^>]*aria-invalid="true" aria-describedby="youtube-error youtube-hint" value="https:\/\/evil\.example\/watch"\/>/,
    );
    expect(html).toContain(
      '<p class="field-error" id="youtube-error"><span aria-hidden="true">⚠ </span>YouTube link must be an https link to youtube.com.</p>',
    );
    expect(html).toMatch(
      /<input type="file" name="logo" accept="image\/\*" id="logo" aria-invalid="true" aria-describedby="logo-error logo-hint"/,
    );
    expect(html).toContain('You had chosen <strong>notes.txt</strong>');
    expect(html).toContain('Your organiser page was not saved');
  });

  it('shows the gateway’s refusal of the logo beside it, and a form-level message when the gateway is down', async () => {
    const cookie = await playerCookie();
    const logs = captureLogs();
    const tooSmall = 'The logo is too small: at least 200×100 pixels.';
    gatewayWith(() => [400, { message: tooSmall, errors: { logo: tooSmall } }]);
    const refused = unwrap(await post(cookie, textFields(), { data: await pngImage(300, 300), name: 'l.png', type: 'image/png' }));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ fieldErrors: { logo: tooSmall }, formError: null, values: { name: 'Xtreme Esports' } });
    stub.answer((req, res) =>
      req.url === '/desk' ? json(res, 200, deskWith({ ...mine(), tournaments: undefined })) : res.socket?.destroy(),
    );
    const down = unwrap(await post(cookie, textFields()));
    expect(down.status).toBe(503);
    expect(down.body.values.name).toBe('Xtreme Esports');
    expect(down.body.formError).toBe('We could not reach the server. Your details are kept — please try again.');
    expect(logs).toContainEqual(expect.objectContaining({ level: 'error', msg: 'gateway unreachable' }));
  });

  it('answers 503 when the gateway is down, and 404 to a crew member who has no organiser of its own', async () => {
    const cookie = await playerCookie();
    const logs = captureLogs();
    stub.answer((_req, res) => res.socket?.destroy());
    const down = unwrap(await thrown(() => edit.loader(signedIn(url, cookie))));
    expect(down.status).toBe(503);
    expect(down.body.retry).toBe(true);
    expect(logs).toContainEqual(expect.objectContaining({ level: 'error', msg: 'gateway unreachable' }));
    stub.answer((_req, res) => json(res, 200, { ...deskWith(null), tournaments: [{ id: 7, name: 'Xtreme Monthly', kind: 'payments' }] }));
    expect(unwrap(await thrown(() => edit.loader(signedIn(url, cookie)))).status).toBe(404);
    // A pending organiser's owner (with a crew place elsewhere) has nothing to edit here yet.
    stub.answer((_req, res) =>
      json(res, 200, {
        ...deskWith({ ...mine({ status: 'pending' }), tournaments: undefined }),
        tournaments: [{ id: 7, name: 'X', kind: 'lobby' }],
      }),
    );
    expect(unwrap(await thrown(() => edit.loader(signedIn(url, cookie)))).status).toBe(404);
  });

  it('lets a site admin edit any organiser named by ?slug=, and keeps the choice in the form', async () => {
    const token = await stub.token({ username: 'boss', roles: ['ROLE_USER', 'ROLE_ADMIN'] });
    const session = await import('~/utils/session.server');
    const cookie = cookieOf(await session.createUserSession(new Request('http://localhost/login'), token, 'boss', '/'));
    gatewayWith();
    const at = `${url}?slug=xtreme-esports`;
    const loaded = (await edit.loader(signedIn(at, cookie))) as any;
    expect(loaded.action).toBe('/admin/organiser?slug=xtreme-esports');
    expect(besidesDesk(stub.seen.slice(-1))).toEqual([expect.objectContaining({ method: 'GET', url: '/organisers/xtreme-esports' })]);
    const res = (await post(cookie, textFields(), undefined, at)) as Response;
    expect(res.status).toBe(302);
    expect(stub.seen.at(-1)).toMatchObject({ method: 'PUT', url: '/organisers/xtreme-esports' });
    expect(unwrap(await thrown(() => edit.loader(signedIn(`${url}?slug=..%2Fx`, cookie)))).status).toBe(404);
  });
});
