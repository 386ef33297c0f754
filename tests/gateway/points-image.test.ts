import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageWorkStats } from '../../gateway/src/lib/images.js';
import { escapeXml, LINK_CARD, renderTableCard, shareImageStats, tableCardSvg, type TableCard } from '../../gateway/src/lib/share-image.js';
import { addLobbyTeams, adminToken, createTournament, startGateway, type RegisteredTeam, type TestGateway } from './helpers.js';

/**
 * Issue 20 (decision 049): the points table and a group's slot list as 1080×1350 PNGs, over HTTP.
 * UPDATE_GOLDEN=1 rewrites the golden image (then look at it before committing it).
 */

const GOLDEN = path.resolve('tests/fixtures/points-table-golden.png');
const SAMPLE = path.resolve('docs/screenshots/points-table-image.png');

/** 25 fixed names: Latin, Hindi (conjuncts and vowel signs), emoji, markup and a bidi override. */
const NAMES = [
  'Soul Esports',
  'GodLike 🔥',
  'टीम इंडिया',
  'Team XSpark',
  'क्षत्रिय योद्धा',
  'Orangutan',
  '<script>alert(1)</script>',
  'Blind Esports 🐯',
  'Revenant',
  'Hydra Official',
  'Evil\u202Eyrotciv',
  'Global Esports',
  'Medal Esports',
  'R3GICIDE',
  'Chemin Esports',
  'Marcos Gaming',
  'TWOB',
  'Team Insane',
  'Big Brother Esports',
  'A very long team name that goes on and on',
  'Enigma Gaming',
  'Gods Reign',
  'शेर दल 🦁',
  'Velocity Gaming',
  'True Rippers',
];

const LOBBY = NAMES.length;

/** Fixed results: two matches on day 1, one on day 2; every team placed once per match. */
function matchRows(teams: RegisteredTeam[], match: number) {
  return teams.map((t, i) => ({
    teamId: t.rid,
    position: ((i * (match * 2 + 5) + match * 4) % LOBBY) + 1,
    // % 8: a lobby of 25 squads has at most 99 finishes a match (issue 27 item 8).
    finishes: (i * (match + 2)) % 8,
  }));
}

async function decode(png: Buffer) {
  const meta = await sharp(png).metadata();
  const raw = await sharp(png).removeAlpha().raw().toBuffer();
  return { meta, raw };
}

/** Share of pixels whose channels differ by more than 48, and the mean absolute difference. */
function compare(a: Buffer, b: Buffer) {
  expect(a.length).toBe(b.length);
  let diffSum = 0;
  let far = 0;
  for (let i = 0; i < a.length; i += 3) {
    const d = Math.max(Math.abs(a[i]! - b[i]!), Math.abs(a[i + 1]! - b[i + 1]!), Math.abs(a[i + 2]! - b[i + 2]!));
    diffSum += d;
    if (d > 48) far += 1;
  }
  const pixels = a.length / 3;
  return { mean: diffSum / pixels, far: far / pixels };
}

describe('share images (issue 20)', () => {
  let gw: TestGateway;
  let admin: string;
  let tid: number;
  let teams: RegisteredTeam[];
  const image = (query = '', headers: Record<string, string> = {}) =>
    gw.api.request('GET', `/tournaments/${tid}/points-table.png${query}`, { headers });
  const putMatch = async (day: number, match: number, results: unknown) => {
    const res = await gw.api.put(`/tournaments/${tid}/points-table/matches/${day}/${match}`, { results }, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  beforeAll(async () => {
    gw = await startGateway();
    admin = await adminToken(gw.api);
    // The first tournament of a fresh database: its id, and so the URL on the image, is the same every run.
    const t = await createTournament(gw.api, admin, {
      name: 'Monsoon Clash · Season 3',
      game: 'BGMI',
      entryFee: '0',
      maxTeams: '100',
      pointsSystem: 'bmps-15',
    });
    tid = t.id;
    teams = await addLobbyTeams(gw, tid, NAMES);
    await putMatch(1, 1, matchRows(teams, 1));
    await putMatch(1, 2, matchRows(teams, 2));
    await putMatch(2, 1, matchRows(teams, 3));
  });
  afterAll(() => gw?.stop());

  it('is a 1080×1350 PNG with ETag and a Cache-Control a CDN may keep; If-None-Match answers 304', async () => {
    const res = await image();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=600');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="points-table-${tid}-overall.png"`);
    const { meta } = await decode(res.body as Buffer);
    expect(meta).toMatchObject({ format: 'png', width: 1080, height: 1350 });
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"png\d+-[\w-]+"$/);

    const again = await image('', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=600');
    expect((await image('', { 'if-none-match': `W/${etag}` })).status).toBe(304);
    expect((await image('', { 'if-none-match': '"something-else"' })).status).toBe(200);

    // Each day is its own table; day=0 is the overall one, as on the day table call.
    const day1 = await image('?day=1');
    const day0 = await image('?day=0');
    expect(day1.status).toBe(200);
    expect(day1.headers.get('etag')).not.toBe(etag);
    expect(day0.headers.get('etag')).toBe(etag);
    expect((await decode(day1.body as Buffer)).meta).toMatchObject({ width: 1080, height: 1350 });
  });

  it('matches the golden image of this 25-team table (a broken layout fails)', async () => {
    const res = await image();
    expect(res.status).toBe(200);
    expect(tid).toBe(1);
    const png = res.body as Buffer;
    if (process.env.UPDATE_GOLDEN) {
      fs.writeFileSync(GOLDEN, png);
      fs.mkdirSync(path.dirname(SAMPLE), { recursive: true });
      fs.writeFileSync(SAMPLE, png);
    }
    const golden = await decode(fs.readFileSync(GOLDEN));
    const got = await decode(png);
    expect(got.meta).toMatchObject({ width: golden.meta.width, height: golden.meta.height });
    const { mean, far } = compare(got.raw, golden.raw);
    // Anti-aliasing and a different libvips build may move a few edge pixels, not a row or a column.
    expect(mean).toBeLessThan(1.5);
    expect(far).toBeLessThan(0.004);
  });

  it('a result write changes the ETag (and the pixels); a write elsewhere leaves them', async () => {
    const before = await image('?day=2');
    const beforeEtag = before.headers.get('etag')!;
    const renders = shareImageStats.renders;
    // Another tournament's write bumps the cache generation of its shard, maybe this one's: same image, no new render.
    const other = await createTournament(gw.api, admin, { entryFee: '0' });
    await addLobbyTeams(gw, other.id, ['Somebody Else']);
    const unchanged = await image('?day=2');
    expect(unchanged.headers.get('etag')).toBe(beforeEtag);
    expect(shareImageStats.renders).toBe(renders);

    const rows = matchRows(teams, 3).map((r) => ({ ...r }));
    // Swap first and last place of day 2 match 1.
    const first = rows.find((r) => r.position === 1)!;
    const last = rows.find((r) => r.position === LOBBY)!;
    [first.position, last.position] = [LOBBY, 1];
    await putMatch(2, 1, rows);
    const after = await image('?day=2');
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(beforeEtag);
    expect((await image('?day=2', { 'if-none-match': beforeEtag })).status).toBe(200);
    const { mean } = compare((await decode(after.body as Buffer)).raw, (await decode(before.body as Buffer)).raw);
    expect(mean).toBeGreaterThan(0.1);
    await putMatch(2, 1, matchRows(teams, 3)); // back as it was
    expect((await image('?day=2')).headers.get('etag')).toBe(beforeEtag);
  });

  it('200 simultaneous requests after a write render the image once', async () => {
    // A write: the cached image is stale, the next requests must read and render again.
    await putMatch(1, 2, matchRows(teams, 4));
    const renders = shareImageStats.renders;
    const jobs = imageWorkStats.jobs;
    const answers = await Promise.all(Array.from({ length: 200 }, () => image('?day=1')));
    expect(answers.map((a) => a.status)).toEqual(Array(200).fill(200));
    expect(new Set(answers.map((a) => a.headers.get('etag'))).size).toBe(1);
    expect(new Set(answers.map((a) => (a.body as Buffer).toString('base64'))).size).toBe(1);
    expect(shareImageStats.renders - renders).toBe(1);
    expect(imageWorkStats.jobs - jobs).toBe(1);
    await putMatch(1, 2, matchRows(teams, 2));
  });

  it('names are text: markup is escaped and a right-to-left override changes nothing else', async () => {
    const card = (names: string[]): TableCard => ({
      site: 'Custom Room',
      title: 'Escaping',
      subtitle: 'BGMI · Overall',
      columns: [
        { label: '#', align: 'center', width: 76 },
        { label: 'Team', align: 'start', width: 'fill' },
        { label: 'Total', align: 'end', width: 104 },
      ],
      rows: names.map((n, i) => ({ cells: [String(i + 1), n, '0'] })),
      url: 'http://localhost:3000/x',
      more: (n) => `${n} more`,
      empty: 'none',
    });
    const hostile = [
      '<script>alert(1)</script>',
      '</text><image href="http://x/y.png"/>',
      'a&b"c\'d',
      'Evil\u202Eyrotciv 12',
      '\u2066iso\u2069 \u202Dltr\u202C',
    ];
    const svg = tableCardSvg(card(hostile));
    // Only the elements the renderer draws: none from a name.
    const elements = new Set([...svg.matchAll(/<([a-zA-Z]+)/g)].map((m) => m[1]));
    expect([...elements].sort()).toEqual(['clipPath', 'rect', 'svg', 'text']);
    expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(svg).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
    expect(escapeXml('a\u0000b\u202Ec')).toBe('abc');

    // The override is dropped: the row draws exactly like the same name without it, and the rows around it too.
    const withOverride = await renderTableCard(card(['Before', 'Evil\u202Eyrotciv 12', 'After']));
    const without = await renderTableCard(card(['Before', 'Evilyrotciv 12', 'After']));
    expect(withOverride.equals(without)).toBe(true);
    const reversed = await renderTableCard(card(['Before', 'Evil21 victory', 'After']));
    expect(reversed.equals(without)).toBe(false);

    // Over HTTP the table with these names in the database renders, at the size it should.
    const res = await image();
    expect(res.status).toBe(200);
    expect((await decode(res.body as Buffer)).meta).toMatchObject({ width: 1080, height: 1350 });
  });

  it('a table too long for the card says how many rows it left out; the same layout makes a 1200×630 link card', async () => {
    const card: TableCard = {
      site: 'Custom Room',
      title: 'Big stage',
      subtitle: 'BGMI · Overall',
      columns: [
        { label: '#', align: 'center', width: 76 },
        { label: 'Team', align: 'start', width: 'fill' },
      ],
      rows: Array.from({ length: 100 }, (_, i) => ({ cells: [String(i + 1), `Squad ${i + 1}`] })),
      url: 'http://localhost:3000/x',
      more: (n) => `and ${n} more teams`,
      empty: 'none',
    };
    const drawn = (svg: string) => [...svg.matchAll(/>Squad (\d+)</g)].map((m) => Number(m[1]));
    const portrait = tableCardSvg(card);
    const rows = drawn(portrait);
    expect(rows.length).toBeGreaterThanOrEqual(25);
    expect(rows).toEqual(Array.from({ length: rows.length }, (_, i) => i + 1));
    expect(portrait).toContain(`>and ${100 - rows.length} more teams<`);
    const linkCard = { ...card, maxRows: 8 };
    expect(drawn(tableCardSvg(linkCard, LINK_CARD))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(tableCardSvg(linkCard, LINK_CARD)).toContain('>and 92 more teams<');
    const png = await renderTableCard(linkCard, LINK_CARD);
    expect((await decode(png)).meta).toMatchObject({ format: 'png', width: 1200, height: 630 });
  });

  it('both images are in the OpenAPI document as image/png, with their 304', async () => {
    const doc = (await gw.api.get('/openapi.json')).body;
    for (const p of ['/tournaments/{id}/points-table.png', '/tournaments/{id}/slot-list.png']) {
      const op = doc.paths[p]?.get;
      expect(op, p).toBeDefined();
      expect(op.responses['200'].content['image/png'].schema).toEqual({ type: 'string', format: 'binary' });
      expect(op.responses['304']).toBeDefined();
    }
  });

  it("refuses what the day table refuses: a day out of range, another tournament's or a draft stage's group, a missing tournament", async () => {
    expect((await image('?day=8')).status).toBe(400);
    expect((await image('?day=x')).status).toBe(400);
    expect((await image('?group=999999')).status).toBe(404);
    expect((await image('?stage=999999')).status).toBe(404);
    expect((await gw.api.get('/tournaments/999999/points-table.png')).status).toBe(404);
    expect((await gw.api.get(`/tournaments/${tid}/slot-list.png`)).status).toBe(400);
    expect((await gw.api.get(`/tournaments/${tid}/slot-list.png?group=999999`)).status).toBe(404);
  });

  it("a group's slot list and the group's table, once its stage is published (not while it is a draft)", async () => {
    const t = await createTournament(gw.api, admin, { name: 'Slot Cup', entryFee: '0', maxTeams: '100', pointsSystem: 'bmps-15' });
    await addLobbyTeams(gw, t.id, [
      'Alpha Squad',
      'ब्रावो',
      'Charlie 🚀',
      'Delta Force',
      'Echo Esports',
      'Foxtrot',
      'Golf Gaming',
      'होटल',
      'India Rising',
      'Juliett',
    ]);
    const stage = await gw.api.post(`/tournaments/${t.id}/stages`, { name: 'Qualifiers', lobbySize: 5 }, admin);
    expect(stage.status, JSON.stringify(stage.body)).toBe(201);
    const drawn = await gw.api.post(`/tournaments/${t.id}/stages/${stage.body.id}/groups`, { method: 'registration' }, admin);
    expect(drawn.status, JSON.stringify(drawn.body)).toBe(200);
    const groupA = drawn.body.groups.find((g: { name: string }) => g.name === 'A');
    const url = `/tournaments/${t.id}/slot-list.png?group=${groupA.id}`;
    expect((await gw.api.get(url)).status).toBe(404);
    expect((await gw.api.get(`/tournaments/${t.id}/points-table.png?group=${groupA.id}`)).status).toBe(404);

    const published = await gw.api.post(`/tournaments/${t.id}/stages/${stage.body.id}/publish`, {}, admin);
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const res = await gw.api.get(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=600');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="slot-list-${t.id}-group-${groupA.id}.png"`);
    expect((await decode(res.body as Buffer)).meta).toMatchObject({ format: 'png', width: 1080, height: 1350 });
    expect((await gw.api.request('GET', url, { headers: { 'if-none-match': res.headers.get('etag')! } })).status).toBe(304);
    if (process.env.SCREENSHOTS) fs.writeFileSync(path.resolve('docs/screenshots/slot-list-image.png'), res.body as Buffer);

    // The group's points table, and the stage's.
    const table = await gw.api.get(`/tournaments/${t.id}/points-table.png?group=${groupA.id}&day=1`);
    expect(table.status).toBe(200);
    expect(table.headers.get('content-disposition')).toBe(`inline; filename="points-table-${t.id}-group-${groupA.id}-day-1.png"`);
    const stageTable = await gw.api.get(`/tournaments/${t.id}/points-table.png?stage=${stage.body.id}`);
    expect(stageTable.status).toBe(200);
    expect(stageTable.headers.get('etag')).not.toBe(table.headers.get('etag'));
  });
});
