// Issue 30, decision 073: placement-order entry. Staff type the slots as the game's result list shows them
// ("7 12 3 …"), then the finishes in the same order; the list readers are pure (the lobby view reads them too),
// and a group's results page takes the two steps as plain posts that save through the grid's own call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '~/utils/gateway.server';
import {
  listEntries,
  PLACEMENT_INTENT,
  placementRows,
  readFinishOrder,
  readSlotOrder,
  savedLists,
  slotRanges,
  type PlacementIntent,
} from '~/utils/results-entry';
import { placementOrderAction, type ResultRow } from '~/utils/results-entry.server';
import { tournamentJson } from '../support';
import { renderPage } from '../support/render';
import { organiserCalls, startGatewayStub, unwrap, useStubEnv, type GatewayStub } from './support/gateway-stub';

const team = (slot: number, teamId: number, teamName = `Team ${teamId}`) => ({ slot, teamId, teamName });
/** Group A: slots 1–4 and 6 (slot 5 emptied by a move). */
const TEAMS = [team(1, 101), team(2, 102), team(3, 103), team(4, 104), team(6, 106)];

describe('the list readers', () => {
  it('split a list on spaces, commas, semicolons and new lines', () => {
    expect(listEntries(' 7 12,3;\n4\r\n, 5 ')).toEqual(['7', '12', '3', '4', '5']);
    expect(listEntries(' \n ,')).toEqual([]);
  });

  it("say a lobby's slots as ranges", () => {
    expect(slotRanges([3, 1, 2, 25, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24])).toBe('1–25');
    expect(slotRanges([1, 2, 3, 4, 6])).toBe('1–4 and 6');
    expect(slotRanges([1, 3, 5, 6, 9])).toBe('1, 3, 5–6 and 9');
  });

  it('read the slots into the teams in the typed order, 1st place first', () => {
    expect(readSlotOrder('6 2, 4', TEAMS, 'Group A')).toEqual({ ok: true, items: [TEAMS[4], TEAMS[1], TEAMS[3]] });
  });

  it('refuse an empty list, entries that are not numbers, slots outside the lobby and slots listed twice', () => {
    const error = (text: string) => {
      const read = readSlotOrder(text, TEAMS, 'Group A');
      return read.ok ? null : read.error;
    };
    expect(error(' , ')).toBe('Type the slot numbers in the order of the result list, 1st place first (for example 7 12 3).');
    expect(error('7a 3 x 7a -1')).toBe('“7a”, “x” and “-1” are not slot numbers: type whole numbers only, separated by spaces or commas.');
    expect(error('1 2.5')).toBe('“2.5” is not a slot number: type whole numbers only, separated by spaces or commas.');
    expect(error('1 31')).toBe('Slot 31 is not in Group A (slots 1–4 and 6).');
    expect(error('5 31 5')).toBe('Slots 5 and 31 are not in Group A (slots 1–4 and 6).');
    expect(error('2 1 2 3 2')).toBe('Slot 2 is listed 3 times (1st, 3rd and 5th place).');
    expect(error('0 1 4 1 4 3 4 2 6 11 12 13 4')).toBe(
      'Slots 0, 11, 12 and 13 are not in Group A (slots 1–4 and 6). Slot 1 is listed twice (2nd and 4th place). ' +
        'Slot 4 is listed 4 times (3rd, 5th, 7th and 13th place).',
    );
  });

  it('read the finishes in the same order: none typed is none, one number for each slot', () => {
    expect(readFinishOrder(' ', 3)).toEqual({ ok: true, items: null });
    expect(readFinishOrder('2,0\n5', 3)).toEqual({ ok: true, items: [2, 0, 5] });
    expect(readFinishOrder('2 0', 3)).toEqual({
      ok: false,
      error: '3 slots listed but 2 numbers of finishes: type one for each slot, in the same order.',
    });
    expect(readFinishOrder('2 o 5', 3)).toEqual({
      ok: false,
      error: '“o” is not a number of finishes: type whole numbers only, separated by spaces or commas.',
    });
  });

  it('place the listed teams 1..n in the typed order and mark every other team of the lobby absent', () => {
    expect(placementRows([106, 102], [3, 0], [101, 102, 103, 106])).toEqual([
      { teamId: 106, position: 1, finishes: 3 },
      { teamId: 102, position: 2, finishes: 0 },
      { teamId: 101, position: 0, finishes: 0, absent: true },
      { teamId: 103, position: 0, finishes: 0, absent: true },
    ]);
  });

  it('give the saved results back as the two lists only when they read as a list', () => {
    const rows = (r: Record<number, [number, number, boolean?]>) => (id: number) =>
      r[id] ? { position: r[id][0], finishes: r[id][1], absent: r[id][2] ?? false } : undefined;
    expect(savedLists(TEAMS, rows({ 104: [1, 5], 101: [3, 0], 106: [2, 2], 102: [0, 0, true] }))).toEqual({
      slots: '4 6 1',
      finishes: '5 2 0',
    });
    const none = { slots: '', finishes: '' };
    expect(savedLists(TEAMS, rows({}))).toEqual(none);
    expect(savedLists(TEAMS, rows({ 104: [1, 5], 101: [3, 0] }))).toEqual(none); // a gap at 2
    expect(savedLists(TEAMS, rows({ 104: [1, 5], 103: [0, 2] }))).toEqual(none); // finishes without a placement
  });
});

describe('placementOrderAction', () => {
  const form = (fields: Record<string, string>) => {
    const fd = new FormData();
    for (const [k, v] of Object.entries(fields)) fd.append(k, v);
    return fd;
  };
  async function post(intent: PlacementIntent, fields: Record<string, string>, refuse?: GatewayError) {
    const sent: ResultRow[][] = [];
    const outcome = await placementOrderAction(form(fields), intent, {
      teams: TEAMS,
      lobby: 'Group A',
      save: async (rows) => {
        sent.push(rows);
        if (refuse) throw refuse;
      },
      words: { failed: 'Failed to save the results.' },
    });
    return { outcome, sent };
  }

  it('"Next" shows step 2 in the typed order, its inputs filled from a finishes list when one was typed', async () => {
    expect(await post(PLACEMENT_INTENT.next, { slotOrder: '6,2 4', finishOrder: '' })).toEqual({
      outcome: {
        step: { step: 2, order: [106, 102, 104], values: { slotOrder: '6 2 4' }, fieldErrors: {}, formError: null },
        status: 200,
      },
      sent: [],
    });
    const filled = await post(PLACEMENT_INTENT.next, { slotOrder: '6 2 4', finishOrder: '3 0 1' });
    expect(filled.outcome).toMatchObject({
      step: { step: 2, values: { slotOrder: '6 2 4', 'finishes.106': '3', 'finishes.102': '0', 'finishes.104': '1' } },
    });
  });

  it('keeps step 1 with what was typed when a list is refused, or when "Save" has no finishes', async () => {
    const bad = await post(PLACEMENT_INTENT.save, { slotOrder: '6 31', finishOrder: '1 2' });
    expect(bad).toEqual({
      outcome: {
        step: {
          step: 1,
          order: [],
          values: { slotOrder: '6 31', finishOrder: '1 2' },
          fieldErrors: { slotOrder: 'Slot 31 is not in Group A (slots 1–4 and 6).' },
          formError: null,
        },
        status: 400,
      },
      sent: [],
    });
    const short = await post(PLACEMENT_INTENT.save, { slotOrder: '6 2', finishOrder: '1' });
    expect(short.outcome).toMatchObject({ step: { step: 1, fieldErrors: { finishOrder: expect.stringContaining('2 slots listed') } } });
    const none = await post(PLACEMENT_INTENT.save, { slotOrder: '6 2', finishOrder: '' });
    expect(none.outcome).toMatchObject({ step: { step: 1, fieldErrors: { finishOrder: expect.stringContaining('team by team') } } });
    expect(short.sent.length + none.sent.length).toBe(0);
  });

  it('saves from step 1 in one post and from step 2: positions 1..n in the typed order, the rest absent', async () => {
    const expected = [
      { teamId: 104, position: 1, finishes: 7 },
      { teamId: 101, position: 2, finishes: 0 },
      { teamId: 106, position: 3, finishes: 2 },
      { teamId: 102, position: 0, finishes: 0, absent: true },
      { teamId: 103, position: 0, finishes: 0, absent: true },
    ];
    const quick = await post(PLACEMENT_INTENT.save, { slotOrder: '4 1 6', finishOrder: '7 0 2' });
    expect(quick).toEqual({ outcome: { saved: expected }, sent: [expected] });
    const fields = { slotOrder: '4 1 6', 'finishes.104': ' 7 ', 'finishes.101': '', 'finishes.106': '2' };
    expect(await post(PLACEMENT_INTENT.save, fields)).toEqual({ outcome: { saved: expected }, sent: [expected] });
  });

  it("refuses a finishes value out of the gateway's range on its row, before sending", async () => {
    const { outcome, sent } = await post(PLACEMENT_INTENT.save, { slotOrder: '4 1', 'finishes.104': '100', 'finishes.101': 'x' });
    expect(sent).toEqual([]);
    expect(outcome).toMatchObject({
      status: 400,
      step: {
        step: 2,
        order: [104, 101],
        values: { 'finishes.104': '100', 'finishes.101': 'x' },
        fieldErrors: { 'finishes.104': expect.stringContaining('0 to 99'), 'finishes.101': expect.any(String) },
      },
    });
  });

  it("shows the gateway's refusal on step 2: row errors on their rows, the lobby's total at the top", async () => {
    const refusal = new GatewayError(400, 'Too many finishes.', {
      'finishes.101': 'Finishes must be from 0 to 16.',
      'absent.103': 'An absent team has no placement and no finishes.',
      finishes: 'The teams made 40 finishes: a lobby of 5 squads has at most 19.',
    });
    const { outcome, sent } = await post(PLACEMENT_INTENT.save, { slotOrder: '4 1', finishOrder: '20 20' }, refusal);
    expect(sent).toHaveLength(1);
    expect(outcome).toEqual({
      status: 400,
      step: {
        step: 2,
        order: [104, 101],
        values: { slotOrder: '4 1', 'finishes.104': '20', 'finishes.101': '20' },
        fieldErrors: {
          'finishes.101': 'Finishes must be from 0 to 16.',
          'absent.103': 'An absent team has no placement and no finishes.',
        },
        formError: 'Failed to save the results. The teams made 40 finishes: a lobby of 5 squads has at most 19.',
      },
    });
  });

  it('"Change the order" goes back to step 1 with both lists, the finishes typed so far as a list', async () => {
    const back = await post(PLACEMENT_INTENT.change, { slotOrder: '4 1 6', 'finishes.104': '7', 'finishes.101': '', 'finishes.106': '2' });
    expect(back.outcome).toEqual({
      status: 200,
      step: { step: 1, order: [], values: { slotOrder: '4 1 6', finishOrder: '7 0 2' }, fieldErrors: {}, formError: null },
    });
    const empty = await post(PLACEMENT_INTENT.change, { slotOrder: '4 1', 'finishes.104': '', 'finishes.101': '' });
    expect(empty.outcome).toMatchObject({ step: { values: { finishOrder: '' } } });
  });
});

describe("a group's results page: result order", () => {
  let stub: GatewayStub;
  let results: typeof import('~/routes/admin.$tournamentId.stages.$stageId_.results');
  const calls = organiserCalls(() => stub);
  beforeAll(async () => {
    stub = await startGatewayStub();
    await useStubEnv(stub);
    results = await import('~/routes/admin.$tournamentId.stages.$stageId_.results');
  });
  afterAll(() => stub.close());

  const PARAMS = { tournamentId: '5', stageId: '7' };
  const URL_ORDER = 'http://localhost/admin/5/stages/7/results?day=1&match=2&group=31&entry=order';
  const GROUP_A = { id: 31, name: 'A', slots: TEAMS.map((t) => ({ ...t, teamName: `Squad ${t.slot}` })).reverse() };
  const STAGE = {
    id: 7,
    tid: 5,
    name: 'Qualifiers',
    order: 1,
    lobbySize: 6,
    firstSlot: 1,
    advancePerGroup: 1,
    advanceBest: 0,
    state: 'published',
    draw: { method: 'random', seed: 'abc', drawnAt: '2026-12-01T10:00:00.000Z' },
    entrants: 5,
    hasResults: false,
    groupGap: 0,
    groupMatches: { scheduled: 2, withResults: 0, notPlayed: 0 },
    groups: [GROUP_A],
  };
  const PUT = 'PUT /tournaments/5/points-table/matches/1/2';
  const page = (extra: Parameters<typeof calls.routes>[0] = {}) =>
    calls.routes({
      'GET /tournaments/5': () => [200, tournamentJson({ id: 5, format: 'Squad' })],
      'GET /tournaments/5/stages': () => [200, [STAGE]],
      'GET /tournaments/5/points-table/results': () => [200, []],
      'GET /registrations/tournament/5': () => [200, []],
      ...extra,
    });
  const act = async (fields: [string, string][]) => results.action(calls.args(await calls.post(URL_ORDER, fields), PARAMS));
  const loaded = async () => unwrap(await results.loader(calls.args(await calls.get(URL_ORDER), PARAMS))).body;

  it('step 1 posts the slots and the page lists the teams in that order, the order in a hidden field', async () => {
    page();
    const next = unwrap(
      await act([
        ['intent', 'order'],
        ['slotOrder', '6 1\n3'],
        ['finishOrder', ''],
      ]),
    );
    expect(next.status).toBe(200);
    expect(stub.seen.filter((r) => r.method === 'PUT')).toEqual([]);
    const html = await renderPage(results.default, await loaded(), URL_ORDER, next.body);
    const names = [...html.matchAll(/<span id="team-(\d+)">([^<]+)<\/span>/g)].map((m) => m[2]);
    expect(names).toEqual(['Squad 6', 'Squad 1', 'Squad 3']);
    expect(html).toContain('<input type="hidden" name="slotOrder" value="6 1 3"/>');
    expect(html).toMatch(/<td class="po-place">1<\/td><td>6<\/td>/);
    expect(html).toMatch(/<input id="finishes.106" name="finishes.106"[^>]*aria-labelledby="team-106 col-finishes"/);
    // The teams left out are named before saving: they are saved as absent.
    expect(html).toContain('Not in the result list: saved as absent');
    expect(html).toContain('<li id="absent-team-102">Slot 2 · Squad 2</li>');
  });

  it('step 2 saves through the grid’s call: positions 1..n in the typed order, then back to result order with a flash', async () => {
    page({ [PUT]: () => [200, []] });
    const res = (await act([
      ['intent', 'order-save'],
      ['slotOrder', '6 1 3'],
      ['finishes.106', '4'],
      ['finishes.101', ''],
      ['finishes.103', '2'],
    ])) as Response;
    expect(stub.seen.filter((r) => r.method === 'PUT').at(-1)!.body).toEqual({
      groupId: 31,
      results: [
        { teamId: 106, position: 1, finishes: 4 },
        { teamId: 101, position: 2, finishes: 0 },
        { teamId: 103, position: 3, finishes: 2 },
        { teamId: 102, position: 0, finishes: 0, absent: true },
        { teamId: 104, position: 0, finishes: 0, absent: true },
      ],
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/admin/5/stages/7/results?day=1&match=2&group=31&entry=order');
    expect(await calls.flashOf(res)).toBe('Group A results saved: 3 placed, 2 absent');
  });

  it('a refused one-post save shows step 2 with the errors on their rows and the typed finishes kept', async () => {
    page({ [PUT]: () => [400, { message: 'Invalid input', errors: { 'finishes.101': 'Finishes must be from 0 to 20.' } }] });
    const refused = unwrap(
      await act([
        ['intent', 'order-save'],
        ['slotOrder', '1 6'],
        ['finishOrder', '3 25'],
      ]),
    );
    expect(refused.status).toBe(400);
    const html = await renderPage(results.default, await loaded(), URL_ORDER, refused.body);
    expect(html).toMatch(/<input id="finishes.101" name="finishes.101"[^>]*aria-invalid="true" aria-describedby="row-error-101" value="3"/);
    expect(html).toContain(
      '<td colSpan="4" id="row-error-101"><p class="field-error"><span aria-hidden="true">⚠ </span>Squad 1: Finishes must be from 0 to 20.</p>',
    );
    expect(html).toContain('<a href="#finishes.101">Finishes must be from 0 to 20.</a>');
  });

  it('a slot outside the group keeps step 1 with the message on the field and nothing sent', async () => {
    page();
    const before = stub.seen.filter((r) => r.method === 'PUT').length;
    const bad = unwrap(
      await act([
        ['intent', 'order'],
        ['slotOrder', '1 31 1'],
        ['finishOrder', ''],
      ]),
    );
    expect(bad.status).toBe(400);
    expect(stub.seen.filter((r) => r.method === 'PUT').length).toBe(before);
    const html = await renderPage(results.default, await loaded(), URL_ORDER, bad.body);
    const message = 'Slot 31 is not in Group A (slots 1–4 and 6). Slot 1 is listed twice (1st and 3rd place).';
    expect(html).toContain(`<p class="field-error" id="slotOrder-error"><span aria-hidden="true">⚠ </span>${message}</p>`);
    expect(html).toMatch(
      /<textarea name="slotOrder"[^>]*aria-invalid="true" aria-describedby="slotOrder-error slotOrder-hint"[^>]*>1 31 1<\/textarea>/,
    );
  });

  it('step 1 starts from the saved results when they read as a list, and the grid is one link away', async () => {
    const row = (teamId: number, position: number, finishes: number) => ({
      id: teamId,
      tid: 5,
      day: 1,
      match: 2,
      teamId,
      teamName: `Squad ${teamId - 100}`,
      position,
      positionPoints: 0,
      wins: position === 1 ? 1 : 0,
      finishes,
      totalPoints: finishes,
      groupId: 31,
    });
    page({ 'GET /tournaments/5/points-table/results': () => [200, [row(103, 2, 1), row(104, 1, 6)]] });
    const data = await loaded();
    expect(data.entry).toBe('order');
    expect(data.lists).toEqual({ slots: '4 3', finishes: '6 1' });
    const html = await renderPage(results.default, data, URL_ORDER);
    expect(html).toMatch(/<textarea name="slotOrder"[^>]*>4 3<\/textarea>/);
    expect(html).toMatch(/<textarea name="finishOrder"[^>]*>6 1<\/textarea>/);
    expect(html).toContain('href="/admin/5/stages/7/results?day=1&amp;match=2&amp;group=31">Slot grid</a>');
    expect(html).not.toContain('name="position.101"');
  });
});
