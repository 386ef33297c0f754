// Issue 30 (decision 076): the points page's Top fraggers view (?view=players) with its empty state and its
// PNG, and the provisional marks (a note above the table, "*" on the breakdown's columns, a page no cache keeps
// past the window), from a stubbed gateway.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tournamentJson } from '../support';
import { renderPage } from '../support/render';
import { json, startGatewayStub, unwrap, useStubEnv, type GatewayStub, type SeenRequest } from './support/gateway-stub';

let stub: GatewayStub;
let page: typeof import('~/routes/tournaments.$tournamentId_.points-table');
let image: typeof import('~/routes/tournaments.$tournamentId_.points-table_.players[.png]');

beforeAll(async () => {
  stub = await startGatewayStub();
  await useStubEnv(stub);
  page = await import('~/routes/tournaments.$tournamentId_.points-table');
  image = await import('~/routes/tournaments.$tournamentId_.points-table_.players[.png]');
});
afterAll(() => stub.close());

const MINUTE = 60_000;
const STAGE = {
  id: 7,
  tid: 5,
  name: 'Qualifiers',
  order: 1,
  lobbySize: 2,
  firstSlot: 1,
  advancePerGroup: 1,
  advanceBest: 0,
  state: 'published',
  draw: { method: 'random', seed: 'abc', drawnAt: '2026-12-01T10:00:00.000Z' },
  entrants: 4,
  hasResults: true,
  groupGap: 0,
  groupMatches: { scheduled: 4, withResults: 2, notPlayed: 0 },
  groups: [
    { id: 31, name: 'A', slots: [{ slot: 1, teamId: 101, teamName: 'Team 101' }] },
    { id: 32, name: 'B', slots: [{ slot: 1, teamId: 103, teamName: 'Team 103' }] },
  ],
  checkIn: { opensAt: '2099-03-05T10:00:00.000Z', closesAt: '2099-03-05T12:00:00.000Z', noShows: null },
};
const PLAYERS = [
  { rank: 1, ign: 'SniperRaj', teamId: 101, teamName: 'Team 101', finishes: 9, matches: 2 },
  { rank: 2, ign: 'Ghost_07', teamId: 103, teamName: 'Team 103', finishes: 6, matches: 2 },
  { rank: 2, ign: 'Ace', teamId: 101, teamName: 'Team 101', finishes: 6, matches: 2 },
];
const row = (teamId: number, rank: number) => ({
  rank,
  teamId,
  teamName: `Team ${teamId}`,
  positionPoints: 10 - rank,
  finishes: 3,
  wins: rank === 1 ? 1 : 0,
  totalPoints: 13 - rank,
  matchesPlayed: 2,
});

type Route = (req: SeenRequest) => [number, unknown];
/** The public calls of the points page; `extra` replaces or adds some. */
function routes(extra: Record<string, Route> = {}) {
  const table: Record<string, Route> = {
    'GET /tournaments/5': () => [200, tournamentJson({ id: 5, name: 'Frag Cup' })],
    'GET /tournaments/5/stages': () => [200, [STAGE]],
    'GET /tournaments/5/points-table/history': () => [200, { changes: [], nextBefore: null }],
    'GET /tournaments/5/points-table/days': () => [200, { days: [1] }],
    'GET /tournaments/5/points-table/overall': () => [200, [row(101, 1), row(103, 2)]],
    'GET /tournaments/5/points-table/day': () => [200, [row(101, 1), row(103, 2)]],
    'GET /tournaments/5/points-table/players': () => [200, PLAYERS],
    ...extra,
  };
  stub.answer((req, res) => {
    const key = `${req.method} ${req.url.split('?')[0]}`;
    const route = table[key];
    if (!route) return json(res, 404, { message: `no stub for ${key}` });
    const [status, body] = route(req);
    json(res, status, body);
  });
}

async function load(query: string) {
  const url = `http://localhost/tournaments/5/points-table${query}`;
  const result = await page.loader({ request: new Request(url), params: { tournamentId: '5' }, context: {} });
  const { status, body } = unwrap(result);
  expect(status).toBe(200);
  const headers = new Headers((result as { init?: ResponseInit }).init?.headers);
  return { data: body, headers, html: await renderPage(page.default, body, url) };
}
const seenSince = (from: number) => stub.seen.slice(from).map((r) => r.url);

describe('Top fraggers on the points page', () => {
  it('lists rank, player, team, finishes and matches of the scope asked for, with its PNG and no day links', async () => {
    routes();
    const from = stub.seen.length;
    const { html, data } = await load('?stage=7&group=32&view=players');
    // The players call gets the page's scope; no table is asked for.
    expect(seenSince(from)).toContain('/tournaments/5/points-table/players?stage=7&group=32');
    expect(seenSince(from).some((u) => /points-table\/(overall|breakdown|day(\?|$))/.test(u))).toBe(false);
    expect(html).toContain('<caption id="pt-caption">Top fraggers: Qualifiers · Group B</caption>');
    expect(html).toMatch(
      /<td>1<\/td><th scope="row" class="pt-team">SniperRaj<\/th><td class="pt-player-team">Team 101<\/td><td class="pt-total">9<\/td><td>2<\/td>/,
    );
    expect(html).toContain('<span class="th-l">Finishes</span>');
    expect(html).toMatch(
      /<a aria-current="page" [^>]*href="\/tournaments\/5\/points-table\?stage=7&amp;group=32&amp;view=players">Top fraggers<\/a>/,
    );
    expect(html).toContain('href="/tournaments/5/points-table/players.png?stage=7&amp;group=32" download=""');
    expect(html).not.toContain('aria-label="Points table day"');
    // The scope links stay on Top fraggers, and the whole tournament is one of them.
    expect(html).toContain('href="/tournaments/5/points-table?view=players">Whole tournament</a>');
    expect(html).toContain('href="/tournaments/5/points-table?stage=7&amp;group=31&amp;view=players"');
    const meta = (page.meta as unknown as (a: unknown) => { title?: string; name?: string; property?: string; content?: string }[])({
      data,
      params: {},
      matches: [],
      location: {},
    });
    expect(meta[0]!.title).toBe('Top fraggers: Frag Cup | Custom Room');
    expect(meta.find((m) => m.property === 'og:title')?.content).toBe('Qualifiers · Group B · Top fraggers: Frag Cup');
    expect(decodeURIComponent(data.whatsApp)).toBe(
      'https://wa.me/?text=Frag Cup — Qualifiers · Group B, Top fraggers: http://localhost/tournaments/5/points-table?stage=7&group=32&view=players',
    );
  });

  it('without a stage asked for, is the whole tournament’s; without confirmed reports, says where finishes come from', async () => {
    routes({ 'GET /tournaments/5/points-table/players': () => [200, []] });
    const from = stub.seen.length;
    const { html } = await load('?view=players');
    expect(seenSince(from)).toContain('/tournaments/5/points-table/players');
    expect(html).toContain('<p class="td-sub">The whole tournament</p>');
    expect(html).toContain('No player finishes yet: they come from the teams&#x27; confirmed reports.');
    expect(html).not.toContain('<table');
    expect(html).not.toContain('Download image');
  });

  it('the team table keeps its page: the Top fraggers link is new, the players are not asked for, nothing is provisional', async () => {
    routes();
    const from = stub.seen.length;
    const { html, data, headers } = await load('?stage=7');
    expect(seenSince(from).some((u) => u.includes('/players'))).toBe(false);
    expect(data).not.toHaveProperty('players');
    expect(data).not.toHaveProperty('provisional');
    expect(html).toContain('href="/tournaments/5/points-table?stage=7&amp;view=players">Top fraggers</a>');
    expect(html).not.toContain('Whole tournament');
    expect(html).not.toContain('provisional');
    expect(headers.get('cache-control')).toBe('public, max-age=30, stale-while-revalidate=60');
  });
});

describe('provisional results', () => {
  const at = (ms: number) => new Date(Date.now() + ms).toISOString();
  const hhmm = (iso: string) =>
    new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'Asia/Kolkata' }).format(
      new Date(iso),
    );

  it('notes each match still in its window above the table (not one whose window has ended), and keeps the page no longer', async () => {
    const until = at(20 * MINUTE);
    routes({
      'GET /tournaments/5/points-table/days': () => [
        200,
        {
          days: [1],
          provisional: [
            { day: 1, match: 1, groupId: 31, groupName: 'A', until: at(-MINUTE) },
            { day: 1, match: 2, groupId: 32, groupName: 'B', until },
          ],
        },
      ],
    });
    const { html, headers } = await load('?stage=7');
    expect(html).toContain(
      `<ul class="pt-provisional" aria-label="Provisional results"><li>Day 1 match 2 (Group B): provisional until ${hhmm(until)} — teams may dispute it</li></ul>`,
    );
    expect(html).not.toContain('Day 1 match 1 (Group A)');
    // No stale copy past the window: no stale-while-revalidate.
    expect(headers.get('cache-control')).toBe('public, max-age=30');
  });

  it('a window ending within the page cache’s 30 seconds: no-cache, so no cache keeps the page past it', async () => {
    routes({ 'GET /tournaments/5/points-table/days': () => [200, { days: [1], provisional: [{ day: 1, match: 2, until: at(10_000) }] }] });
    const { html, headers } = await load('');
    expect(html).toContain('<li>Day 1 match 2: provisional until');
    expect(headers.get('cache-control')).toBe('public, no-cache');
  });

  it('marks the provisional match’s column in the per-match view, in words for screen readers', async () => {
    routes({
      'GET /tournaments/5/points-table/days': () => [
        200,
        { days: [1], provisional: [{ day: 1, match: 2, groupId: 32, groupName: 'B', until: at(5 * MINUTE) }] },
      ],
      'GET /tournaments/5/points-table/breakdown': () => [
        200,
        {
          matches: [
            { day: 1, match: 1 },
            { day: 1, match: 2 },
          ],
          rows: [row(101, 1), row(103, 2)].map((r) => ({
            ...r,
            results: [
              { position: 1, finishes: 2 },
              { position: 2, finishes: 1 },
            ],
          })),
        },
      ],
    });
    const { html } = await load('?day=1&stage=7&view=matches');
    expect(html).toContain('<span aria-hidden="true">M2*</span><span class="visually-hidden">Match 2, provisional</span>');
    expect(html).toContain('<span aria-hidden="true">M1</span><span class="visually-hidden">Match 1</span>');
    expect(html).toContain('“*”: provisional, teams may still dispute it.');
    // Another day's table: the note of day 1 is not shown there.
    const other = await load('?day=2&stage=7');
    expect(other.html).not.toContain('provisional until');
  });
});

describe('Top fraggers PNG', () => {
  it("passes the gateway's PNG through with its ETag and Cache-Control, for the page's scope only", async () => {
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    stub.answer((req, res) => {
      if (req.url.startsWith('/tournaments/5/points-table/players.png')) {
        res.writeHead(200, {
          'content-type': 'image/png',
          etag: '"png2-abc"',
          'cache-control': 'public, max-age=60, stale-while-revalidate=600',
          'content-disposition': 'inline; filename="top-fraggers-5-group-32.png"',
        });
        return res.end(png);
      }
      json(res, 404, { message: 'no stub' });
    });
    const from = stub.seen.length;
    const res = await image.loader({
      request: new Request('http://localhost/tournaments/5/points-table/players.png?stage=7&group=32&x=1'),
      params: { tournamentId: '5' },
      context: {},
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('etag')).toBe('"png2-abc"');
    expect(res.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=600');
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);
    expect(seenSince(from)).toEqual(['/tournaments/5/points-table/players.png?stage=7&group=32']);
    for (const bad of ['?day=1', '?group=x', '?stage=0']) {
      const refused = await image.loader({
        request: new Request(`http://localhost/tournaments/5/points-table/players.png${bad}`),
        params: { tournamentId: '5' },
        context: {},
      });
      expect(refused.status, bad).toBe(404);
    }
  });
});
