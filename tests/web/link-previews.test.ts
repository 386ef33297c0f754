import { createElement, Fragment } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bumpGeneration } from '../../gateway/src/db/generation.js';
import { addLobbyTeams, adminToken, createTournament, startGateway, type TestGateway } from '../gateway/helpers';
import { useGatewayEnv } from './support/gateway-stub';
import { renderPage } from './support/render';

// Issue 20, link previews (decision 049): the tournament page, the points page and a group's page carry
// Open Graph and Twitter card tags whose URLs are absolute from PUBLIC_URL (never from the request's
// Host when it is set), with the gateway's 1200×630 cards, streamed by the web app's resource routes.

const PUBLIC = 'https://play.example.in';
const NAME = 'Cup "Quoted" <script>alert(1)</script>';

let gw: TestGateway;
let tid: number;
let stageId: number;
let groupId: number;
let detail: typeof import('~/routes/tournaments.$tournamentId');
let points: typeof import('~/routes/tournaments.$tournamentId_.points-table');
let groupPage: typeof import('~/routes/tournaments.$tournamentId_.stages_.$stageId.groups.$groupId');
let card: typeof import('~/routes/tournaments.$tournamentId_.card[.png]');
let pointsCard: typeof import('~/routes/tournaments.$tournamentId_.points-card[.png]');
let envModule: typeof import('~/utils/env.server');

type Tag = Record<string, string>;
const args = (url: string, params: Record<string, string>, headers: Record<string, string> = {}) =>
  ({ request: new Request(url, { headers }), params, context: {} }) as never;
const bodyOf = (result: unknown) => (result as { data: unknown }).data;
const metaOf = (mod: { meta?: unknown }, data: unknown) =>
  (mod.meta as (a: unknown) => Tag[])({ data, params: {}, matches: [], location: {} });
const find = (tags: Tag[], key: string) => tags.find((t) => t.property === key || t.name === key)?.content;

function setPublicUrl(value: string | undefined) {
  if (value === undefined) delete process.env.PUBLIC_URL;
  else process.env.PUBLIC_URL = value;
  envModule.resetEnvForTests();
}

beforeAll(async () => {
  gw = await startGateway();
  const admin = await adminToken(gw.api);
  tid = (
    await createTournament(gw.api, admin, {
      name: NAME,
      game: 'BGMI',
      entryFee: '250',
      prizePool: '₹1,00,000',
      maxTeams: '100',
      pointsSystem: 'bmps-15',
      startDate: '2026-03-05T12:00:00.000Z',
      endDate: '2026-03-07T12:00:00.000Z',
      registrationOpen: '2026-02-01T12:00:00.000Z',
      registrationClose: '2026-03-04T12:00:00.000Z',
    })
  ).id;
  const rids = (await addLobbyTeams(gw, tid, ['Alpha', 'Bravo', 'Charlie', 'Delta'])).map((t) => t.rid);
  await gw.app.store.writeTransaction(async (trx) => {
    // Paid: the draw places paid teams of a paid tournament.
    await trx.updateTable('registrations').set({ payment_status: 'verified' }).where('tournament_id', '=', tid).execute();
    await bumpGeneration(trx, tid);
  });
  const results = rids.map((teamId, i) => ({ teamId, position: i + 1, finishes: i }));
  expect((await gw.api.put(`/tournaments/${tid}/points-table/matches/1/1`, { results }, admin)).status).toBe(200);
  const stage = await gw.api.post(`/tournaments/${tid}/stages`, { name: 'Qualifiers', lobbySize: 4 }, admin);
  stageId = stage.body.id;
  const drawn = await gw.api.post(`/tournaments/${tid}/stages/${stageId}/groups`, { method: 'registration' }, admin);
  expect(drawn.body.groups, JSON.stringify(drawn.body)).toHaveLength(1);
  groupId = drawn.body.groups[0].id;
  expect((await gw.api.post(`/tournaments/${tid}/stages/${stageId}/publish`, {}, admin)).status).toBe(200);

  await useGatewayEnv(gw.url, { timeoutMs: 4000, env: { APP_TIME_ZONE: 'Asia/Kolkata' } });
  envModule = await import('~/utils/env.server');
  setPublicUrl(PUBLIC);
  detail = await import('~/routes/tournaments.$tournamentId');
  points = await import('~/routes/tournaments.$tournamentId_.points-table');
  groupPage = await import('~/routes/tournaments.$tournamentId_.stages_.$stageId.groups.$groupId');
  card = await import('~/routes/tournaments.$tournamentId_.card[.png]');
  pointsCard = await import('~/routes/tournaments.$tournamentId_.points-card[.png]');
});
afterEach(() => setPublicUrl(PUBLIC));
afterAll(() => gw?.stop());

/** Every URL-valued tag of a page. */
const urls = (tags: Tag[]) => [
  find(tags, 'og:url'),
  find(tags, 'og:image'),
  find(tags, 'twitter:image'),
  tags.find((t) => t.rel === 'canonical')?.href,
];

describe('link previews', () => {
  it("the tournament page: absolute URLs from PUBLIC_URL whatever the request's Host, the card with its size and type", async () => {
    const data = bodyOf(
      await detail.loader(args(`http://evil.example:8080/tournaments/${tid}?utm_source=x`, { tournamentId: String(tid) })),
    );
    const tags = metaOf(detail, data);
    expect(find(tags, 'og:url')).toBe(`${PUBLIC}/tournaments/${tid}`);
    expect(tags).toContainEqual({ tagName: 'link', rel: 'canonical', href: `${PUBLIC}/tournaments/${tid}` });
    expect(find(tags, 'og:image')).toBe(`${PUBLIC}/tournaments/${tid}/card.png`);
    expect(find(tags, 'twitter:image')).toBe(`${PUBLIC}/tournaments/${tid}/card.png`);
    expect(find(tags, 'og:image:width')).toBe('1200');
    expect(find(tags, 'og:image:height')).toBe('630');
    expect(find(tags, 'og:image:type')).toBe('image/png');
    expect(find(tags, 'og:image:alt')).toContain(NAME);
    expect(find(tags, 'og:type')).toBe('website');
    expect(find(tags, 'og:site_name')).toBe('Custom Room');
    expect(find(tags, 'twitter:card')).toBe('summary_large_image');
    expect(find(tags, 'og:title')).toBe(NAME);
    expect(find(tags, 'twitter:title')).toBe(NAME);
    const description = find(tags, 'og:description')!;
    expect(description).toMatch(/^BGMI · Entry ₹250 · Prize pool ₹1,00,000 · 5 Mar 2026 to 7 Mar 2026/);
    expect(find(tags, 'twitter:description')).toBe(description);
    // The page's own title and description stay.
    expect(tags).toContainEqual({ title: `${NAME} | Custom Room` });
    expect(find(tags, 'description')).toBe(description);
    for (const u of urls(tags)) expect(u).not.toContain('evil.example');
  });

  it("without PUBLIC_URL the URLs are the request's own origin", async () => {
    setPublicUrl(undefined);
    const data = bodyOf(await detail.loader(args(`http://localhost:3000/tournaments/${tid}`, { tournamentId: String(tid) })));
    const tags = metaOf(detail, data);
    expect(find(tags, 'og:url')).toBe(`http://localhost:3000/tournaments/${tid}`);
    expect(find(tags, 'og:image')).toBe(`http://localhost:3000/tournaments/${tid}/card.png`);
  });

  it('the points page: its canonical table address and the points card of the same day and scope', async () => {
    const url = `http://evil.example/tournaments/${tid}/points-table?day=1&group=${groupId}&utm_source=x`;
    const data = bodyOf(await points.loader(args(url, { tournamentId: String(tid) })));
    const tags = metaOf(points, data);
    expect(find(tags, 'og:url')).toBe(`${PUBLIC}/tournaments/${tid}/points-table?day=1&group=${groupId}`);
    expect(find(tags, 'og:image')).toBe(`${PUBLIC}/tournaments/${tid}/points-card.png?day=1&group=${groupId}`);
    expect(find(tags, 'og:title')).toBe(`Qualifiers · Group A · Day 1 standings: ${NAME}`);
    expect(find(tags, 'og:description')).toBe('BGMI · Entry ₹250 · Prize pool ₹1,00,000 · 5 Mar 2026 to 7 Mar 2026');
    expect(find(tags, 'twitter:card')).toBe('summary_large_image');
    expect(tags).toContainEqual({ title: `Day 1 standings: ${NAME} | Custom Room` });
    for (const u of urls(tags)) expect(u).not.toContain('evil.example');

    const overall = metaOf(
      points,
      bodyOf(await points.loader(args(`http://x/tournaments/${tid}/points-table`, { tournamentId: String(tid) }))),
    );
    expect(find(overall, 'og:url')).toBe(`${PUBLIC}/tournaments/${tid}/points-table`);
    expect(find(overall, 'og:image')).toBe(`${PUBLIC}/tournaments/${tid}/points-card.png`);
  });

  it("a group's page: its address, the group's points card, and a link to its slot list image", async () => {
    const url = `http://evil.example/tournaments/${tid}/stages/${stageId}/groups/${groupId}?day=1`;
    const params = { tournamentId: String(tid), stageId: String(stageId), groupId: String(groupId) };
    const data = bodyOf(await groupPage.loader(args(url, params)));
    const tags = metaOf(groupPage, data);
    expect(find(tags, 'og:url')).toBe(`${PUBLIC}/tournaments/${tid}/stages/${stageId}/groups/${groupId}?day=1`);
    expect(find(tags, 'og:image')).toBe(`${PUBLIC}/tournaments/${tid}/points-card.png?day=1&group=${groupId}`);
    expect(find(tags, 'og:title')).toBe(`Qualifiers · Group A: ${NAME}`);
    const html = await renderPage(groupPage.default, data, url);
    expect(html).toContain(`<a href="/tournaments/${tid}/slot-list.png?group=${groupId}" download="">Slot list image</a>`);
  });

  it('a name with quotes and <script> is an attribute value, escaped once, when React renders the tags', async () => {
    const data = bodyOf(await detail.loader(args(`http://x/tournaments/${tid}`, { tournamentId: String(tid) })));
    const tags = metaOf(detail, data).filter((t) => !('title' in t) && !('tagName' in t));
    // Remix's <Meta> renders each descriptor as a <meta> element with these props.
    const html = renderToStaticMarkup(createElement(Fragment, null, ...tags.map((t, i) => createElement('meta', { key: i, ...t }))));
    expect(html).toContain('<meta property="og:title" content="Cup &quot;Quoted&quot; &lt;script&gt;alert(1)&lt;/script&gt;"/>');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('&amp;quot;');
  });

  it("the card routes stream the gateway's 1200×630 PNGs with ETag and 304", async () => {
    for (const [mod, url] of [
      [card, `http://localhost/tournaments/${tid}/card.png`],
      [pointsCard, `http://localhost/tournaments/${tid}/points-card.png?day=1&group=${groupId}&utm_source=x`],
    ] as const) {
      const res = await mod.loader(args(url, { tournamentId: String(tid) }));
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=600');
      const body = Buffer.from(await res.arrayBuffer());
      expect(body.length).toBeLessThan(300 * 1024);
      expect(await sharp(body).metadata()).toMatchObject({ format: 'png', width: 1200, height: 630 });
      const again = await mod.loader(args(url, { tournamentId: String(tid) }, { 'if-none-match': res.headers.get('etag')! }));
      expect(again.status).toBe(304);
    }
    expect(
      (await pointsCard.loader(args(`http://localhost/tournaments/${tid}/points-card.png?day=9`, { tournamentId: String(tid) }))).status,
    ).toBe(404);
    expect((await card.loader(args('http://localhost/tournaments/999999/card.png', { tournamentId: '999999' }))).status).toBe(404);
    expect((await card.loader(args('http://localhost/tournaments/x/card.png', { tournamentId: 'x' }))).status).toBe(404);
  });

  it('PUBLIC_URL must be an http(s) origin without a path', () => {
    setPublicUrl('https://play.example.in/');
    expect(envModule.getEnv().PUBLIC_URL).toBe('https://play.example.in');
    setPublicUrl('http://localhost:3000');
    expect(envModule.getEnv().PUBLIC_URL).toBe('http://localhost:3000');
    for (const bad of [
      'https://play.example.in/app',
      'ftp://play.example.in',
      'play.example.in',
      'https://u:p@play.example.in',
      'https://play.example.in/?x=1',
      'https://play.example.in#top',
    ]) {
      setPublicUrl(bad);
      expect(() => envModule.getEnv(), bad).toThrow(/^PUBLIC_URL: must be an http\(s\) origin/);
    }
  });
});
