import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addLobbyTeams, adminToken, createTournament, startGateway, type TestGateway } from '../gateway/helpers';
import { useGatewayEnv } from './support/gateway-stub';
import { renderPage } from './support/render';

// Issue 20 (decision 049): the web app's /tournaments/{id}/points-table.png and /slot-list.png pass the
// real gateway's images through, with their ETag, Cache-Control and 304; the points page links to its image.

let gw: TestGateway;
let admin: string;
let tid: number;
let groupId: number;
let pointsImage: typeof import('~/routes/tournaments.$tournamentId_.points-table[.png]');
let slotImage: typeof import('~/routes/tournaments.$tournamentId_.slot-list[.png]');
let pointsPage: typeof import('~/routes/tournaments.$tournamentId_.points-table');

const args = (url: string, params: Record<string, string>, headers: Record<string, string> = {}) => ({
  request: new Request(url, { headers }),
  params,
  context: {},
});
const get = async (mod: { loader: (a: ReturnType<typeof args>) => Response | Promise<Response> }, url: string, headers = {}) =>
  mod.loader(args(url, { tournamentId: new URL(url).pathname.split('/')[2]! }, headers));

beforeAll(async () => {
  gw = await startGateway();
  admin = await adminToken(gw.api);
  tid = (await createTournament(gw.api, admin, { entryFee: '0', maxTeams: '100', pointsSystem: 'bmps-15' })).id;
  const rids = (await addLobbyTeams(gw, tid, ['Alpha', 'ब्रावो', 'Charlie 🚀', 'Delta'])).map((t) => t.rid);
  const results = rids.map((teamId, i) => ({ teamId, position: i + 1, finishes: i }));
  expect((await gw.api.put(`/tournaments/${tid}/points-table/matches/1/1`, { results }, admin)).status).toBe(200);
  const stage = await gw.api.post(`/tournaments/${tid}/stages`, { name: 'Qualifiers', lobbySize: 4 }, admin);
  const drawn = await gw.api.post(`/tournaments/${tid}/stages/${stage.body.id}/groups`, { method: 'registration' }, admin);
  groupId = drawn.body.groups[0].id;
  expect((await gw.api.post(`/tournaments/${tid}/stages/${stage.body.id}/publish`, {}, admin)).status).toBe(200);

  await useGatewayEnv(gw.url, { timeoutMs: 4000 });
  pointsImage = await import('~/routes/tournaments.$tournamentId_.points-table[.png]');
  slotImage = await import('~/routes/tournaments.$tournamentId_.slot-list[.png]');
  pointsPage = await import('~/routes/tournaments.$tournamentId_.points-table');
});
afterAll(() => gw?.stop());

describe('share images through the web app', () => {
  it("/tournaments/{id}/points-table.png is the gateway's PNG with its ETag and Cache-Control; If-None-Match ends in 304", async () => {
    const direct = await gw.api.get(`/tournaments/${tid}/points-table.png?day=1`);
    const res = await get(pointsImage, `http://localhost/tournaments/${tid}/points-table.png?day=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=600');
    expect(res.headers.get('etag')).toBe(direct.headers.get('etag'));
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="points-table-${tid}-day-1.png"`);
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.equals(direct.body as Buffer)).toBe(true);
    expect(await sharp(body).metadata()).toMatchObject({ format: 'png', width: 1080, height: 1350 });

    const again = await get(pointsImage, `http://localhost/tournaments/${tid}/points-table.png?day=1`, {
      'if-none-match': res.headers.get('etag')!,
    });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(res.headers.get('etag'));
    expect(again.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=600');
  });

  it('passes only day, stage and group on, and answers 404 for what the page would not show', async () => {
    const stageTable = await get(pointsImage, `http://localhost/tournaments/${tid}/points-table.png?group=${groupId}&utm_source=x`);
    expect(stageTable.status).toBe(200);
    expect(stageTable.headers.get('content-disposition')).toContain(`-group-${groupId}-overall.png`);
    for (const bad of ['?day=9', '?day=x', '?stage=abc', '?group=0', `?group=999999`]) {
      const res = await get(pointsImage, `http://localhost/tournaments/${tid}/points-table.png${bad}`);
      expect(res.status, bad).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    }
    expect((await get(pointsImage, 'http://localhost/tournaments/999999/points-table.png')).status).toBe(404);
    expect((await pointsImage.loader(args('http://localhost/tournaments/x/points-table.png', { tournamentId: 'x' }))).status).toBe(404);
  });

  it("/tournaments/{id}/slot-list.png?group= is the group's slot list", async () => {
    const res = await get(slotImage, `http://localhost/tournaments/${tid}/slot-list.png?group=${groupId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(await sharp(Buffer.from(await res.arrayBuffer())).metadata()).toMatchObject({ width: 1080, height: 1350 });
    expect((await get(slotImage, `http://localhost/tournaments/${tid}/slot-list.png`)).status).toBe(404);
    expect((await get(slotImage, `http://localhost/tournaments/${tid}/slot-list.png?group=999999`)).status).toBe(404);
  });

  it('the points page links to the image of the table it shows', async () => {
    const page = async (query: string) => {
      const url = `http://localhost/tournaments/${tid}/points-table${query}`;
      const data = await pointsPage.loader(args(url, { tournamentId: String(tid) }) as never);
      return renderPage(pointsPage.default, (data as { data: unknown }).data, url);
    };
    expect(await page(`?group=${groupId}`)).toContain(
      `<a href="/tournaments/${tid}/points-table.png?group=${groupId}" download="" class="pt-share-image">Download image</a>`,
    );
    // Issue 27 item 21: the group has no match on day 1 (that day's results were entered before the stage):
    // no table of its teams at 0, so no image of one either.
    const day1 = await page(`?day=1&group=${groupId}`);
    expect(day1).toContain('No matches on Day 1 yet.');
    expect(day1).not.toContain('Download image');
  });
});
