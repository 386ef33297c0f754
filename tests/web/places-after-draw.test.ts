import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrationJson } from '../support';
import { organiserCalls, startGatewayStub, unwrap, useStubEnv, type GatewayStub, type SeenRequest } from './support/gateway-stub';
import { renderPage } from './support/render';

/** Issue 27, decision 052 on the web: the stage page's empty slots and "fill an empty slot"; a removed or released team's card. */

let stub: GatewayStub;
let registrations: typeof import('~/routes/admin.$tournamentId.registrations/route');
let stagePage: typeof import('~/routes/admin.$tournamentId.stages.$stageId/route');

beforeAll(async () => {
  stub = await startGatewayStub();
  process.env.APP_TIME_ZONE = 'Asia/Kolkata';
  await useStubEnv(stub);
  registrations = await import('~/routes/admin.$tournamentId.registrations/route');
  stagePage = await import('~/routes/admin.$tournamentId.stages.$stageId/route');
});
afterAll(() => stub.close());

const TOURNAMENT = {
  id: 5,
  name: 'Lobby Cup',
  game: 'BGMI',
  startDate: '2099-12-10T12:30:00.000Z',
  maxTeams: 4,
  entryFee: 50,
  status: 'Registration Ongoing',
  requireCharacterIds: true,
};
const team = (rid: number, teamName: string, extra: Record<string, unknown> = {}) => ({
  ...registrationJson({ rid, tid: 5, teamName, player1Username: `p1_${rid}`, player2Username: `p2_${rid}` }),
  username: `owner_${rid}`,
  sameReferenceAs: [],
  listOrder: 1,
  ...extra,
});
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
  draw: { method: 'registration', seed: null, drawnAt: '2099-12-01T10:00:00.000Z' },
  entrants: 4,
  hasResults: false,
  groupGap: 0,
  groupMatches: { scheduled: 0, withResults: 0, notPlayed: 0 },
  // Alpha (slot 1 of A) withdrew after publishing: Group A has slot 2 only.
  groups: [
    { id: 11, name: 'A', slots: [{ slot: 2, teamId: 2, teamName: 'Bravo' }] },
    { id: 12, name: 'B', slots: [1, 2].map((slot) => ({ slot, teamId: slot + 2, teamName: `Team ${slot + 2}` })) },
  ],
};
const EMPTY = {
  slots: [{ groupId: 11, groupName: 'A', slot: 1 }],
  teams: [
    { teamId: 9, teamName: 'Waiting One', from: 'waitlist', waitlistPosition: 1, confirmed: false },
    { teamId: 8, teamName: 'Late Payer', from: 'unseated', waitlistPosition: null, confirmed: true },
  ],
};

const { get, post, args, flashOf, routes } = organiserCalls(() => stub);

const stageRoutes = (stage: object, extra: Record<string, (req: SeenRequest) => [number, unknown]> = {}) =>
  routes({
    'GET /tournaments/5': () => [200, TOURNAMENT],
    'GET /tournaments/5/stages': () => [200, [stage]],
    'GET /matches/tournament/5': () => [200, []],
    'GET /tournaments/5/stages/7/entrants': () => [200, []],
    'GET /tournaments/5/stages/7/advance': () => [409, { message: 'not now' }],
    'GET /tournaments/5/stages/7/empty-slots': () => [200, EMPTY],
    ...extra,
  });

describe('stage page: empty slots after publishing, and one form to fill them', () => {
  const url = 'http://localhost/admin/5/stages/7';

  it('shows the empty slot in its group and offers it with the waitlist and the confirmed teams without a slot', async () => {
    stageRoutes(STAGE);
    const page = unwrap(await stagePage.loader(args(await get(url), { tournamentId: '5', stageId: '7' }))).body;
    expect(page.shownEmpty).toEqual([1]);
    expect(page.fill).toEqual({
      slots: [{ value: '11:1', label: 'Group A · slot 1' }],
      teams: [
        { value: '9', label: 'Waiting One (waitlist #1, pays once seated)' },
        { value: '8', label: 'Late Payer (confirmed, no slot)' },
      ],
    });
    const html = await renderPage(stagePage.default, page, url);
    expect(html).toMatch(/<td class="num">1<\/td><td><span class="fine">Empty<\/span><\/td>/);
    expect(html).toContain('<h2 id="fill-slot-title">Fill an empty slot</h2>');
    expect(html).toMatch(/<label for="seat">Empty slot<\/label><select name="seat" id="seat">/);
    expect(html).toMatch(/<label for="fill-team">Team<\/label><select name="teamId" id="fill-team">/);
    expect(html).toContain('<input type="hidden" name="intent" value="fill-slot"/>');
  });

  it('a draft stage has no fill form and asks the gateway nothing about empty slots', async () => {
    stageRoutes({ ...STAGE, state: 'draft', draw: null });
    const before = stub.seen.length;
    const page = unwrap(await stagePage.loader(args(await get(url), { tournamentId: '5', stageId: '7' }))).body;
    expect(page.fill).toBeNull();
    expect(stub.seen.slice(before).map((r) => r.url)).not.toContain('/tournaments/5/stages/7/empty-slots');
    expect(await renderPage(stagePage.default, page, url)).not.toContain('Fill an empty slot');
  });

  it('seats the team with one post and says where it plays', async () => {
    const seatedStage = {
      ...STAGE,
      groups: [
        { ...STAGE.groups[0]!, slots: [{ slot: 1, teamId: 9, teamName: 'Waiting One' }, ...STAGE.groups[0]!.slots] },
        STAGE.groups[1],
      ],
    };
    stageRoutes(STAGE, { 'POST /tournaments/5/stages/7/empty-slots': () => [200, seatedStage] });
    const res = (await stagePage.action(
      args(
        await post(url, [
          ['intent', 'fill-slot'],
          ['seat', '11:1'],
          ['teamId', '9'],
        ]),
        { tournamentId: '5', stageId: '7' },
      ),
    )) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/admin/5/stages/7?group=11#groups');
    expect(await flashOf(res)).toBe('Waiting One is in Group A, slot 1');
    expect(stub.seen.at(-1)).toMatchObject({
      method: 'POST',
      url: '/tournaments/5/stages/7/empty-slots',
      body: { groupId: 11, slot: 1, teamId: 9 },
    });
  });

  it('keeps the choice and puts the gateway’s refusal beside the field it names; a missing choice is caught before the call', async () => {
    const taken = 'Slot 1 of Group A is taken by Bravo.';
    stageRoutes(STAGE, { 'POST /tournaments/5/stages/7/empty-slots': () => [409, { message: taken, errors: { slot: taken } }] });
    const refused = unwrap(
      await stagePage.action(
        args(
          await post(url, [
            ['intent', 'fill-slot'],
            ['seat', '11:1'],
            ['teamId', '9'],
          ]),
          { tournamentId: '5', stageId: '7' },
        ),
      ),
    );
    expect(refused.status).toBe(409);
    expect(refused.body.fieldErrors).toEqual({ seat: taken });
    expect(refused.body.values).toMatchObject({ intent: 'fill-slot', seat: '11:1', teamId: '9' });

    const before = stub.seen.length;
    const missing = unwrap(
      await stagePage.action(
        args(
          await post(url, [
            ['intent', 'fill-slot'],
            ['seat', ''],
          ]),
          { tournamentId: '5', stageId: '7' },
        ),
      ),
    );
    expect(missing.status).toBe(400);
    expect(missing.body.fieldErrors).toEqual({ seat: 'Choose an empty slot.', teamId: 'Choose a team to seat.' });
    expect(stub.seen.length).toBe(before);
  });
});

describe('registrations page: a team that left keeps its IDs; a removed team is barred until allowed back', () => {
  const url = 'http://localhost/admin/5/registrations';
  const LIST = [
    team(1, 'Released Soul', { place: 'released', releasedReason: 'payment-deadline', listOrder: 4 }),
    team(2, 'Removed Rogue', { place: 'released', releasedReason: 'removed', rejoin: 'barred', listOrder: 4 }),
    team(3, 'Playing', { paymentStatus: 'verified', confirmed: true, listOrder: 2 }),
  ];

  it('says the team was released without warning about character IDs, and offers "Allow to register again" only to a barred team', async () => {
    routes({ 'GET /tournaments/5': () => [200, TOURNAMENT], 'GET /registrations/tournament/5': () => [200, LIST] });
    const page = unwrap(await registrations.loader(args(await get(url), { tournamentId: '5' }))).body;
    expect(page.teams.map((t: any) => [t.teamName, t.state.words, t.rejoin])).toEqual([
      ['Playing', 'confirmed', null],
      ['Released Soul', 'released (payment not verified in time)', null],
      ['Removed Rogue', 'released (removed by the organiser)', 'barred'],
    ]);
    const html = await renderPage(registrations.default, page, url);
    // Only the playing team, whose players have no ID, is warned.
    expect(html.match(/no character ID yet/g)).toHaveLength(1);
    expect(html).toContain('released (payment not verified in time)');
    expect(html.match(/Allow to register again/g)).toHaveLength(1);
    expect(html).toContain('Cannot register again in this tournament');
  });

  it('allows a removed team back with one post', async () => {
    routes({ 'POST /registrations/admin/2/allow-return': () => [200, team(2, 'Removed Rogue', { place: 'released', rejoin: 'allowed' })] });
    const res = (await registrations.action(
      args(
        await post(url, [
          ['intent', 'allow-return'],
          ['rid', '2'],
        ]),
        { tournamentId: '5' },
      ),
    )) as Response;
    expect(res.headers.get('location')).toBe('/admin/5/registrations');
    expect(await flashOf(res)).toBe('Removed Rogue may register again.');
    expect(stub.seen.at(-1)).toMatchObject({ method: 'POST', url: '/registrations/admin/2/allow-return' });
  });
});
