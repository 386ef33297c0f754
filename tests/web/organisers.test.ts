// Issue 29 (decision 065): an organiser's public page, and "Organised by" on a tournament's page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tournamentJson } from '../support';
import { captureLogs } from '../support/logs';
import { renderPage } from '../support/render';
import { json, startGatewayStub, thrown, unwrap, useStubEnv, type GatewayStub } from './support/gateway-stub';

let stub: GatewayStub;
let page: typeof import('~/routes/organisers.$slug');
let detail: typeof import('~/routes/tournaments.$tournamentId');

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
