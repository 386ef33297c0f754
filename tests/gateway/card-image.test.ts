import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bumpGeneration } from '../../gateway/src/db/generation.js';
import { LINK_CARD, shareImageStats, tableCardSvg } from '../../gateway/src/lib/share-image.js';
import { tournamentCard } from '../../gateway/src/services/share-images/tournament-cards.js';
import {
  addLobbyTeams,
  adminToken,
  createTournament,
  createUser,
  expectStatus,
  startGateway,
  toForm,
  tournamentFields,
  type TestGateway,
} from './helpers.js';

/**
 * Issue 20, link previews (decision 049): a tournament's card and the points card, 1200×630 PNGs for
 * og:image, over HTTP. SCREENSHOTS=1 writes the points card to docs/screenshots/ (look at it before committing).
 */

const MAX_BYTES = 300 * 1024;
const CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=600';

async function png(res: { status: number; headers: Headers; body: unknown }) {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('image/png');
  const body = res.body as Buffer;
  expect(body.length).toBeLessThan(MAX_BYTES);
  expect(await sharp(body).metadata()).toMatchObject({ format: 'png', width: 1200, height: 630 });
  return body;
}

describe('link preview cards (issue 20)', () => {
  let gw: TestGateway;
  let admin: string;
  let tid: number;
  let teams: number[];
  const get = (p: string, headers: Record<string, string> = {}) => gw.api.request('GET', p, { headers });
  const putMatch = async (day: number, match: number, results: unknown) => {
    const res = await gw.api.put(`/tournaments/${tid}/points-table/matches/${day}/${match}`, { results }, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  beforeAll(async () => {
    gw = await startGateway();
    admin = await adminToken(gw.api);
    const t = await createTournament(gw.api, admin, {
      name: 'Monsoon Clash · Season 3',
      game: 'BGMI',
      entryFee: '250',
      prizePool: '₹1,00,000',
      maxTeams: '100',
      pointsSystem: 'bmps-15',
    });
    tid = t.id;
    teams = (await addLobbyTeams(gw, tid, ['Soul Esports', 'क्षत्रिय योद्धा', 'GodLike 🔥', 'Team XSpark', 'Orangutan', 'Revenant'])).map(
      (t) => t.rid,
    );
    await putMatch(
      1,
      1,
      teams.map((teamId, i) => ({ teamId, position: i + 1, finishes: 6 - i })),
    );
  });
  afterAll(() => gw?.stop());

  it("a tournament's card is a 1200×630 PNG under 300 KB, with ETag, Cache-Control and 304", async () => {
    const res = await get(`/tournaments/${tid}/card.png`);
    await png(res);
    expect(res.headers.get('cache-control')).toBe(CACHE_CONTROL);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="tournament-card-${tid}.png"`);
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"png\d+-[\w-]+"$/);
    const again = await get(`/tournaments/${tid}/card.png`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe(CACHE_CONTROL);
    expect((await get(`/tournaments/${tid}/card.png`, { 'if-none-match': `W/${etag}` })).status).toBe(304);
  });

  it('the points card shows the top 3: a result write that moves them changes the ETag, one below them does not', async () => {
    const first = await get(`/tournaments/${tid}/points-card.png`);
    const body = await png(first);
    expect(first.headers.get('cache-control')).toBe(CACHE_CONTROL);
    expect(first.headers.get('content-disposition')).toBe(`inline; filename="points-card-${tid}-overall.png"`);
    const etag = first.headers.get('etag')!;
    expect((await get(`/tournaments/${tid}/points-card.png`, { 'if-none-match': etag })).status).toBe(304);
    if (process.env.SCREENSHOTS) fs.writeFileSync(path.resolve('docs/screenshots/points-card-image.png'), body);

    // Team 6 plays a second match, last and without a finish: the table image changes, the top 3 do not.
    const table = (await get(`/tournaments/${tid}/points-table.png`)).headers.get('etag');
    await putMatch(1, 2, [{ teamId: teams[5], position: 6, finishes: 0 }]);
    expect((await get(`/tournaments/${tid}/points-table.png`)).headers.get('etag')).not.toBe(table);
    expect((await get(`/tournaments/${tid}/points-card.png`)).headers.get('etag')).toBe(etag);

    // Team 5 wins match 2 with many finishes: it climbs into the top 3, the card's ETag and pixels change.
    await putMatch(1, 2, [
      { teamId: teams[5], position: 6, finishes: 0 },
      { teamId: teams[4], position: 1, finishes: 20 },
    ]);
    const after = await get(`/tournaments/${tid}/points-card.png`);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect((await png(after)).equals(body)).toBe(false);
    expect((await get(`/tournaments/${tid}/points-card.png`, { 'if-none-match': etag })).status).toBe(200);

    // Day and scope as the points image: day 2 has no results yet, a day out of range is refused.
    const day2 = await get(`/tournaments/${tid}/points-card.png?day=2`);
    await png(day2);
    expect(day2.headers.get('content-disposition')).toBe(`inline; filename="points-card-${tid}-day-2.png"`);
    expect((await get(`/tournaments/${tid}/points-card.png?day=8`)).status).toBe(400);
    expect((await get(`/tournaments/${tid}/points-card.png?group=999999`)).status).toBe(404);
  });

  it('an edit of the tournament changes its card; a crowd after a write renders it once', async () => {
    const before = (await get(`/tournaments/${tid}/card.png`)).headers.get('etag');
    const t = (await gw.api.get(`/tournaments/${tid}`)).body;
    const fields = tournamentFields({
      name: t.name,
      startDate: t.startDate,
      endDate: t.endDate,
      registrationOpen: t.registrationOpen,
      registrationClose: t.registrationClose,
      pointsSystem: t.pointsSystem,
      maxTeams: '100',
      entryFee: '0',
      prizePool: '₹50,000',
    });
    expect((await gw.api.request('PUT', `/tournaments/admin/update/${tid}`, { token: admin, form: toForm(fields) })).status).toBe(200);
    const renders = shareImageStats.renders;
    const crowd = await Promise.all(Array.from({ length: 50 }, () => get(`/tournaments/${tid}/card.png`)));
    expect(new Set(crowd.map((r) => r.status))).toEqual(new Set([200]));
    const etags = new Set(crowd.map((r) => r.headers.get('etag')));
    expect(etags.size).toBe(1);
    expect([...etags][0]).not.toBe(before);
    expect(shareImageStats.renders).toBe(renders + 1);
  });

  it('draws names as text: quotes, markup and a bidi override in a tournament name', async () => {
    const t = await createTournament(gw.api, admin, { name: 'Cup "Quoted" <script>alert(1)</script>' });
    await png(await get(`/tournaments/${t.id}/card.png`));
    await gw.app.store.writeTransaction(async (trx) => {
      await trx.updateTable('tournaments').set({ name: 'Evil\u202Eyrotciv & <b>bold</b>' }).where('id', '=', t.id).execute();
      await bumpGeneration(trx, t.id);
    });
    await png(await get(`/tournaments/${t.id}/card.png`));
    // The layout without a header bar holds only escaped text.
    const svg = tableCardSvg(
      {
        site: 'Custom Room',
        title: '<script>"x"</script>',
        subtitle: 'BGMI',
        header: false,
        scale: 1.8,
        columns: [
          { label: 'NOPE', align: 'start', width: 300 },
          { label: 'NOPE', align: 'start', width: 'fill', bold: true },
        ],
        rows: [{ cells: ['Entry fee', '₹250'] }],
        url: 'https://example.in/tournaments/1',
        more: () => '',
        empty: '',
      },
      LINK_CARD,
    );
    expect(svg).toContain('&lt;script&gt;&quot;x&quot;&lt;/script&gt;');
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('NOPE');
    expect(svg).toContain('>₹250<');
  });

  it('a deleted or missing tournament is 404, even after its card was served', async () => {
    const t = await createTournament(gw.api, admin);
    await png(await get(`/tournaments/${t.id}/card.png`));
    await png(await get(`/tournaments/${t.id}/points-card.png`));
    expect((await gw.api.delete(`/tournaments/admin/delete${t.id}`, admin)).status).toBe(200);
    expect((await get(`/tournaments/${t.id}/card.png`)).status).toBe(404);
    expect((await get(`/tournaments/${t.id}/points-card.png`)).status).toBe(404);
    expect((await get('/tournaments/999999/card.png')).status).toBe(404);
    expect((await get('/tournaments/x/card.png')).status).toBe(400);
  });

  it('says who organises the tournament, below its facts; a renamed organiser is a new card (decision 068)', async () => {
    const owner = await createUser(gw.api);
    const org = expectStatus(await gw.api.post('/organisers', { name: 'Xtreme Esports', contact: owner.email }, owner.token), 201);
    expectStatus(await gw.api.post(`/organisers/${org.slug}/approve`, { decision: 'approve' }, admin), 200);
    const t = await createTournament(gw.api, owner.token, { entryFee: '250', prizePool: '₹10,000' });
    const svgOf = async () =>
      tableCardSvg(
        (await tournamentCard(gw.app.store.db, { webUrl: 'https://example.in', timeZone: 'Asia/Kolkata' }, t.id, Date.now())).card,
        LINK_CARD,
      );
    const svg = await svgOf();
    // Every row shows (none left out for room), the organiser's last.
    for (const text of ['Entry fee', '₹250', 'Prize pool', '₹10,000', 'Dates', 'Status', 'Organised by', 'Xtreme Esports'])
      expect(svg).toContain(`>${text}<`);
    expect(svg.indexOf('>Organised by<')).toBeGreaterThan(svg.indexOf('>Status<'));
    const before = await get(`/tournaments/${t.id}/card.png`);
    await png(before);
    expectStatus(await gw.api.put(`/organisers/${org.slug}`, { name: 'Xtreme Gaming', contact: owner.email }, owner.token), 200);
    expect(await svgOf()).toContain('>Xtreme Gaming<');
    const after = await get(`/tournaments/${t.id}/card.png`);
    await png(after);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    expect((await get(`/tournaments/${t.id}/card.png`, { 'if-none-match': before.headers.get('etag')! })).status).toBe(200);
  });

  it('both cards are in the OpenAPI document as image/png, with their 304', async () => {
    const doc = (await gw.api.get('/openapi.json')).body;
    for (const p of ['/tournaments/{id}/card.png', '/tournaments/{id}/points-card.png']) {
      const op = doc.paths[p]?.get;
      expect(op, p).toBeDefined();
      expect(op.responses['200'].content['image/png'].schema).toEqual({ type: 'string', format: 'binary' });
      expect(op.responses['304']).toBeDefined();
    }
  });
});
