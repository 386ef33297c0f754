import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrationJson } from '../support';
import { organiserCalls, startGatewayStub, unwrap, useStubEnv, type GatewayStub } from './support/gateway-stub';

/** The organiser's side of a slot's life (decision 047): registrations by state, release and remove, check-in and no-shows. */

let stub: GatewayStub;
let registrations: typeof import('~/routes/admin.$tournamentId.registrations/route');
let stages: typeof import('~/routes/admin.$tournamentId.stages._index');
let stagePage: typeof import('~/routes/admin.$tournamentId.stages.$stageId/route');

beforeAll(async () => {
  stub = await startGatewayStub();
  process.env.APP_TIME_ZONE = 'Asia/Kolkata';
  await useStubEnv(stub);
  registrations = await import('~/routes/admin.$tournamentId.registrations/route');
  stages = await import('~/routes/admin.$tournamentId.stages._index');
  stagePage = await import('~/routes/admin.$tournamentId.stages.$stageId/route');
});
afterAll(() => stub.close());

const TOURNAMENT = {
  id: 5,
  name: 'Lobby Cup',
  game: 'BGMI',
  startDate: '2099-12-10T12:30:00.000Z',
  maxTeams: 2,
  entryFee: 100,
  status: 'Registration Ongoing',
};
const team = (rid: number, teamName: string, extra: Record<string, unknown> = {}) => ({
  ...registrationJson({ rid, tid: 5, teamName, player1Username: `p1_${rid}`, player2Username: `p2_${rid}` }),
  username: `owner_${rid}`,
  sameReferenceAs: [],
  listOrder: 1,
  ...extra,
});

const { get, post, args, flashOf, routes } = organiserCalls(() => stub);

describe('registrations page: every team’s state, payments to check first, release and remove', () => {
  const url = 'http://localhost/admin/5/registrations';
  const LIST = [
    team(1, 'Soul', { paymentStatus: 'verified', confirmed: true, listOrder: 2 }),
    team(2, 'Gone', { place: 'withdrawn', listOrder: 4 }),
    team(3, 'Late', { paymentStatus: 'rejected', payBy: '2099-01-01T15:30:00.000Z', listOrder: 1 }),
    team(4, 'Waiting', { place: 'waitlist', waitlistPosition: 1, placedAt: null, listOrder: 3 }),
    team(5, 'Checking', { paymentStatus: 'submitted', listOrder: 0 }),
  ];

  it('orders by the gateway’s listOrder, counts places, and offers release and remove only where the gateway does', async () => {
    routes({ 'GET /tournaments/5': () => [200, TOURNAMENT], 'GET /registrations/tournament/5': () => [200, LIST] });
    const page = unwrap(await registrations.loader(args(await get(url), { tournamentId: '5' }))).body;
    expect(page.places).toEqual({ placed: 3, waitlist: 1, gone: 1 });
    expect(page.teams.map((t: any) => [t.teamName, t.state.words, t.mayRelease, t.mayRemove])).toEqual([
      ['Checking', 'payment submitted', true, true],
      ['Late', 'payment rejected (pay by 1 Jan, 21:00)', true, true],
      ['Soul', 'confirmed', false, true],
      ['Waiting', 'waitlist #1', false, true],
      ['Gone', 'withdrawn', false, false],
    ]);
  });

  it('releases a team with one post and says so', async () => {
    routes({
      'POST /registrations/admin/3/release': () => [200, team(3, 'Late', { place: 'released', releasedReason: 'payment-rejected' })],
    });
    const res = (await registrations.action(
      args(
        await post(url, [
          ['intent', 'release'],
          ['rid', '3'],
        ]),
        { tournamentId: '5' },
      ),
    )) as Response;
    expect(res.headers.get('location')).toBe('/admin/5/registrations');
    expect(await flashOf(res)).toBe('Late released.');
    expect(stub.seen.at(-1)).toMatchObject({ method: 'POST', url: '/registrations/admin/3/release' });
  });

  it('removes only with the confirmation tick; a refusal lands on the team’s card', async () => {
    const before = stub.seen.length;
    let result = unwrap(
      await registrations.action(
        args(
          await post(url, [
            ['intent', 'remove'],
            ['rid', '1'],
          ]),
          { tournamentId: '5' },
        ),
      ),
    );
    expect(result.status).toBe(400);
    expect(result.body.fieldErrors).toEqual({ 'team.1': 'Tick “Yes, remove this team” to remove it.' });
    expect(stub.seen.length).toBe(before);

    routes({ 'POST /registrations/admin/1/remove': () => [200, team(1, 'Soul', { place: 'released', releasedReason: 'removed' })] });
    const res = (await registrations.action(
      args(
        await post(url, [
          ['intent', 'remove'],
          ['rid', '1'],
          ['confirmRemove', 'yes'],
        ]),
        { tournamentId: '5' },
      ),
    )) as Response;
    expect(await flashOf(res)).toBe('Soul removed: it cannot register again unless you allow it.');

    routes({ 'POST /registrations/admin/2/remove': () => [409, { message: 'Gone has already left this tournament.' }] });
    result = unwrap(
      await registrations.action(
        args(
          await post(url, [
            ['intent', 'remove'],
            ['rid', '2'],
            ['confirmRemove', 'yes'],
          ]),
          { tournamentId: '5' },
        ),
      ),
    );
    expect(result.status).toBe(409);
    expect(result.body.fieldErrors).toEqual({ 'team.2': 'Gone has already left this tournament.' });
  });
});

const STAGE = {
  id: 7,
  tid: 5,
  name: 'Qualifiers',
  order: 1,
  lobbySize: 25,
  firstSlot: 1,
  advancePerGroup: 0,
  advanceBest: 0,
  state: 'draft',
  draw: null,
  entrants: 3,
  hasResults: false,
  groupGap: 0,
  groupMatches: { scheduled: 0, withResults: 0, notPlayed: 0 },
  groups: [],
  checkIn: { opensAt: '2099-12-10T12:00:00.000Z', closesAt: '2099-12-10T12:20:00.000Z', noShows: null },
};

describe('stage forms: the check-in window in the app’s time zone', () => {
  it('adds a stage with its window sent in UTC; blank means none', async () => {
    routes({ 'POST /tournaments/5/stages': () => [201, STAGE] });
    const fields: [string, string][] = [
      ['name', 'Qualifiers'],
      ['lobbySize', '25'],
      ['checkInOpensAt', '2099-12-10T17:30'],
      ['checkInClosesAt', '2099-12-10T17:50'],
    ];
    await stages.action(args(await post('http://localhost/admin/5/stages', fields), { tournamentId: '5' }));
    expect(stub.seen.at(-1)!.body).toMatchObject({
      checkInOpensAt: '2099-12-10T12:00:00.000Z',
      checkInClosesAt: '2099-12-10T12:20:00.000Z',
    });

    await stages.action(
      args(await post('http://localhost/admin/5/stages', [...fields.slice(0, 2), ['checkInOpensAt', ''], ['checkInClosesAt', '']]), {
        tournamentId: '5',
      }),
    );
    expect(stub.seen.at(-1)!.body).not.toHaveProperty('checkInOpensAt');
  });

  it('clears the window when the settings form is saved with both blank; refuses a window that closes before it opens', async () => {
    routes({ 'PUT /tournaments/5/stages/7': () => [200, STAGE] });
    const url = 'http://localhost/admin/5/stages/7';
    const settings: [string, string][] = [
      ['intent', 'settings'],
      ['name', 'Qualifiers'],
    ];
    await stagePage.action(
      args(await post(url, [...settings, ['checkInOpensAt', ''], ['checkInClosesAt', '']]), { tournamentId: '5', stageId: '7' }),
    );
    expect(stub.seen.at(-1)!.body).toMatchObject({ checkInOpensAt: null, checkInClosesAt: null });

    const before = stub.seen.length;
    const result = unwrap(
      await stagePage.action(
        args(await post(url, [...settings, ['checkInOpensAt', '2099-12-10T17:50'], ['checkInClosesAt', '2099-12-10T17:30']]), {
          tournamentId: '5',
          stageId: '7',
        }),
      ),
    );
    expect(result.status).toBe(400);
    expect(result.body.fieldErrors).toEqual({ checkInClosesAt: 'Check-in must close after it opens.' });
    expect(stub.seen.length).toBe(before);
  });
});

describe('stage page: who checked in, the no-shows and the one form to settle them', () => {
  const url = 'http://localhost/admin/5/stages/7';
  const checkIns = (closed: boolean, noShows: string | null = null) => ({
    stageId: 7,
    opensAt: STAGE.checkIn.opensAt,
    closesAt: STAGE.checkIn.closesAt,
    closed,
    noShows,
    teams: [
      { teamId: 1, teamName: 'Soul', state: 'checked-in', checkedInAt: '2099-12-10T12:05:00.000Z' },
      { teamId: 2, teamName: 'Blind', state: closed ? 'no-show' : 'open', checkedInAt: null },
      { teamId: 3, teamName: 'Late', state: closed ? 'no-show' : 'open', checkedInAt: null },
    ],
  });
  const page = (stage: object, list: object) => {
    routes({
      'GET /tournaments/5': () => [200, TOURNAMENT],
      'GET /tournaments/5/stages': () => [200, [stage]],
      'GET /matches/tournament/5': () => [200, []],
      'GET /tournaments/5/stages/7/entrants': () => [200, []],
      'GET /tournaments/5/stages/7/check-ins': () => [200, list],
    });
    return get(url).then((r) => stagePage.loader(args(r, { tournamentId: '5', stageId: '7' })));
  };

  it('while open: the window in India time and who has not checked in; prefilled window in the settings', async () => {
    const body = await page(STAGE, checkIns(false));
    expect(body.checkIn).toMatchObject({
      window: '10 Dec 2099, 5:30 pm to 10 Dec 2099, 5:50 pm',
      closed: false,
      total: 3,
      checkedIn: 1,
      waiting: ['Blind', 'Late'],
      noShows: [],
    });
    expect(body.stage).toMatchObject({ checkInOpensAt: '2099-12-10T17:30', checkInClosesAt: '2099-12-10T17:50' });
  });

  it('once closed: the no-shows, with replace offered in the first stage’s draft only', async () => {
    let body = await page(STAGE, checkIns(true));
    expect(body.checkIn).toMatchObject({
      closed: true,
      noShows: [{ teamName: 'Blind' }, { teamName: 'Late' }],
      actions: ['replace', 'leave'],
    });
    body = await page({ ...STAGE, state: 'published' }, checkIns(true));
    expect(body.checkIn!.actions).toEqual(['leave']);
    body = await page({ ...STAGE, checkIn: undefined }, checkIns(true));
    expect(body.checkIn).toBeNull();
  });

  it('settles the no-shows in one post; asks for a choice first; shows the gateway’s refusal', async () => {
    const before = stub.seen.length;
    let result = unwrap(await stagePage.action(args(await post(url, [['intent', 'no-shows']]), { tournamentId: '5', stageId: '7' })));
    expect(result.body.fieldErrors).toEqual({ action: 'Choose what to do with the no-shows.' });
    expect(stub.seen.length).toBe(before);

    routes({ 'POST /tournaments/5/stages/7/no-shows': () => [200, checkIns(true, 'replace')] });
    const res = (await stagePage.action(
      args(
        await post(url, [
          ['intent', 'no-shows'],
          ['action', 'replace'],
        ]),
        { tournamentId: '5', stageId: '7' },
      ),
    )) as Response;
    expect(stub.seen.at(-1)).toMatchObject({ method: 'POST', url: '/tournaments/5/stages/7/no-shows', body: { action: 'replace' } });
    expect(res.headers.get('location')).toBe('/admin/5/stages/7#check-in');
    expect(await flashOf(res)).toBe('No-shows replaced from the waitlist');

    routes({
      'POST /tournaments/5/stages/7/no-shows': () => [409, { message: 'The no-shows of Qualifiers were already decided (leave).' }],
    });
    result = unwrap(
      await stagePage.action(
        args(
          await post(url, [
            ['intent', 'no-shows'],
            ['action', 'leave'],
          ]),
          { tournamentId: '5', stageId: '7' },
        ),
      ),
    );
    expect(result.status).toBe(409);
    expect(result.body.formError).toBe('The no-shows of Qualifiers were already decided (leave).');
  });
});
