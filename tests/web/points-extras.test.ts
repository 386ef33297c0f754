import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addLobbyTeams,
  adminToken,
  createStorage,
  createTournamentWithTeams,
  createUser,
  startGateway,
  type TestGateway,
  type TestUser,
} from '../gateway/helpers';
import { sessionCookie, unwrap, useGatewayEnv } from './support/gateway-stub';
import { renderPage } from './support/render';

// Issue 20 (decision 048, "The points page"): Share on WhatsApp, the viewer's own team marked, and the
// per-match view as a second tab, on the points page and a group's page, from a real gateway.
let gw: TestGateway;
let admin: string;
let players: TestUser[];
let outsider: TestUser;
let points: typeof import('~/routes/tournaments.$tournamentId_.points-table');
let groupPage: typeof import('~/routes/tournaments.$tournamentId_.stages_.$stageId.groups.$groupId');

beforeAll(async () => {
  gw = await startGateway({}, await createStorage());
  admin = await adminToken(gw.api);
  players = [await createUser(gw.api), await createUser(gw.api), await createUser(gw.api)];
  outsider = await createUser(gw.api);
  await useGatewayEnv(gw.url, { timeoutMs: 5000 });
  points = await import('~/routes/tournaments.$tournamentId_.points-table');
  groupPage = await import('~/routes/tournaments.$tournamentId_.stages_.$stageId.groups.$groupId');
});
afterAll(() => gw?.stop());

/** A browser's cookie for this gateway user, as the login action sets it. */
const cookieFor = (user: TestUser) => sessionCookie(user);

async function load(route: typeof points | typeof groupPage, url: string, params: Record<string, string>, cookie?: string) {
  const result = await route.loader({ request: new Request(url, { headers: cookie ? { cookie } : {} }), params, context: {} });
  const { status, body } = unwrap(result);
  expect(status).toBe(200);
  const headers = new Headers((result as { init?: ResponseInit }).init?.headers);
  return { data: body, headers, html: await renderPage(route.default, body, url) };
}
const pointsPage = (tid: number, query: string, cookie?: string) =>
  load(points, `http://localhost/tournaments/${tid}/points-table${query}`, { tournamentId: String(tid) }, cookie);

const row = (teamId: number, position: number, finishes = 0, absent?: boolean) => ({
  teamId,
  position,
  finishes,
  wins: position === 1 ? 1 : 0,
  ...(absent ? { absent } : {}),
});
const put = async (tid: number, day: number, match: number, body: Record<string, unknown>) =>
  expect((await gw.api.put(`/tournaments/${tid}/points-table/matches/${day}/${match}`, body, admin)).status).toBe(200);
/** The <tr> of a team in the page's HTML. */
const rowOf = (html: string, team: string) => html.match(new RegExp(`<tr[^>]*>(?:(?!</tr>).)*${team}(?:(?!</tr>).)*</tr>`))?.[0] ?? '';

describe('the points page extras', () => {
  it('links Share on WhatsApp with the table and its absolute address, in a new tab', async () => {
    const { tid } = await createTournamentWithTeams(gw.api, admin, players, ['Share One', 'Share Two'], { name: 'Monsoon Cup' });
    const { html, data } = await pointsPage(tid, '?day=2');
    const text = `Monsoon Cup — Day 2 points table: http://localhost/tournaments/${tid}/points-table?day=2`;
    expect(data.whatsApp).toBe(`https://wa.me/?text=${encodeURIComponent(text)}`);
    expect(html).toContain(
      `<a href="${data.whatsApp}" target="_blank" rel="noopener noreferrer" class="pt-share-wa">Share on WhatsApp<span class="visually-hidden"> (opens in a new tab)</span></a>`,
    );
    // The per-match view shares its own address; Overall says so.
    const overall = await pointsPage(tid, '?day=0&view=matches');
    expect(decodeURIComponent(overall.data.whatsApp)).toBe(
      `https://wa.me/?text=Monsoon Cup — Overall points table: http://localhost/tournaments/${tid}/points-table?day=0&view=matches`,
    );
  });

  it("marks a signed-in member's own team in words; the page is then never shared-cached; others see no mark", async () => {
    const { tid, teams } = await createTournamentWithTeams(gw.api, admin, players, ['Mine Alpha', 'Mine Bravo', 'Mine Charlie']);
    const [a, b, c] = teams.map((t) => t.rid) as [number, number, number];
    await put(tid, 1, 1, { results: [row(a, 1, 5), row(b, 2, 3), row(c, 3, 1)] });

    const anonymous = await pointsPage(tid, '?day=1');
    expect(anonymous.headers.get('Cache-Control')).toContain('public');
    expect(anonymous.html).not.toContain('(your team)');
    expect(anonymous.html).not.toContain('pt-mine');

    // players[1] captains Mine Bravo: its row, and only its row, is marked, in both views.
    const member = await cookieFor(players[1]!);
    for (const query of ['?day=1', '?day=1&view=matches']) {
      const { html, headers } = await pointsPage(tid, query, member);
      expect(headers.get('Cache-Control')).toBe('private, no-store');
      const mine = rowOf(html, 'Mine Bravo');
      expect(mine).toContain('<tr class="top top2 pt-mine" aria-current="true">');
      expect(mine).toContain('aria-current="true"');
      expect(mine).toContain(
        'Mine Bravo <span class="pt-you" aria-hidden="true">You</span><span class="visually-hidden">(your team)</span>',
      );
      expect(html.match(/\(your team\)/g)).toHaveLength(1);
      expect(rowOf(html, 'Mine Alpha')).toContain('class="top top1"');
      // Both views offer the table's image (the standings as a picture to post, decision 049).
      expect(html).toContain(`href="/tournaments/${tid}/points-table.png?day=1" download=""`);
    }

    // Signed in without a team here: the page shows, without a mark.
    const stranger = await pointsPage(tid, '?day=1', await cookieFor(outsider));
    expect(stranger.html).toContain('Mine Bravo');
    expect(stranger.html).not.toContain('(your team)');
  });

  it('shows Standings and Per match as two links; per match: placement · finishes for each team in each match', async () => {
    const { tid, teams } = await createTournamentWithTeams(gw.api, admin, players, ['Per Alpha', 'Per Bravo', 'Per Charlie']);
    const [a, b, c] = teams.map((t) => t.rid) as [number, number, number];
    await put(tid, 1, 1, { results: [row(a, 1, 5), row(b, 2, 3), row(c, 3, 1)] });
    await put(tid, 1, 2, { results: [row(b, 1, 2), row(a, 3, 0)] });
    await put(tid, 2, 1, { results: [row(c, 1, 4), row(a, 0, 2)] });

    const standings = await pointsPage(tid, '?day=1');
    expect(standings.html).toContain('<nav aria-label="Table view" class="days pt-tabs">');
    expect(standings.html).toContain(
      `<a aria-current="page" data-discover="true" href="/tournaments/${tid}/points-table?day=1">Standings</a>`,
    );
    expect(standings.html).toContain(
      `<a data-discover="true" href="/tournaments/${tid}/points-table?day=1&amp;view=matches">Per match</a>`,
    );
    expect(standings.html).not.toContain('pt-matches');

    const { html, data } = await pointsPage(tid, '?day=1&view=matches');
    expect(data.rows).toEqual([]);
    expect(html).toContain(
      `<a aria-current="page" data-discover="true" href="/tournaments/${tid}/points-table?day=1&amp;view=matches">Per match</a>`,
    );
    // The day links keep the view.
    expect(html).toContain(`href="/tournaments/${tid}/points-table?day=2&amp;view=matches"`);
    expect(html).toContain('<div class="tscroll" role="region" aria-labelledby="pt-caption" tabindex="0"><table class="pt pt-matches">');
    expect(html).toContain('<caption id="pt-caption">Day 1 standings: per match</caption>');
    expect(html).toContain('<span aria-hidden="true">M1</span><span class="visually-hidden">Match 1</span>');
    expect(html).toContain('<span aria-hidden="true">M2</span><span class="visually-hidden">Match 2</span>');
    const cell = (short: string, long: string) =>
      `<td class="pt-cell"><span aria-hidden="true">${short}</span><span class="visually-hidden">${long}</span></td>`;
    // Table order (ranked), one cell per match, then the total.
    expect(html.indexOf('Per Bravo')).toBeLessThan(html.indexOf('Per Alpha'));
    expect(rowOf(html, 'Per Alpha')).toContain(cell('1 · 5', '1st, 5 finishes') + cell('3 · 0', '3rd, 0 finishes'));
    expect(rowOf(html, 'Per Bravo')).toContain(cell('2 · 3', '2nd, 3 finishes') + cell('1 · 2', '1st, 2 finishes'));
    expect(rowOf(html, 'Per Charlie')).toContain(cell('3 · 1', '3rd, 1 finish') + cell('–', 'no result'));

    // Overall: a column per match of every day, named by day and match.
    const overall = await pointsPage(tid, '?day=0&view=matches');
    expect(overall.html).toContain('<span aria-hidden="true">D2·M1</span><span class="visually-hidden">Day 2, match 1</span>');
    expect(rowOf(overall.html, 'Per Alpha')).toContain(cell('– · 2', 'not placed, 2 finishes'));
    // Any other view value is the standings, as before.
    expect((await pointsPage(tid, '?day=1&view=x')).html).toContain(
      `<a aria-current="page" data-discover="true" href="/tournaments/${tid}/points-table?day=1">Standings</a>`,
    );
    // A day without matches says so in either view (issue 27: not a table of teams at 0).
    expect((await pointsPage(tid, '?day=4&view=matches')).html).toContain('No matches on Day 4 yet.');
  });

  it("a group's page: both views, the slot, absent teams, the own team, and sharing the group's table", async () => {
    const { tid, teams } = await createTournamentWithTeams(gw.api, admin, players, ['Grp Alpha', 'Grp Bravo', 'Grp Charlie'], {
      name: 'Group Cup',
      entryFee: '0',
    });
    await addLobbyTeams(gw, tid, 5);
    const stage = (await gw.api.post(`/tournaments/${tid}/stages`, { name: 'Qualifiers', lobbySize: 4 }, admin)).body;
    const drawn = (await gw.api.post(`/tournaments/${tid}/stages/${stage.id}/groups`, { method: 'registration' }, admin)).body;
    expect((await gw.api.post(`/tournaments/${tid}/stages/${stage.id}/publish`, {}, admin)).status).toBe(200);
    const match = { day: 1, matchNo: 1, map: 'Erangel', time: '18:00' };
    expect((await gw.api.post(`/tournaments/${tid}/stages/${stage.id}/matches`, { matches: [match] }, admin)).status).toBe(200);
    const group = drawn.groups.find((g: any) => g.slots.some((s: any) => s.teamId === teams[0]!.rid));
    const members = [...group.slots].sort((p: any, q: any) => p.slot - q.slot).map((s: any) => s.teamId as number);
    await put(tid, 1, 1, { groupId: group.id, results: members.map((id, i) => (i === 3 ? row(id, 0, 0, true) : row(id, i + 1, 3 - i))) });

    const url = `http://localhost/tournaments/${tid}/stages/${stage.id}/groups/${group.id}`;
    const params = { tournamentId: String(tid), stageId: String(stage.id), groupId: String(group.id) };
    const cookie = await cookieFor(players[0]!);
    const { html, data } = await load(groupPage, `${url}?day=1&view=matches`, params, cookie);
    expect(html).toContain(`<a data-discover="true" href="/tournaments/${tid}/stages/${stage.id}/groups/${group.id}?day=1">Standings</a>`);
    expect(html).toContain(`<caption id="pt-caption">Group ${group.name}: Day 1 standings: per match</caption>`);
    expect(html).toContain('<th scope="col">Slot</th>');
    expect(html).toContain('<span aria-hidden="true">abs</span><span class="visually-hidden">absent</span>');
    expect(rowOf(html, 'Grp Alpha')).toContain('(your team)');
    expect(decodeURIComponent(data.whatsApp)).toBe(
      `https://wa.me/?text=Group Cup — Qualifiers · Group ${group.name}, Day 1 points table: ${url}?day=1&view=matches`,
    );
    // The standings view as before, with the own team marked too.
    const standings = await load(groupPage, `${url}?day=1`, params, cookie);
    expect(standings.html).toContain(`<caption id="pt-caption">Group ${group.name}: Day 1 standings</caption>`);
    expect(rowOf(standings.html, 'Grp Alpha')).toContain('aria-current="true"');
    expect(standings.html).toContain('Share on WhatsApp');
    // Beside it, the group's table as an image to post (decision 049).
    expect(standings.html).toContain(
      `<a href="/tournaments/${tid}/points-table.png?day=1&amp;stage=${stage.id}&amp;group=${group.id}" download="" class="pt-share-image">Download image</a>`,
    );
  });
});
