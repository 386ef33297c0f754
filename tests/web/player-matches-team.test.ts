import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CHARACTER_ID_FIELDS } from '@custom-room/contract/constants';
import { registrationJson } from '../support';
import { captureLogs } from '../support/logs';
import { renderPage } from '../support/render';
import {
  cookieOf,
  formPost,
  json,
  startGatewayStub,
  thrown,
  unwrap,
  useStubEnv,
  type GatewayStub,
  type StubHandler,
  composeSchedule,
} from './support/gateway-stub';

// Route modules are imported after the environment points at the stub gateway.
let stub: GatewayStub;
let matchesRoute: typeof import('~/routes/tournament.$tournamentId.matches/route');
let teamRoute: typeof import('~/routes/team.$tournamentId');
let updateRoute: typeof import('~/routes/tournaments.$tournamentId_.update-team');
let session: typeof import('~/utils/session.server');
let matchesUtil: typeof import('~/utils/matches');
let reasons: typeof import('~/utils/login-reasons');

beforeAll(async () => {
  stub = await startGatewayStub();
  await useStubEnv(stub);
  matchesRoute = await import('~/routes/tournament.$tournamentId.matches/route');
  teamRoute = await import('~/routes/team.$tournamentId');
  updateRoute = await import('~/routes/tournaments.$tournamentId_.update-team');
  session = await import('~/utils/session.server');
  matchesUtil = await import('~/utils/matches');
  reasons = await import('~/utils/login-reasons');
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.seen.length = 0;
});

const TID = 5;
const tournament = { id: TID, name: 'Monsoon Cup', startDate: '2030-06-01T12:00:00.000Z', status: 'Registration Ongoing' };
const team = registrationJson({ tid: TID, createdAt: '2030-05-01T10:00:00.000Z' });
const match = (over: Record<string, unknown>) => ({
  id: 1,
  tid: TID,
  day: 1,
  matchNo: 1,
  map: 'Erangel',
  matchId: null,
  password: null,
  time: '18:30:00',
  ...over,
});

const args = (request: Request, tournamentId = String(TID)) => ({ request, params: { tournamentId }, context: {} });

/** Answers by path: the tournament, and whatever else the test gives. */
function gatewayAnswers(routes: Record<string, StubHandler>) {
  const handle: StubHandler = (req, res) => {
    if (composeSchedule(handle, req, res)) return;
    const path = req.url.split('?')[0]!;
    if (routes[`${req.method} ${path}`]) return routes[`${req.method} ${path}`]!(req, res);
    if (req.method === 'GET' && path === `/tournaments/${TID}`) return json(res, 200, tournament);
    json(res, 404, { message: 'Tournament not found.' });
  };
  stub.answer(handle);
}

async function signedIn(url: string, init: { method?: string; form?: Record<string, string> } = {}) {
  const res = await session.createUserSession(
    new Request('http://localhost/login'),
    await stub.token({ username: 'player_one' }),
    'player_one',
    '/',
  );
  const cookie = cookieOf(res);
  if (init.form) return formPost(url, init.form, { cookie });
  return new Request(url, { headers: { cookie } });
}

describe('login reasons', () => {
  it('names why each player page asked for a login, ignoring the query', () => {
    expect(reasons.loginReason('/tournament/5/matches')).toBe('Please log in to view matches.');
    expect(reasons.loginReason('/tournament/5/matches?x=1')).toBe('Please log in to view matches.');
    expect(reasons.loginReason('/team/5')).toBe('You must be logged in to view team details.');
    expect(reasons.loginReason('/tournaments/5/update-team')).toBe('You must be logged in to update the team.');
  });

  it('says nothing for other pages', () => {
    for (const path of ['', null, undefined, '/', '/profile', '/tournaments/5', '/tournament/5/matches/extra', '/team', '/teams/5']) {
      expect(reasons.loginReason(path)).toBeNull();
    }
  });
});

describe('anonymous visitors', () => {
  it('are sent to /login with the page to come back to', async () => {
    const cases = [
      [matchesRoute.loader, `/tournament/${TID}/matches`],
      [teamRoute.loader, `/team/${TID}`],
      [updateRoute.loader, `/tournaments/${TID}/update-team`],
    ] as const;
    for (const [loader, path] of cases) {
      const res = (await thrown(() => loader(args(new Request(`http://localhost${path}`))))) as Response;
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(`/login?${new URLSearchParams({ redirectTo: path })}`);
    }
    const res = (await thrown(() =>
      updateRoute.action(args(formPost(`http://localhost/tournaments/${TID}/update-team`, { teamName: 'X' }))),
    )) as Response;
    expect(res.headers.get('location')).toBe(`/login?${new URLSearchParams({ redirectTo: `/tournaments/${TID}/update-team` })}`);
    expect(stub.seen.filter((r) => r.url !== '/.well-known/jwks.json')).toEqual([]);
  });
});

describe('matches page', () => {
  it('passes on room details for a registered team and renders them in room cards with a WhatsApp link', async () => {
    gatewayAnswers({
      [`GET /matches/tournament/${TID}`]: (_req, res) =>
        json(res, 200, [
          match({ id: 3, day: 2, matchNo: 1, map: 'Miramar', matchId: '7654321', password: 'mir@2', time: '20:00' }),
          match({ id: 1, day: 1, matchNo: 1, matchId: '1234567', password: 'soul#1' }),
          match({ id: 2, day: 1, matchNo: 2, map: 'Sanhok', matchId: '', password: '', time: '19:15:00' }),
        ]),
    });
    const request = await signedIn(`http://localhost/tournament/${TID}/matches`);
    const loaded = unwrap(await matchesRoute.loader(args(request))).body;
    // One call with the player's token (decision 087).
    expect(stub.seen.map((r) => r.url).filter((url) => url.startsWith(`/tournaments/${TID}`) || url.includes('/matches/'))).toEqual([
      `/tournaments/${TID}/schedule/mine`,
    ]);
    expect(stub.seen.find((r) => r.url === `/tournaments/${TID}/schedule/mine`)!.headers.authorization).toMatch(/^Bearer /);
    expect(loaded.t).toEqual({ id: TID, name: 'Monsoon Cup' });
    expect(loaded.zone).toEqual({ short: 'IST', long: 'India Standard Time' });

    const html = await renderPage(matchesRoute.default, loaded);
    // Grouped by day, in order, each with its date (issue 27: day 1 is the start's date in India time).
    expect(loaded.dates).toEqual({ 1: 'Sat 1 Jun', 2: 'Sun 2 Jun' });
    expect(html.indexOf('>Day 1 · Sat 1 Jun<')).toBeGreaterThan(-1);
    expect(html.indexOf('>Day 2 · Sun 2 Jun<')).toBeGreaterThan(html.indexOf('>Day 1 · Sat 1 Jun<'));
    expect(html.indexOf('>Match 2<')).toBeLessThan(html.indexOf('>Day 2 · Sun 2 Jun<'));
    // HH:MM, the room details, and the promise for the match whose room is not set yet.
    expect(html).toContain('18:30');
    expect(html).not.toContain('18:30:00');
    expect(html).toContain('<code class="room-v">1234567</code>');
    expect(html).toContain('<code class="room-v">soul#1</code>');
    expect(html).toContain('<code class="room-v">7654321</code>');
    expect(html).toContain('Room details will appear here before the match.');
    expect(html).not.toContain('only for registered teams');
    // Copy buttons need JavaScript: none in the server's HTML.
    expect(html).not.toContain('>Copy<');

    const links = [...html.matchAll(/href="(https:\/\/wa\.me\/\?text=[^"]+)"[^>]*>/g)];
    expect(links).toHaveLength(2); // not for the match without a room yet
    expect(links[0]![0]).toContain('target="_blank"');
    expect(links[0]![0]).toContain('rel="noopener noreferrer"');
    const text = decodeURIComponent(new URL(links[0]![1]!.replaceAll('&amp;', '&')).searchParams.get('text')!);
    expect(text).toBe('Monsoon Cup\nDay 1 · Match 1 · Erangel · 18:30 IST\nRoom ID: 1234567\nPassword: soul#1');
  });

  it('shows the schedule without room details, and says why, to a player without a team', async () => {
    gatewayAnswers({
      [`GET /matches/tournament/${TID}`]: (_req, res) => json(res, 200, [match({ id: 1 }), match({ id: 2, matchNo: 2, map: 'Sanhok' })]),
    });
    const loaded = unwrap(await matchesRoute.loader(args(await signedIn(`http://localhost/tournament/${TID}/matches`)))).body;
    const html = await renderPage(matchesRoute.default, loaded);
    expect(html).toContain('Sanhok');
    expect(html).toContain('Room IDs and passwords are only for registered teams.');
    expect(html).toContain(`href="/tournaments/${TID}"`);
    expect(html).not.toContain('room-v');
    expect(html).not.toContain('wa.me');
    expect(html).not.toContain('Room details will appear here');
  });

  it('tells a registered team whose payment is not verified why the room details are missing, with the way to pay (issue 16)', async () => {
    const schedule = [match({ id: 1 }), match({ id: 2, matchNo: 2, map: 'Sanhok' })];
    const cases = [
      ['pending', 'Pay the entry fee', ''],
      ['submitted', 'See your payment', 'The organiser is checking your UPI reference.'],
      ['rejected', 'Check your UTR and send it again', 'The organiser could not match your payment.'],
    ] as const;
    for (const [paymentStatus, link, detail] of cases) {
      gatewayAnswers({
        [`GET /tournaments/${TID}`]: (_req, res) => json(res, 200, { ...tournament, entryFee: 150 }),
        [`GET /matches/tournament/${TID}`]: (_req, res) => json(res, 200, schedule),
        [`GET /registrations/${TID}`]: (_req, res) => json(res, 200, { ...team, paymentStatus }),
      });
      const loaded = unwrap(await matchesRoute.loader(args(await signedIn(`http://localhost/tournament/${TID}/matches`)))).body;
      const html = await renderPage(matchesRoute.default, loaded);
      expect(html, paymentStatus).toContain('Sanhok');
      expect(html, paymentStatus).toContain('Room details appear once your payment is verified.');
      expect(html, paymentStatus).toContain(detail);
      expect(html, paymentStatus).toMatch(new RegExp(`<a [^>]*href="/payment\\?rid=${team.rid}"[^>]*>${link}</a>`));
      expect(html, paymentStatus).not.toContain('only for registered teams');
      expect(html, paymentStatus).not.toContain('room-v');
    }

    // A verified team, or any team of a free tournament, is not told to pay (its rooms may simply not be set yet).
    for (const [entryFee, paymentStatus] of [
      [150, 'verified'],
      [0, 'pending'],
    ] as const) {
      gatewayAnswers({
        [`GET /tournaments/${TID}`]: (_req, res) => json(res, 200, { ...tournament, entryFee }),
        [`GET /matches/tournament/${TID}`]: (_req, res) => json(res, 200, []),
        [`GET /registrations/${TID}`]: (_req, res) => json(res, 200, { ...team, paymentStatus }),
      });
      const loaded = unwrap(await matchesRoute.loader(args(await signedIn(`http://localhost/tournament/${TID}/matches`)))).body;
      const html = await renderPage(matchesRoute.default, loaded);
      expect(html).toContain('No matches found.');
      expect(html).not.toContain('once your payment is verified');
      expect(html).not.toContain('only for registered teams');
    }
  });

  it('says "No matches found." for an empty schedule', async () => {
    gatewayAnswers({ [`GET /matches/tournament/${TID}`]: (_req, res) => json(res, 200, []) });
    const loaded = unwrap(await matchesRoute.loader(args(await signedIn(`http://localhost/tournament/${TID}/matches`)))).body;
    expect(await renderPage(matchesRoute.default, loaded)).toContain('No matches found.');
  });

  it("answers the gateway's refusal as the page's, and 404 for an unknown tournament", async () => {
    gatewayAnswers({ [`GET /matches/tournament/${TID}`]: (_req, res) => json(res, 400, { message: 'Bad request' }) });
    const refused = unwrap(
      await thrown(async () => matchesRoute.loader(args(await signedIn(`http://localhost/tournament/${TID}/matches`)))),
    );
    expect(refused).toEqual({ status: 400, body: { message: 'Bad request' } });

    const missing = unwrap(
      await thrown(async () => matchesRoute.loader(args(await signedIn('http://localhost/tournament/99/matches'), '99'))),
    );
    expect(missing).toEqual({ status: 404, body: { message: 'Tournament not found.' } });
    const nonsense = unwrap(
      await thrown(async () => matchesRoute.loader(args(await signedIn('http://localhost/tournament/abc/matches'), 'abc'))),
    );
    expect(nonsense.status).toBe(404);
  });

  it('shows the 503 page when the gateway cannot be reached', async () => {
    stub.answer((_req, res) => res.socket?.destroy());
    const logs = captureLogs();
    const request = await signedIn(`http://localhost/tournament/${TID}/matches`);
    expect(unwrap(await thrown(() => matchesRoute.loader(args(request)))).status).toBe(503);
    expect(logs).toContainEqual(expect.objectContaining({ level: 'error', msg: 'gateway unreachable' }));
  });

  it('is never kept by a shared cache', () => {
    for (const route of [matchesRoute, teamRoute, updateRoute]) {
      const headers = new Headers(route.headers({} as never));
      expect(headers.get('cache-control')).toBe('private, no-store');
    }
  });
});

describe('share helpers', () => {
  it('groups matches by day and match number', () => {
    const days = matchesUtil.groupByDay([
      match({ id: 1, day: 2, matchNo: 2 }),
      match({ id: 2, day: 1, matchNo: 3 }),
      match({ id: 3, day: 2, matchNo: 1 }),
    ]);
    expect(days.map((d) => [d.day, d.matches.map((m) => m.id)])).toEqual([
      [1, [2]],
      [2, [3, 1]],
    ]);
  });

  it('encodes the share text for wa.me', () => {
    const url = matchesUtil.whatsAppShareUrl(matchesUtil.roomShareText('Cup & Co', match({ matchId: '12 34', password: 'p?#&' }), 'IST'));
    expect(url.startsWith('https://wa.me/?text=')).toBe(true);
    // Nothing in the text can end the query or start a fragment or another parameter.
    expect(url.slice('https://wa.me/?text='.length)).not.toMatch(/[ #&?\n]/);
    expect(decodeURIComponent(url.slice('https://wa.me/?text='.length))).toBe(
      'Cup & Co\nDay 1 · Match 1 · Erangel · 18:30 IST\nRoom ID: 12 34\nPassword: p?#&',
    );
  });
});

describe('team page', () => {
  it("shows the player's team with empty substitutes as —, and Edit Team", async () => {
    gatewayAnswers({ [`GET /registrations/${TID}`]: (_req, res) => json(res, 200, team) });
    const loaded = unwrap(await teamRoute.loader(args(await signedIn(`http://localhost/team/${TID}`))));
    expect(loaded.status).toBe(200);
    const html = await renderPage(teamRoute.default, loaded.body);
    expect(html).toContain('Team Soul');
    expect(html).toContain('Monsoon Cup');
    for (const ign of ['Mortal', 'Viper', 'Regaltos', 'Owais']) expect(html).toContain(ign);
    expect(html.match(/—/g)).toHaveLength(2);
    expect(html).toContain(`href="/tournaments/${TID}/update-team"`);
  });

  it('answers 404 "You have not registered a team for this tournament." with a link to the tournament', async () => {
    gatewayAnswers({
      [`GET /registrations/${TID}`]: (_req, res) => json(res, 404, { message: 'You have not registered a team for this tournament.' }),
    });
    const loaded = unwrap(await teamRoute.loader(args(await signedIn(`http://localhost/team/${TID}`))));
    expect(loaded.status).toBe(404);
    const html = await renderPage(teamRoute.default, loaded.body);
    expect(html).toContain('You have not registered a team for this tournament.');
    expect(html).toContain(`href="/tournaments/${TID}"`);
  });

  it('says "Failed to load team data" for other refusals', async () => {
    gatewayAnswers({ [`GET /registrations/${TID}`]: (_req, res) => json(res, 403, { message: 'Forbidden' }) });
    const loaded = unwrap(await teamRoute.loader(args(await signedIn(`http://localhost/team/${TID}`))));
    expect(loaded.body.state).toEqual({ status: 'failed', message: 'Failed to load team data' });
  });
});

describe('update team', () => {
  const url = `http://localhost/tournaments/${TID}/update-team`;
  const fields = {
    ...Object.fromEntries(Object.entries(team).filter(([k]) => k === 'teamName' || k.endsWith('Username'))),
    teamName: 'Team Soul X',
    player2Username: 'Jonathan',
  };

  it('prefills the form from the team; "Failed to fetch team data." when it cannot', async () => {
    gatewayAnswers({ [`GET /registrations/${TID}`]: (_req, res) => json(res, 200, team) });
    const loaded = unwrap(await updateRoute.loader(args(await signedIn(url)))).body;
    const html = await renderPage(updateRoute.default, loaded);
    expect(html).toMatch(/name="teamName"[^>]*value="Team Soul"|value="Team Soul"[^>]*name="teamName"/);
    expect(html).toMatch(/name="player4Username"[^>]*value="Owais"|value="Owais"[^>]*name="player4Username"/);
    expect(html).toContain('method="post"');

    gatewayAnswers({ [`GET /registrations/${TID}`]: (_req, res) => json(res, 409, { message: 'nope' }) });
    expect(unwrap(await updateRoute.loader(args(await signedIn(url)))).body.state).toEqual({
      status: 'failed',
      message: 'Failed to fetch team data.',
    });
  });

  it('refuses a missing team name or player 2 with 400, keeps every value and puts the messages beside the fields', async () => {
    const { status, body } = unwrap(
      await updateRoute.action(args(await signedIn(url, { form: { ...fields, teamName: '', player2Username: '' } }))),
    );
    expect(status).toBe(400);
    expect(body.values).toEqual({ ...fields, teamName: '', player2Username: '' });
    expect(body.fieldErrors).toEqual({ teamName: 'Team name is required.', player2Username: 'Player 2 IGN is required.' });
    expect(stub.seen.filter((r) => r.method === 'PUT')).toEqual([]);

    const html = await renderPage(
      updateRoute.default,
      { t: { id: TID, name: 'Monsoon Cup', game: 'BGMI', requireCharacterIds: false }, state: { status: 'ok', values: team } },
      undefined,
      body,
    );
    expect(html).toContain('Team name is required.');
    expect(html).toMatch(/name="player1Username"[^>]*value="Mortal"|value="Mortal"[^>]*name="player1Username"/);
    expect(html).toMatch(/name="player3Username"[^>]*value="Regaltos"|value="Regaltos"[^>]*name="player3Username"/);
  });

  it("places the gateway's 409 beside the field and keeps the input", async () => {
    const message = 'A team with this name is already registered.';
    gatewayAnswers({ [`PUT /registrations/${TID}`]: (_req, res) => json(res, 409, { message, errors: { teamName: message } }) });
    const { status, body } = unwrap(await updateRoute.action(args(await signedIn(url, { form: fields }))));
    expect(status).toBe(409);
    expect(body).toEqual({ values: fields, fieldErrors: { teamName: message }, formError: null });
  });

  it('shows a refusal without a field (team frozen) as the form message', async () => {
    const message = 'The team can no longer be changed: the tournament has started.';
    gatewayAnswers({ [`PUT /registrations/${TID}`]: (_req, res) => json(res, 409, { message }) });
    const { status, body } = unwrap(await updateRoute.action(args(await signedIn(url, { form: fields }))));
    expect(status).toBe(409);
    expect(body).toEqual({ values: fields, fieldErrors: {}, formError: message });
  });

  it('sends the team to the gateway and redirects to the team page with "Team updated successfully!"', async () => {
    gatewayAnswers({ [`PUT /registrations/${TID}`]: (req, res) => json(res, 200, { ...team, ...(req.body as object) }) });
    const res = (await updateRoute.action(args(await signedIn(url, { form: { ...fields, player3Username: '  ' } })))) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/team/${TID}`);
    const put = stub.seen.find((r) => r.method === 'PUT')!;
    expect(put.url).toBe(`/registrations/${TID}`);
    // Decision 046: the character IDs go along, '' for none (the form had none).
    const noIds = Object.fromEntries(CHARACTER_ID_FIELDS.map((f) => [f, '']));
    expect(put.body).toEqual({ ...fields, player3Username: '', ...noIds });
    const next = await session.readFlash(new Request(`http://localhost/team/${TID}`, { headers: { cookie: cookieOf(res) } }));
    expect(next.message).toBe('Team updated successfully!');
  });
});
