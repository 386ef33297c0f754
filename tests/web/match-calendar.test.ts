import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminToken,
  createStorage,
  createTournamentWithTeams,
  createUser,
  matchFields,
  startGateway,
  type TestGateway,
  type TestUser,
} from '../gateway/helpers';
import { sessionCookie, thrown, unwrap, useGatewayEnv } from './support/gateway-stub';
import { renderPage } from './support/render';

// Issue 20 (decision 050): /tournament/{id}/matches.ics, the team's matches as an iCalendar file, from a real
// gateway, read back with a parser package (ical.js) that takes the zone from the file's own VTIMEZONE.
let gw: TestGateway;
let admin: string;
let players: TestUser[];
let calendar: typeof import('~/routes/tournament.$tournamentId.matches[.ics]');
let matchesPage: typeof import('~/routes/tournament.$tournamentId.matches/route');
let util: typeof import('~/utils/match-calendar.server');

beforeAll(async () => {
  gw = await startGateway({}, await createStorage());
  admin = await adminToken(gw.api);
  players = await Promise.all(Array.from({ length: 5 }, () => createUser(gw.api)));
  await useGatewayEnv(gw.url, { timeoutMs: 5000, env: { APP_TIME_ZONE: 'Asia/Kolkata' } });
  calendar = await import('~/routes/tournament.$tournamentId.matches[.ics]');
  matchesPage = await import('~/routes/tournament.$tournamentId.matches/route');
  util = await import('~/utils/match-calendar.server');
});
afterAll(() => gw?.stop());

// 1 June 2030, noon in India: day 1 is 1 June, day 2 is 2 June (IST, the app's zone).
const START = '2030-06-01T06:30:00.000Z';
const ORIGIN = 'https://cup.example.in';

const args = (request: Request, tid: number) => ({ request, params: { tournamentId: String(tid) }, context: {} });

const cookieFor = (player: TestUser) => sessionCookie(player, ORIGIN);

/** GET /tournament/{tid}/matches.ics as the player (or signed out). */
async function download(tid: number, player: TestUser | null, origin = ORIGIN) {
  const url = `${origin}/tournament/${tid}/matches.ics`;
  const request = new Request(url, player ? { headers: { cookie: await cookieFor(player) } } : {});
  return (await calendar.loader(args(request, tid))) as Response;
}

interface Read {
  uid: string;
  summary: string;
  location: string;
  description: string;
  url: string;
  start: string;
  end: string;
  zone: string;
}

/** The file as a calendar app reads it: ical.js, with only the file's own VTIMEZONE to go by. */
function parse(text: string): { events: Read[]; calendar: ICAL.Component } {
  const comp = new ICAL.Component(ICAL.parse(text));
  for (const tz of comp.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
  const events = comp.getAllSubcomponents('vevent').map((v) => {
    const e = new ICAL.Event(v);
    return {
      uid: e.uid,
      summary: e.summary,
      location: e.location,
      description: e.description,
      url: String(v.getFirstPropertyValue('url')),
      start: e.startDate.toJSDate().toISOString(),
      end: e.endDate.toJSDate().toISOString(),
      zone: e.startDate.zone?.tzid ?? '',
    };
  });
  return { events, calendar: comp };
}

/** A tournament (free entry: every team confirmed, so the gateway sends it the rooms) with the first players' teams. */
async function tournamentWithTeams(n: number, overrides: Record<string, string> = {}) {
  const names = Array.from({ length: n }, (_, i) => `Squad ${i} ${Date.now().toString(36)}`);
  return createTournamentWithTeams(gw.api, admin, players, names, {
    entryFee: '0',
    startDate: START,
    endDate: '2030-06-03T06:30:00.000Z',
    maxTeams: '100',
    ...overrides,
  });
}

async function addMatch(tid: number, fields: Record<string, unknown>) {
  const res = await gw.api.post('/matches', matchFields(tid, fields), admin);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number };
}

describe('the match calendar of a tournament without stages', () => {
  it('has one event per match in IST with a stable UID, the map and a link to the room card, never the room', async () => {
    const { tid } = await tournamentWithTeams(1, { name: 'Monsoon Cup 2030!' });
    const a = await addMatch(tid, { day: 1, matchNo: 1, map: 'Erangel', time: '18:30', matchId: 'ROOM918273', password: 'pw#Secret1' });
    const b = await addMatch(tid, { day: 2, matchNo: 2, map: 'Miramar', time: '20:15', matchId: 'ROOM564738', password: 'pw#Secret2' });
    // The player does get the rooms from the gateway (free entry): the calendar leaves them out.
    const seen = (await gw.api.get(`/matches/tournament/${tid}`, players[0]!.token)).body as { matchId: string }[];
    expect(seen.map((m) => m.matchId).sort()).toEqual(['ROOM564738', 'ROOM918273']);

    const res = await download(tid, players[0]!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="monsoon-cup-2030-matches.ics"');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const text = await res.text();
    for (const secret of ['ROOM918273', 'ROOM564738', 'pw#Secret1', 'pw#Secret2', 'Secret']) expect(text).not.toContain(secret);
    expect(text).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(text).toContain('BEGIN:VTIMEZONE\r\nTZID:Asia/Kolkata\r\n');
    expect(text).toContain('DTSTART;TZID=Asia/Kolkata:20300601T183000\r\n');
    expect(text).toMatch(/\r\nDTSTAMP:\d{8}T\d{6}Z\r\n/); // DTSTAMP in UTC, as RFC 5545 wants

    const { events } = parse(text);
    expect(events).toEqual([
      {
        uid: `match-${a.id}@cup.example.in`,
        summary: 'Monsoon Cup 2030! · Day 1 · Match 1',
        location: 'Erangel',
        description: `Map: Erangel\nRoom ID and password on the matches page: ${ORIGIN}/tournament/${tid}/matches#match-${a.id}`,
        url: `${ORIGIN}/tournament/${tid}/matches#match-${a.id}`,
        start: '2030-06-01T13:00:00.000Z', // 18:30 IST
        end: '2030-06-01T13:30:00.000Z', // BGMI: 30 minutes
        zone: 'Asia/Kolkata',
      },
      {
        uid: `match-${b.id}@cup.example.in`,
        summary: 'Monsoon Cup 2030! · Day 2 · Match 2',
        location: 'Miramar',
        description: `Map: Miramar\nRoom ID and password on the matches page: ${ORIGIN}/tournament/${tid}/matches#match-${b.id}`,
        url: `${ORIGIN}/tournament/${tid}/matches#match-${b.id}`,
        start: '2030-06-02T14:45:00.000Z', // day 2, 20:15 IST
        end: '2030-06-02T15:15:00.000Z',
        zone: 'Asia/Kolkata',
      },
    ]);
  });

  it('keeps the UIDs across downloads and edits; the edited time and map follow', async () => {
    const { tid } = await tournamentWithTeams(1);
    const a = await addMatch(tid, { day: 1, matchNo: 1, time: '18:30' });
    const b = await addMatch(tid, { day: 1, matchNo: 2, map: 'Sanhok', time: '19:15' });
    const first = parse(await (await download(tid, players[0]!)).text()).events;
    const second = parse(await (await download(tid, players[0]!)).text()).events;
    expect(second).toEqual(first);
    expect(first.map((e) => e.uid)).toEqual([`match-${a.id}@cup.example.in`, `match-${b.id}@cup.example.in`]);

    const edit = await gw.api.put(`/matches/${b.id}`, matchFields(tid, { day: 1, matchNo: 2, map: 'Vikendi', time: '21:00' }), admin);
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    const third = parse(await (await download(tid, players[0]!)).text()).events;
    expect(third.map((e) => e.uid)).toEqual(first.map((e) => e.uid));
    expect(third[1]).toMatchObject({ location: 'Vikendi', start: '2030-06-01T15:30:00.000Z', end: '2030-06-01T16:00:00.000Z' });
    expect(third[0]).toEqual(first[0]);

    // With PUBLIC_URL set, the site reached by another address (an IP, a second domain) writes the same
    // UIDs and links: a re-import updates the events instead of adding copies.
    process.env.PUBLIC_URL = ORIGIN;
    (await import('~/utils/env.server')).resetEnvForTests();
    try {
      const elsewhere = parse(await (await download(tid, players[0]!, 'http://10.0.0.5:3000')).text()).events;
      expect(elsewhere.map((e) => [e.uid, e.url])).toEqual(third.map((e) => [e.uid, e.url]));
    } finally {
      delete process.env.PUBLIC_URL;
      (await import('~/utils/env.server')).resetEnvForTests();
    }
  });

  it('a Free Fire match lasts 20 minutes; a name without Latin letters names the file by the tournament id', async () => {
    const { tid } = await tournamentWithTeams(1, { game: 'Free Fire', name: 'मानसून कप' });
    await addMatch(tid, { day: 1, matchNo: 1, map: 'Bermuda', time: '18:30' });
    const res = await download(tid, players[0]!);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="tournament-${tid}-matches.ics"`);
    const [event] = parse(await res.text()).events;
    expect(event).toMatchObject({
      summary: 'मानसून कप · Day 1 · Match 1',
      start: '2030-06-01T13:00:00.000Z',
      end: '2030-06-01T13:20:00.000Z',
    });
  });

  it('an empty schedule is a valid calendar with no events', async () => {
    const { tid } = await tournamentWithTeams(1);
    const res = await download(tid, players[0]!);
    expect(res.status).toBe(200);
    const { events, calendar: comp } = parse(await res.text());
    expect(events).toEqual([]);
    expect(comp.getFirstPropertyValue('prodid')).toBe('-//Custom Room//Match calendar//EN');
  });
});

describe('the match calendar of a tournament with stages', () => {
  it("has the team's own group's matches, named with stage and group, and not the other group's", async () => {
    const { tid } = await tournamentWithTeams(4, { name: 'Stage Cup' });
    const stage = await gw.api.post(`/tournaments/${tid}/stages`, { name: 'Qualifiers', lobbySize: 2 }, admin);
    expect(stage.status, JSON.stringify(stage.body)).toBe(201);
    const base = `/tournaments/${tid}/stages/${stage.body.id}`;
    // By registration: teams 0 and 1 in group A, 2 and 3 in group B.
    expect((await gw.api.post(`${base}/groups`, { method: 'registration' }, admin)).status).toBe(200);
    expect((await gw.api.post(`${base}/publish`, {}, admin)).status).toBe(200);
    const scheduled = await gw.api.post(
      `${base}/matches`,
      {
        matches: [
          { day: 1, matchNo: 1, map: 'Erangel', time: '18:00' },
          { day: 1, matchNo: 2, map: 'Miramar', time: '18:45' },
        ],
      },
      admin,
    );
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    const matches = scheduled.body as { id: number; groupName: string; matchNo: number }[];
    const rooms = matches.map((m) => ({
      id: m.id,
      matchId: `ROOM${m.groupName}${m.matchNo}X`,
      password: `PASS${m.groupName}${m.matchNo}Y`,
    }));
    expect((await gw.api.put(`${base}/rooms`, { rooms }, admin)).status).toBe(200);

    for (const [player, group] of [
      [players[0]!, 'A'],
      [players[3]!, 'B'],
    ] as const) {
      const text = await (await download(tid, player)).text();
      const { events } = parse(text);
      const ids = matches.filter((m) => m.groupName === group).map((m) => `match-${m.id}@cup.example.in`);
      expect(events.map((e) => e.uid)).toEqual(ids);
      expect(events.map((e) => e.summary)).toEqual([
        `Stage Cup · Day 1 · Match 1 · Qualifiers · Group ${group}`,
        `Stage Cup · Day 1 · Match 2 · Qualifiers · Group ${group}`,
      ]);
      expect(events.map((e) => e.start)).toEqual(['2030-06-01T12:30:00.000Z', '2030-06-01T13:15:00.000Z']);
      expect(text).not.toMatch(/ROOM|PASS/);
    }
  });
});

describe('who gets the calendar', () => {
  it('signed out: the login, coming back to the file', async () => {
    const { tid } = await tournamentWithTeams(1);
    const res = (await thrown(() => download(tid, null))) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/login?${new URLSearchParams({ redirectTo: `/tournament/${tid}/matches.ics` })}`);
  });

  it('a player without a team, an admin, a withdrawn team and an unknown tournament: 404 in words, no calendar', async () => {
    const { tid } = await tournamentWithTeams(2);
    await addMatch(tid, { day: 1, matchNo: 1, matchId: 'ROOM111222', password: 'PASS333444' });
    const outsider = players[4]!;
    const cases: [TestUser, number, string][] = [
      [outsider, tid, 'You have not registered a team for this tournament.'],
      [{ ...players[0]!, token: admin, username: 'admin' }, tid, 'You have not registered a team for this tournament.'],
      [players[0]!, 987654321, 'Tournament not found.'],
    ];
    expect((await gw.api.post(`/registrations/${tid}/withdraw`, {}, players[1]!.token)).status).toBe(200);
    cases.push([players[1]!, tid, 'Your team no longer has a place in this tournament.']);
    for (const [who, id, message] of cases) {
      const res = await download(id, who);
      expect(res.status, message).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      const body = await res.text();
      expect(body).toBe(message);
    }
  });

  it('the matches page links "Add to calendar" for the team only; it is a plain link', async () => {
    const { tid } = await tournamentWithTeams(1);
    await addMatch(tid, { day: 1, matchNo: 1 });
    const load = async (player: TestUser) => {
      const request = new Request(`${ORIGIN}/tournament/${tid}/matches`, { headers: { cookie: await cookieFor(player) } });
      const data = unwrap(await matchesPage.loader(args(request, tid))).body;
      return { data, html: await renderPage(matchesPage.default, data) };
    };
    const team = await load(players[0]!);
    expect(team.data.calendar).toBe(`/tournament/${tid}/matches.ics`);
    expect(team.html).toContain(`<a class="button button-secondary" href="/tournament/${tid}/matches.ics" download="">Add to calendar</a>`);
    const outsider = await load(players[4]!);
    expect(outsider.data.calendar).toBeNull();
    expect(outsider.html).not.toContain('Add to calendar');
  });

  it('names files and words summaries', () => {
    expect(util.calendarFileName({ id: 3, name: '  Café Clash: Season #2 ' })).toBe('cafe-clash-season-2-matches.ics');
    expect(util.matchMinutes('BGMI')).toBe(30);
    expect(util.matchMinutes('free fire max')).toBe(20);
    const m = { id: 1, day: 3, matchNo: 4, map: 'Erangel', time: '18:00', matchId: null, password: null };
    expect(util.eventSummary('Cup', { ...m, groupId: null, groupName: null, stageId: null, stageName: null })).toBe(
      'Cup · Day 3 · Match 4',
    );
    expect(util.eventSummary('Cup', { ...m, groupId: 2, groupName: 'C', stageId: 1, stageName: 'Finals' })).toBe(
      'Cup · Day 3 · Match 4 · Finals · Group C',
    );
  });
});
