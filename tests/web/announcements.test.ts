// Issue 29 (decision 065, 070): applying to organise, the site admin's organisers list, the crew's
// announcements and where the pages list them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tournamentJson } from '../support';
import { captureLogs } from '../support/logs';
import { renderPage } from '../support/render';
import {
  besidesDesk,
  cookieOf,
  EMPTY_DESK,
  json,
  startGatewayStub,
  thrown,
  unwrap,
  useStubEnv,
  type GatewayStub,
} from './support/gateway-stub';

let stub: GatewayStub;
let apply: typeof import('~/routes/organisers.apply');
let organisers: typeof import('~/routes/admin.organisers');
let announce: typeof import('~/routes/admin.$tournamentId.announcements');
let detail: typeof import('~/routes/tournaments.$tournamentId');
let group: typeof import('~/routes/tournaments.$tournamentId_.stages_.$stageId.groups.$groupId');

async function cookieFor(roles: string[]) {
  const session = await import('~/utils/session.server');
  const username = roles.includes('ROLE_ADMIN') ? 'site_admin' : 'crew_one';
  const token = await stub.token({ username, roles });
  return cookieOf(await session.createUserSession(new Request('http://localhost/login'), token, username, '/'));
}
const playerCookie = () => cookieFor(['ROLE_USER']);
const adminCookie = () => cookieFor(['ROLE_USER', 'ROLE_ADMIN']);
const get = (url: string, cookie: string, params: Record<string, string> = {}) => ({
  request: new Request(url, { headers: { cookie } }),
  params,
  context: {},
});
const post = (url: string, cookie: string, fields: Record<string, string>, params: Record<string, string> = {}) => ({
  request: new Request(url, {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
  }),
  params,
  context: {},
});

const organiser = (over: Record<string, unknown> = {}) => ({
  id: 2,
  slug: 'xtreme-esports',
  name: 'Xtreme Esports',
  logoUrl: null,
  about: '',
  whatsapp: null,
  instagram: null,
  youtube: null,
  discord: null,
  status: 'pending',
  isSite: false,
  contact: '9876543210',
  ownerUsername: 'crew_one',
  ...over,
});

const stage = {
  id: 3,
  tid: 7,
  name: 'Qualifiers',
  order: 1,
  lobbySize: 4,
  firstSlot: 1,
  advancePerGroup: 1,
  advanceBest: 0,
  state: 'published',
  draw: null,
  entrants: 8,
  hasResults: false,
  groupGap: 0,
  groupMatches: { scheduled: 2, withResults: 0, notPlayed: 0 },
  groups: [
    { id: 31, name: 'A', slots: [{ slot: 1, teamId: 1, teamName: 'Alpha' }] },
    { id: 32, name: 'B', slots: [{ slot: 1, teamId: 2, teamName: 'Bravo' }] },
  ],
};
const ann = (id: number, body: string, stageId: number | null, groupId: number | null, audience: string) => ({
  id,
  body,
  at: '2026-11-28T10:00:00.000Z',
  author: 'crew_one',
  stageId,
  groupId,
  audience,
});
const POSTED = [
  ann(3, 'Group B delayed 15 minutes', 3, 32, 'Qualifiers · Group B'),
  ann(2, 'Qualifiers start with Erangel', 3, null, 'Qualifiers'),
  ann(1, 'Welcome, check your slots', null, null, 'Everyone'),
];

beforeAll(async () => {
  stub = await startGatewayStub();
  await useStubEnv(stub);
  apply = await import('~/routes/organisers.apply');
  organisers = await import('~/routes/admin.organisers');
  announce = await import('~/routes/admin.$tournamentId.announcements');
  detail = await import('~/routes/tournaments.$tournamentId');
  group = await import('~/routes/tournaments.$tournamentId_.stages_.$stageId.groups.$groupId');
});
afterAll(() => stub.close());

describe('applying to organise', () => {
  const url = 'http://localhost/organisers/apply';

  it('shows a signed-in player the form, every field labelled', async () => {
    stub.answer((_req, res) => json(res, 200, EMPTY_DESK));
    const loaded = await apply.loader(get(url, await playerCookie()));
    expect(loaded).toEqual({ siteAdmin: false, mine: null });
    const html = await renderPage(apply.default, loaded, url);
    for (const [name, label] of [
      ['name', 'Organisation name'],
      ['slug', 'Page address (optional)'],
      ['contact', 'Contact'],
      ['about', 'About (optional)'],
      ['discord', 'Discord invite'],
    ])
      expect(html).toContain(`<label for="${name}">${label}</label>`);
    expect(html).toMatch(/<form method="post"/);
  });

  it('sends the application and leads to the (pending) page with a message', async () => {
    stub.answer((req, res) =>
      req.method === 'POST' && req.url === '/organisers' ? json(res, 201, organiser()) : json(res, 200, EMPTY_DESK),
    );
    const res = (await apply.action(
      post(url, await playerCookie(), { name: 'Xtreme Esports', contact: '9876543210', instagram: '', about: 'Weekly cups.' }),
    )) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/organisers/xtreme-esports');
    expect(stub.seen.at(-1)).toMatchObject({
      method: 'POST',
      url: '/organisers',
      body: { name: 'Xtreme Esports', contact: '9876543210', about: 'Weekly cups.' },
    });
    expect(stub.seen.at(-1)!.body).not.toHaveProperty('owner');
  });

  it('keeps what was typed and ties each problem to its field, without calling the gateway for bad input', async () => {
    stub.answer((_req, res) => json(res, 500, { message: 'must not be called' }));
    const before = stub.seen.length;
    const bad = unwrap(
      await apply.action(
        post(url, await playerCookie(), { name: 'Xtreme', contact: '', youtube: 'https://evil.example/x', slug: 'apply' }),
      ),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors).toMatchObject({
      contact: expect.stringMatching(/required/),
      youtube: expect.stringMatching(/youtube\.com/),
      slug: expect.stringMatching(/taken/),
    });
    expect(bad.body.values.name).toBe('Xtreme');
    expect(besidesDesk(stub.seen.slice(before))).toEqual([]);
    const html = await renderPage(apply.default, { siteAdmin: false, mine: null }, url, bad.body);
    expect(html).toMatch(/<input name="contact"[^>]*aria-invalid="true" aria-describedby="contact-error contact-hint"/);
    expect(html).toContain('value="Xtreme"');
  });

  it('puts the gateway’s "address taken" beside the address field', async () => {
    stub.answer((_req, res) =>
      json(res, 409, { message: 'This page address is taken.', errors: { slug: 'This page address is taken: choose another.' } }),
    );
    const taken = unwrap(await apply.action(post(url, await playerCookie(), { name: 'Xtreme', contact: '9876543210', slug: 'xtreme' })));
    expect(taken.status).toBe(409);
    expect(taken.body.fieldErrors.slug).toMatch(/taken/);
  });

  it('tells an account that already applied where it stands instead of a second form', async () => {
    stub.answer((_req, res) => json(res, 200, { ...EMPTY_DESK, organiser: organiser() }));
    const loaded = await apply.loader(get(url, await playerCookie()));
    const html = await renderPage(apply.default, loaded, url);
    expect(html).toContain('waiting for a site admin');
    expect(html).toContain('href="/organisers/xtreme-esports"');
    expect(html).not.toMatch(/<form/);
  });

  it('sends an anonymous visitor to log in first', async () => {
    const res = (await thrown(() => apply.loader({ request: new Request(url), params: {}, context: {} }))) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login?redirectTo=%2Forganisers%2Fapply');
  });
});

describe('a pending organiser’s page', () => {
  it('is asked for with the owner’s token when signed in (the gateway shows a pending page to its owner only), without one when not', async () => {
    stub.answer((_req, res) => json(res, 200, { ...organiser(), tournaments: [] }));
    const pageRoute = await import('~/routes/organisers.$slug');
    const url = 'http://localhost/organisers/xtreme-esports';
    await pageRoute.loader(get(url, await playerCookie(), { slug: 'xtreme-esports' }));
    expect(stub.seen.at(-1)!.headers.authorization).toMatch(/^Bearer /);
    await pageRoute.loader({ request: new Request(url), params: { slug: 'xtreme-esports' }, context: {} });
    expect(stub.seen.at(-1)!.headers.authorization).toBeUndefined();
  });
});

describe('the site admin’s organisers', () => {
  const url = 'http://localhost/admin/organisers';

  it('lists applications with Approve and Decline, approved ones with Withdraw (not the Site organiser)', async () => {
    stub.answer((req, res) => {
      const status = new URL(req.url, 'http://x').searchParams.get('status');
      if (status === 'pending') return json(res, 200, [organiser()]);
      if (status === 'approved')
        return json(res, 200, [organiser({ id: 1, slug: 'site', name: 'Custom Room', isSite: true, status: 'approved' })]);
      return json(res, 200, []);
    });
    const loaded = await organisers.loader(get(url, await adminCookie()));
    expect(loaded.pending.map((o) => o.slug)).toEqual(['xtreme-esports']);
    const html = await renderPage(organisers.default, loaded, url);
    expect(html).toMatch(/Approve<span class="visually-hidden"> Xtreme Esports<\/span>/);
    expect(html).toMatch(/Decline<span class="visually-hidden"> Xtreme Esports<\/span>/);
    expect(html).not.toMatch(/Withdraw<span class="visually-hidden"> Custom Room/);
    expect(html).toContain('contact 9876543210');
  });

  it('approves with one form post and comes back with a message', async () => {
    stub.answer((_req, res) => json(res, 200, organiser({ status: 'approved' })));
    const res = (await organisers.action(post(url, await adminCookie(), { slug: 'xtreme-esports', decision: 'approve' }))) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/admin/organisers');
    expect(stub.seen.at(-1)).toMatchObject({ method: 'POST', url: '/organisers/xtreme-esports/approve', body: { decision: 'approve' } });
  });

  it('makes an account an organiser at once, the gateway’s "no such account" beside the field', async () => {
    stub.answer((_req, res) =>
      json(res, 400, { message: 'No account has this username or email.', errors: { owner: 'No account has this username or email.' } }),
    );
    const refused = unwrap(
      await organisers.action(
        post(url, await adminCookie(), { intent: 'create', owner: 'nobody', name: 'Nobody Cup', contact: '9000000000' }),
      ),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.fieldErrors.owner).toMatch(/No account/);
    expect(stub.seen.at(-1)).toMatchObject({ url: '/organisers', body: { owner: 'nobody', name: 'Nobody Cup' } });
  });

  it('is the site admin’s alone: an organiser is sent to log in as one', async () => {
    const res = (await thrown(() => organisers.loader(get(url, 'x=y')))) as Response;
    expect(res.status).toBe(302);
    const player = (await thrown(async () => organisers.loader(get(url, await playerCookie())))) as Response;
    expect(player.status).toBe(302);
    expect(player.headers.get('location')).toBe('/login?redirectTo=%2Fadmin%2Forganisers');
  });
});

describe('posting an announcement', () => {
  const url = 'http://localhost/admin/7/announcements';
  const answers = (kind: string, scopes: { stageId: number; groupId: number | null }[] = []) =>
    stub.answer((req, res) => {
      if (req.url === '/desk') return json(res, 200, { ...EMPTY_DESK, tournaments: [{ id: 7, name: 'Xtreme Monthly', kind }] });
      if (req.url === '/tournaments/7/staff/me') return json(res, 200, { kind, scopes });
      if (req.url === '/tournaments/7') return json(res, 200, tournamentJson({ id: 7, name: 'Xtreme Monthly' }));
      if (req.url === '/tournaments/7/stages') return json(res, 200, [stage]);
      if (req.method === 'GET' && req.url === '/tournaments/7/announcements') return json(res, 200, POSTED);
      if (req.method === 'POST' && req.url === '/tournaments/7/announcements') {
        const body = req.body as { body: string; groupId?: number };
        if (String(body.body).includes('tango42'))
          return json(res, 400, { message: 'room', errors: { body: 'This message contains a room ID or password.' } });
        return json(res, 201, ann(4, body.body, 3, body.groupId ?? null, 'Qualifiers · Group B'));
      }
      return json(res, 404, { message: 'x' });
    });

  it('offers a lobby manager only its own groups as the audience', async () => {
    answers('lobby', [{ stageId: 3, groupId: 32 }]);
    const loaded = (await announce.loader(get(url, await playerCookie(), { tournamentId: '7' }))) as any;
    expect(loaded.audiences).toEqual([{ value: 'g32', label: 'Qualifiers · Group B' }]);
    const html = await renderPage(announce.default, loaded, url);
    expect(html).toContain('<label for="body">Message</label>');
    expect(html).toContain('Group B delayed 15 minutes');
  });

  it('offers the owner everyone, each stage and each group', async () => {
    answers('owner');
    const loaded = (await announce.loader(get(url, await playerCookie(), { tournamentId: '7' }))) as any;
    expect(loaded.audiences.map((a: { value: string }) => a.value)).toEqual(['', 's3', 'g31', 'g32']);
  });

  it('refuses the page to a payments person', async () => {
    answers('payments');
    const refused = unwrap(await thrown(async () => announce.loader(get(url, await playerCookie(), { tournamentId: '7' }))));
    expect(refused.status).toBe(403);
  });

  it('posts to a group and comes back with a message; a room password stays in the form with the gateway’s reason', async () => {
    answers('lobby', [{ stageId: 3, groupId: 32 }]);
    const cookie = await playerCookie();
    const sent = (await announce.action(
      post(url, cookie, { audience: 'g32', body: 'Map changed to Miramar' }, { tournamentId: '7' }),
    )) as Response;
    expect(sent.status).toBe(302);
    expect(sent.headers.get('location')).toBe('/admin/7/announcements');
    expect(stub.seen.at(-1)).toMatchObject({ method: 'POST', body: { body: 'Map changed to Miramar', groupId: 32 } });
    const leak = unwrap(await announce.action(post(url, cookie, { audience: 'g32', body: 'pass tango42' }, { tournamentId: '7' })));
    expect(leak.status).toBe(400);
    expect(leak.body.fieldErrors.body).toMatch(/room ID or password/);
    expect(leak.body.values.body).toBe('pass tango42');
  });

  it('refuses a made-up audience or an empty message without calling the gateway', async () => {
    answers('owner');
    const cookie = await playerCookie();
    const before = stub.seen.length;
    const odd = unwrap(await announce.action(post(url, cookie, { audience: 'x9', body: 'Hi' }, { tournamentId: '7' })));
    expect(odd.body.fieldErrors.audience).toMatch(/Choose who/);
    const empty = unwrap(await announce.action(post(url, cookie, { audience: '', body: '  ' }, { tournamentId: '7' })));
    expect(empty.body.fieldErrors.body).toMatch(/required/);
    expect(besidesDesk(stub.seen.slice(before))).toEqual([]);
  });
});

describe('where announcements are listed', () => {
  const publicAnswers = () =>
    stub.answer((req, res) => {
      const path = new URL(req.url, 'http://x').pathname;
      if (path === '/tournaments/7') return json(res, 200, tournamentJson({ id: 7, name: 'Xtreme Monthly' }));
      if (path === '/tournaments/7/stages') return json(res, 200, [stage]);
      if (path === '/tournaments/7/announcements') return json(res, 200, POSTED);
      if (path.includes('/points-table/days')) return json(res, 200, { days: [] });
      if (path.includes('/points-table')) return json(res, 200, []);
      return json(res, 404, { message: 'x' });
    });

  it('the tournament’s page lists those to everyone and to a stage, not a group’s', async () => {
    publicAnswers();
    const { body } = unwrap(
      await detail.loader({ request: new Request('http://localhost/tournaments/7'), params: { tournamentId: '7' }, context: {} }),
    );
    expect(body.announcements.map((a: { id: number }) => a.id)).toEqual([2, 1]);
    const html = await renderPage(detail.default, body, 'http://localhost/tournaments/7');
    expect(html).toContain('Announcements');
    expect(html).toContain('Qualifiers start with Erangel');
    expect(html).not.toContain('Group B delayed');
  });

  it('a group’s page lists its own, its stage’s and everyone’s; another group’s page does not list it', async () => {
    publicAnswers();
    const load = async (groupId: string) =>
      unwrap(
        await group.loader({
          request: new Request(`http://localhost/tournaments/7/stages/3/groups/${groupId}`),
          params: { tournamentId: '7', stageId: '3', groupId },
          context: {},
        }),
      ).body;
    const b = await load('32');
    expect(b.announcements.map((a: { id: number }) => a.id)).toEqual([3, 2, 1]);
    expect(await renderPage(group.default, b)).toContain('Group B delayed 15 minutes');
    const a = await load('31');
    expect(a.announcements.map((x: { id: number }) => x.id)).toEqual([2, 1]);
  });

  it('a failure of the list alone leaves the page up without it', async () => {
    const logs = captureLogs();
    stub.answer((req, res) => {
      const path = new URL(req.url, 'http://x').pathname;
      if (path === '/tournaments/7/announcements') return json(res, 500, { message: 'boom' });
      if (path === '/tournaments/7') return json(res, 200, tournamentJson({ id: 7, name: 'Xtreme Monthly' }));
      if (path === '/tournaments/7/stages') return json(res, 200, []);
      return json(res, 404, { message: 'x' });
    });
    const { status, body } = unwrap(
      await detail.loader({ request: new Request('http://localhost/tournaments/7'), params: { tournamentId: '7' }, context: {} }),
    );
    expect(status).toBe(200);
    expect(body.announcements).toEqual([]);
    expect(logs).toContainEqual(expect.objectContaining({ level: 'error', path: '/tournaments/7/announcements' }));
  });
});

describe('a crew member on a page beyond its part', () => {
  const deskWith = (kind: string | null) =>
    stub.answer((req, res) => {
      if (req.url === '/desk')
        return json(res, 200, {
          ...EMPTY_DESK,
          organiser: kind === null ? { ...organiser({ status: 'approved' }) } : null,
          tournaments: kind === null ? [{ id: 8, name: 'Its Own Cup', kind: 'owner' }] : [{ id: 7, name: 'Xtreme Monthly', kind }],
        });
      return json(res, 500, { message: 'must not be called' });
    });

  it('gets the 403 page that says whose page it is, without the page’s gateway calls', async () => {
    const stages = await import('~/routes/admin.$tournamentId.stages._index');
    const registrations = await import('~/routes/admin.$tournamentId.registrations/route');
    const remove = await import('~/routes/admin.delete-tournament.$id');
    const cookie = await playerCookie();
    deskWith('payments');
    const before = stub.seen.length;
    const paymentsOnStages = unwrap(
      await thrown(() => stages.loader(get('http://localhost/admin/7/stages', cookie, { tournamentId: '7' }))),
    );
    expect(paymentsOnStages).toEqual({
      status: 403,
      body: { message: 'Only the organiser and co-organisers of this tournament use this page.' },
    });
    expect(besidesDesk(stub.seen.slice(before))).toEqual([]);
    deskWith('lobby');
    const lobbyOnPayments = unwrap(
      await thrown(() => registrations.loader(get('http://localhost/admin/7/registrations', cookie, { tournamentId: '7' }))),
    );
    expect(lobbyOnPayments.status).toBe(403);
    expect(lobbyOnPayments.body.message).toMatch(/payments crew/);
    deskWith('co-organiser');
    const coOnDelete = unwrap(await thrown(() => remove.loader(get('http://localhost/admin/delete-tournament/7', cookie, { id: '7' }))));
    expect(coOnDelete).toEqual({ status: 403, body: { message: 'Only the organiser of this tournament uses this page.' } });
    // An organiser on another organiser's tournament.
    deskWith(null);
    const stranger = unwrap(await thrown(() => stages.loader(get('http://localhost/admin/7/stages', cookie, { tournamentId: '7' }))));
    expect(stranger).toEqual({ status: 403, body: { message: 'You do not run this tournament.' } });
  });
});

describe('a lobby manager’s organiser menu', () => {
  it('has no "Teams and payments": it handles no payments', async () => {
    const layout = await import('~/routes/admin');
    stub.answer((_req, res) => json(res, 200, { ...EMPTY_DESK, tournaments: [{ id: 7, name: 'Xtreme Monthly', kind: 'lobby' }] }));
    const loaded = await layout.loader(get('http://localhost/admin/7/my-groups', await playerCookie()));
    expect(loaded).toEqual({ organises: false, siteAdmin: false, payments: false });
    const html = await renderPage(layout.default, loaded, 'http://localhost/admin/7/my-groups');
    expect(html).not.toContain('Teams and payments');
    expect(html).toContain('href="/admin/manage-tournament"');
  });
});
