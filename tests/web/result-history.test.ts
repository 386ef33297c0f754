import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyEntry, resultText } from '~/utils/result-history';
import { FakeClock } from '../../gateway/src/lib/clock.js';
import {
  adminToken,
  createStorage,
  createTournamentWithTeams,
  createUser,
  startGateway,
  type TestGateway,
  type TestUser,
} from '../gateway/helpers';
import { unwrap, useGatewayEnv } from './support/gateway-stub';
import { renderPage } from './support/render';

// Issue 20 (decision 048): the public points page's "Result history", from a real gateway.
let gw: TestGateway;
let admin: string;
let players: TestUser[];
let points: typeof import('~/routes/tournaments.$tournamentId_.points-table');
// 26 Nov 2026, 9:05 pm in India (the app's time zone).
const clock = new FakeClock(Date.parse('2026-11-26T15:35:00.000Z'));
// Registration opens before the clock's day (the builders' window is relative to the real date).
const OPEN = { registrationOpen: '2026-11-25T00:00:00.000Z' };

beforeAll(async () => {
  gw = await startGateway({}, await createStorage(), { clock });
  admin = await adminToken(gw.api);
  players = [await createUser(gw.api), await createUser(gw.api), await createUser(gw.api)];
  await useGatewayEnv(gw.url, { timeoutMs: 5000 });
  points = await import('~/routes/tournaments.$tournamentId_.points-table');
});
afterAll(() => gw?.stop());

const page = async (tid: number) => {
  const loaded = unwrap(
    await points.loader({
      request: new Request(`http://localhost/tournaments/${tid}/points-table`),
      params: { tournamentId: String(tid) },
      context: {},
    }),
  );
  expect(loaded.status).toBe(200);
  return { data: loaded.body, html: await renderPage(points.default, loaded.body) };
};

describe('Result history on the points page', () => {
  it('says "No corrections." until a result is edited; first entries are not corrections', async () => {
    const { tid, teams } = await createTournamentWithTeams(gw.api, admin, players, ['Pune Predators', 'Goa Gladiators'], OPEN);
    expect((await page(tid)).html).toContain('<h2 id="rh-title">Result history</h2>');
    expect((await page(tid)).html).toContain('No corrections.');
    const first = await gw.api.post(
      `/tournaments/${tid}/points-table`,
      { day: 1, match: 2, teamId: teams[0]!.rid, position: 2, finishes: 4 },
      admin,
    );
    expect(first.status).toBe(200);
    const { html } = await page(tid);
    expect(html).toContain('No corrections.');
    expect(html).toContain('Pune Predators'); // in the table, not in the history
  });

  it('lists an edit on one line, and a swap saved in one call as one correction of two teams', async () => {
    const { tid, teams } = await createTournamentWithTeams(gw.api, admin, players, ['Delhi Dragons', 'Kochi Kings'], OPEN);
    const [a, b] = teams.map((t) => t.rid) as [number, number];
    const post = (body: Record<string, unknown>) => gw.api.post(`/tournaments/${tid}/points-table`, { day: 1, match: 2, ...body }, admin);
    expect((await post({ teamId: a, position: 2, finishes: 4 })).status).toBe(200);
    expect((await post({ teamId: a, position: 1, finishes: 3 })).status).toBe(200);
    let { html } = await page(tid);
    expect(html).not.toContain('No corrections.');
    expect(html).toContain(
      'Day 1 · Match 2 · Delhi Dragons: 2nd, 0 wins, 4 finishes → 1st, 1 win, 3 finishes · by admin, <time dateTime="2026-11-26T15:35:00.000Z">26 Nov 2026, 9:05 pm</time>',
    );

    clock.advance(10 * 60_000);
    const put = (results: unknown[]) => gw.api.put(`/tournaments/${tid}/points-table/matches/2/3`, { results }, admin);
    expect(
      (
        await put([
          { teamId: a, position: 1, finishes: 3 },
          { teamId: b, position: 2, finishes: 1 },
        ])
      ).status,
    ).toBe(200);
    expect(
      (
        await put([
          { teamId: a, position: 2, finishes: 3 },
          { teamId: b, position: 1, finishes: 1 },
        ])
      ).status,
    ).toBe(200);
    ({ html } = await page(tid));
    expect(html).toContain(
      'Day 2 · Match 3 · by admin, <time dateTime="2026-11-26T15:45:00.000Z">26 Nov 2026, 9:15 pm</time>, one correction of 2 teams:',
    );
    expect(html).toContain('<li>Delhi Dragons: 1st, 1 win, 3 finishes → 2nd, 0 wins, 3 finishes</li>');
    expect(html).toContain('<li>Kochi Kings: 2nd, 0 wins, 1 finish → 1st, 1 win, 1 finish</li>');
    // Newest first: the swap before the single edit.
    expect(html.indexOf('Day 2 · Match 3')).toBeLessThan(html.indexOf('Day 1 · Match 2 · Delhi Dragons'));
    expect(html).not.toContain('corrections are shown');
  });

  it('words removals, absent teams, unplaced teams and group matches', () => {
    expect(resultText(null)).toBe('removed');
    expect(resultText({ position: 0, wins: 0, finishes: 0, absent: true })).toBe('absent');
    expect(resultText({ position: 0, wins: 0, finishes: 2 })).toBe('not placed, 0 wins, 2 finishes');
    expect(resultText({ position: 11, wins: 0, finishes: 1 })).toBe('11th, 0 wins, 1 finish');
    expect(resultText({ position: 23, wins: 0, finishes: 0 })).toBe('23rd, 0 wins, 0 finishes');
    const entry = historyEntry(
      {
        changeId: 4,
        changedAt: '2026-11-26T15:35:00.000Z',
        changedBy: 'referee',
        day: 1,
        match: 1,
        groupId: 9,
        groupName: 'A',
        stageName: 'Qualifiers',
        teams: [{ teamId: 1, teamName: 'Team X', before: { position: 4, wins: 0, finishes: 0 }, after: null }],
      },
      'Asia/Kolkata',
    );
    expect(entry.match).toBe('Day 1 · Match 1 · Qualifiers · Group A');
    expect(entry.teams).toEqual(['Team X: 4th, 0 wins, 0 finishes → removed']);
  });
});
