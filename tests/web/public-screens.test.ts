import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointsRow, tournamentJson } from '../support';
import { captureLogs } from '../support/logs';
import { json, startGatewayStub, thrown, unwrap, useStubEnv, type GatewayStub } from './support/gateway-stub';

let stub: GatewayStub;
let home: typeof import('~/routes/_index');
let list: typeof import('~/routes/tournaments._index');
let detail: typeof import('~/routes/tournaments.$tournamentId');
let points: typeof import('~/routes/tournaments.$tournamentId_.points-table');
let images: typeof import('~/routes/images.$file');

const ID = '3336d05948b5e4a4d5c3b8777a005fb3';

function tournament(over: Record<string, unknown> = {}) {
  return {
    ...tournamentJson({
      id: 1,
      name: 'Monsoon Squad Showdown',
      game: 'BGMI',
      description: 'Three days of custom rooms.',
      // Dates ahead (issue 27: a tournament without stages is completed once its end passed).
      startDate: '2099-03-05T12:30:00.000Z',
      endDate: '2099-03-07T16:30:00.000Z',
      registrationOpen: '2026-02-20T04:30:00.000Z',
      // 5 Mar 2099, 01:30 in India: "Registration closes" shows the Indian date, not the UTC one.
      registrationClose: '2099-03-04T20:00:00.000Z',
      maxTeams: 16,
      format: 'Squad',
      platform: 'Mobile',
      entryFee: 100000,
      prizePool: '₹25,000',
      coverImageUrl: `/images/${ID}.webp`,
      coverImageWidth: 1200,
      coverImageHeight: 675,
      status: 'Registration Ongoing',
      overview: 'League stage, then finals.',
      pointsSystem: 'bgis-10',
      registeredTeams: 12,
    }),
    ...over,
  };
}

const row = (rank: number, teamName: string) => pointsRow({ rank, teamName });
const args = (url: string, params: Record<string, string> = {}, headers: Record<string, string> = {}) => ({
  request: new Request(url, { headers }),
  params,
  context: {},
});
/** The tournament for every path but its stages (none: a tournament without stages, issue 18). */
const tournamentAnswer = (t: ReturnType<typeof tournament>) =>
  stub.answer((req, res) => (req.url.endsWith('/stages') || req.url.endsWith('/announcements') ? json(res, 200, []) : json(res, 200, t)));
/** The gateway is down: the connection drops without an answer. */
const unreachable = () => stub.answer((_req, res) => res.socket?.destroy());

beforeAll(async () => {
  stub = await startGatewayStub();
  await useStubEnv(stub);
  home = await import('~/routes/_index');
  list = await import('~/routes/tournaments._index');
  detail = await import('~/routes/tournaments.$tournamentId');
  points = await import('~/routes/tournaments.$tournamentId_.points-table');
  images = await import('~/routes/images.$file');
});
afterAll(() => stub.close());

describe('home loader', () => {
  it('returns the slide fields only, long dates in India time, finished tournaments last', async () => {
    stub.answer((_req, res) => json(res, 200, [tournament({ id: 9, status: 'Completed' }), tournament({ id: 2, entryFee: 0 })]));
    const { status, body } = unwrap(await home.loader(args('http://localhost/')));
    expect(status).toBe(200);
    expect(body.unavailable).toBe(false);
    expect(body.tournaments.map((t: { id: number }) => t.id)).toEqual([2, 9]);
    expect(body.tournaments[0]).toEqual({
      id: 2,
      name: 'Monsoon Squad Showdown',
      fee: 'Free',
      prize: '₹25,000',
      starts: '05 March 2099',
      closes: '05 March 2099',
      cover: { url: `/images/${ID}.webp`, width: 1200, height: 675 },
      organiser: null,
    });
  });

  it('renders (503) with an "unavailable" flag when the gateway cannot be reached, never an empty list that looks real', async () => {
    const logs = captureLogs();
    unreachable();
    const result = await home.loader(args('http://localhost/'));
    const { status, body } = unwrap(result);
    expect(status).toBe(503);
    expect(logs).toContainEqual(expect.objectContaining({ level: 'error', msg: 'gateway unreachable' }));
    expect(body).toEqual({ tournaments: [], unavailable: true });
    expect(new Headers((result as { init: ResponseInit }).init.headers).get('cache-control')).toBe('no-store');
  });
});

describe('tournament list loader', () => {
  it('returns card fields with the short registration closing date in India time and rupees with Indian grouping', async () => {
    const organiser = { slug: 'xtreme-esports', name: 'Xtreme Esports', logoUrl: `/images/${ID}-128.webp` };
    stub.answer((_req, res) => json(res, 200, [tournament({ organiser })]));
    const result = await list.loader(args('http://localhost/tournaments'));
    const { body } = unwrap(result);
    expect(body.tournaments).toEqual([
      {
        id: 1,
        name: 'Monsoon Squad Showdown',
        fee: '₹1,00,000',
        prize: '₹25,000',
        closes: '5 Mar 2099',
        phase: 'registration-open',
        state: null,
        cover: { url: `/images/${ID}.webp`, width: 1200, height: 675 },
        organiser,
      },
    ]);
    expect(new Headers((result as { init: ResponseInit }).init.headers).get('cache-control')).toBe(
      'public, max-age=30, stale-while-revalidate=60',
    );
  });

  it('is not cacheable for a visitor with a session cookie', async () => {
    stub.answer((_req, res) => json(res, 200, []));
    const result = await list.loader(args('http://localhost/tournaments', {}, { cookie: '__session=x' }));
    expect(new Headers((result as { init: ResponseInit }).init.headers).get('cache-control')).toBe('private, no-store');
  });
});

describe('tournament detail loader', () => {
  it('answers 404 "Tournament not found." for a non-numeric id without asking the gateway', async () => {
    const before = stub.seen.length;
    for (const id of ['abc', '0', '1.5', '-3']) {
      const err = await thrown(() => detail.loader(args(`http://localhost/tournaments/${id}`, { tournamentId: id })));
      expect(unwrap(err)).toEqual({ status: 404, body: { message: 'Tournament not found.' } });
    }
    expect(stub.seen.length).toBe(before);
  });

  it('answers 404 for an id the gateway does not know', async () => {
    stub.answer((_req, res) => json(res, 404, { message: 'Tournament not found.' }));
    const err = await thrown(() => detail.loader(args('http://localhost/tournaments/77', { tournamentId: '77' })));
    expect(unwrap(err)).toEqual({ status: 404, body: { message: 'Tournament not found.' } });
    expect(stub.seen.at(-1)!.url).toBe('/tournaments/77');
  });

  it('shows the closed alert for ?register=closed only when registration is not open', async () => {
    tournamentAnswer(tournament({ status: 'Registration Closed' }));
    const closed = unwrap(await detail.loader(args('http://localhost/tournaments/1?register=closed', { tournamentId: '1' }))).body;
    expect(closed).toMatchObject({ canRegister: false, closedAlert: true });
    const plain = unwrap(await detail.loader(args('http://localhost/tournaments/1', { tournamentId: '1' }))).body;
    expect(plain.closedAlert).toBe(false);

    tournamentAnswer(tournament());
    const open = unwrap(await detail.loader(args('http://localhost/tournaments/1?register=closed', { tournamentId: '1' }))).body;
    expect(open).toMatchObject({ canRegister: true, closedAlert: false });
    expect(open.t.teams).toBe('12 / 16 teams');
  });

  it('builds absolute Open Graph URLs from the request (https behind a trusted proxy: the server puts it in the URL)', async () => {
    tournamentAnswer(tournament());
    const { body } = unwrap(await detail.loader(args('https://play.example.in/tournaments/1', { tournamentId: '1' })));
    expect(body.og.url).toBe('https://play.example.in/tournaments/1');
    // The tournament's 1200×630 card (issue 20, decision 049), not its cover.
    expect(body.og.image).toBe('https://play.example.in/tournaments/1/card.png');
    expect(body.og.description).toContain('Entry ₹1,00,000');
    expect(body.og.description).toContain('Prize pool ₹25,000');
    expect(body.og.description).toContain('5 Mar 2099 to 7 Mar 2099');

    const tags = detail.meta({ data: body } as unknown as Parameters<typeof detail.meta>[0]);
    expect(tags).toContainEqual({ property: 'og:image', content: 'https://play.example.in/tournaments/1/card.png' });
    expect(tags).toContainEqual({ property: 'og:image:type', content: 'image/png' });
    expect(tags).toContainEqual({ property: 'og:image:width', content: '1200' });
    expect(tags).toContainEqual({ name: 'twitter:card', content: 'summary_large_image' });
    expect(tags).toContainEqual({ title: 'Monsoon Squad Showdown | Custom Room' });
  });
});

describe('points table loader', () => {
  function answerPoints(day: string) {
    stub.answer((req, res) => {
      if (req.url === '/tournaments/1') return json(res, 200, tournament());
      if (req.url === `/tournaments/1/points-table/${day}`) return json(res, 200, [row(1, 'Pune Predators'), row(2, 'Goa Gladiators')]);
      // Issue 27: matches on days 1 and 2 only.
      if (req.url === '/tournaments/1/points-table/days') return json(res, 200, { days: [1, 2] });
      return json(res, 404, { message: 'Not found' });
    });
  }

  // Issue 27 item 21: not Day 1 to Day 5 whatever happened, only the days with matches or results.
  it('offers Overall and the days with matches only', async () => {
    answerPoints('overall');
    const { body } = unwrap(await points.loader(args('http://localhost/tournaments/1/points-table', { tournamentId: '1' })));
    expect(body).toMatchObject({ day: 0, days: [0, 1, 2], noMatches: false });
    expect(body.rows).toHaveLength(2);
  });

  it('a day without matches asked for by URL ranks nobody (no rows at 0): it says there are no matches', async () => {
    // The gateway would answer every team of a stage at 0 for day 3.
    answerPoints('day?day=3');
    const { status, body } = unwrap(await points.loader(args('http://localhost/tournaments/1/points-table?day=3', { tournamentId: '1' })));
    expect(status).toBe(200);
    expect(body).toMatchObject({ day: 3, days: [0, 1, 2], noMatches: true, rows: [], breakdown: null, invalidDay: false });
  });

  it('asks for the chosen day', async () => {
    answerPoints('day?day=2');
    const { body } = unwrap(await points.loader(args('http://localhost/tournaments/1/points-table?day=2', { tournamentId: '1' })));
    expect(body).toMatchObject({ t: { id: 1, name: 'Monsoon Squad Showdown' }, day: 2, invalidDay: false });
    expect(body.rows.map((r: { teamName: string }) => r.teamName)).toEqual(['Pune Predators', 'Goa Gladiators']);
  });

  it('shows Overall (day 0) for no day, and for an invalid one with a note', async () => {
    answerPoints('overall');
    expect(unwrap(await points.loader(args('http://localhost/tournaments/1/points-table', { tournamentId: '1' }))).body).toMatchObject({
      day: 0,
      invalidDay: false,
    });
    for (const bad of ['9', 'x']) {
      const { status, body } = unwrap(
        await points.loader(args(`http://localhost/tournaments/1/points-table?day=${bad}`, { tournamentId: '1' })),
      );
      expect(status).toBe(200);
      expect(body).toMatchObject({ day: 0, invalidDay: true });
    }
  });

  it('answers 404 when the tournament does not exist', async () => {
    stub.answer((_req, res) => json(res, 404, { message: 'Tournament not found.' }));
    const err = await thrown(() => points.loader(args('http://localhost/tournaments/5/points-table', { tournamentId: '5' })));
    expect(unwrap(err)).toEqual({ status: 404, body: { message: 'Tournament not found.' } });
  });
});

describe('/images proxy', () => {
  const bytes = Buffer.from('RIFF....WEBPVP8 fake');
  const etag = `"${ID}-800"`;
  function answerImage() {
    stub.answer((req, res) => {
      if (req.url !== `/images/${ID}-800.webp`) return json(res, 404, { message: 'Image not found.' });
      res.setHeader('etag', etag);
      res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      if (req.headers['if-none-match'] === etag) {
        res.statusCode = 304;
        return res.end();
      }
      res.setHeader('content-type', 'image/webp');
      res.end(bytes);
    });
  }
  const get = (file: string, headers: Record<string, string> = {}) =>
    images.loader(args(`http://localhost/images/${file}`, { file }, headers)) as Promise<Response>;

  it('passes the bytes through with type, ETag and a year-long immutable cache', async () => {
    answerImage();
    const res = await get(`${ID}-800.webp`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('etag')).toBe(etag);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(bytes);
  });

  it('forwards If-None-Match and answers 304', async () => {
    answerImage();
    const res = await get(`${ID}-800.webp`, { 'if-none-match': etag });
    expect(res.status).toBe(304);
    expect(res.headers.get('etag')).toBe(etag);
    expect(stub.seen.at(-1)!.headers['if-none-match']).toBe(etag);
  });

  it('answers 404 for names that are not covers, without asking the gateway', async () => {
    const before = stub.seen.length;
    for (const file of ['x.webp', `${ID}-500.webp`, `${ID}.png`, '..%2Fsecret.webp']) expect((await get(file)).status).toBe(404);
    expect(stub.seen.length).toBe(before);
  });

  it('answers 404 when the gateway has no such image, 503 when it cannot be reached', async () => {
    answerImage();
    expect((await get(`${ID}-400.webp`)).status).toBe(404);
    const logs = captureLogs();
    unreachable();
    const res = await get(`${ID}-800.webp`);
    expect(res.status).toBe(503);
    expect(logs).toContainEqual(expect.objectContaining({ level: 'error', msg: 'gateway unreachable', path: `/images/${ID}-800.webp` }));
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  });
});
