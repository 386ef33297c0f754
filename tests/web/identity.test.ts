import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { characterIdProblems, gameFamily, TeamCreateSchema } from '@custom-room/contract';
import { captainMessage, whatsAppLink, whatsAppNumber } from '~/utils/contact';
import { registrationJson } from '../support';
import { renderPage } from '../support/render';
import { cookieOf, formPost, json, startGatewayStub, unwrap, useStubEnv, type GatewayStub, type SeenRequest } from './support/gateway-stub';

/** Decision 046 on the web: character ID inputs, the team page, the organiser's contact and CSV. */

let stub: GatewayStub;
let register: typeof import('~/routes/register_.$tournamentId');
let teamPage: typeof import('~/routes/team.$tournamentId');
let registrations: typeof import('~/routes/admin.$tournamentId.registrations/route');
let csv: typeof import('~/routes/admin.$tournamentId.registrations[.csv]');
let session: typeof import('~/utils/session.server');

beforeAll(async () => {
  stub = await startGatewayStub();
  await useStubEnv(stub);
  register = await import('~/routes/register_.$tournamentId');
  teamPage = await import('~/routes/team.$tournamentId');
  registrations = await import('~/routes/admin.$tournamentId.registrations/route');
  csv = await import('~/routes/admin.$tournamentId.registrations[.csv]');
  session = await import('~/utils/session.server');
});
afterAll(() => stub.close());

const TOURNAMENT = {
  id: 3,
  name: 'Weekend Scrims',
  game: 'Free Fire',
  startDate: '2026-12-10T12:30:00.000Z',
  endDate: '2026-12-11T12:30:00.000Z',
  registrationOpen: '2026-01-01T00:00:00.000Z',
  registrationClose: '2099-12-09T12:30:00.000Z',
  maxTeams: 12,
  entryFee: 150,
  status: 'Registration Ongoing',
  registeredTeams: 2,
  requireCharacterIds: true,
};
const TEAM = {
  teamName: 'Team Soul',
  player1Username: 'Mortal',
  player2Username: 'Viper',
  player3Username: 'Regaltos',
  player4Username: 'Owais',
  substitute1Username: '',
  substitute2Username: '',
};

const args = (request: Request, params: Record<string, string> = {}) => ({ request, params, context: {} });
async function cookieFor(roles: string[]) {
  const token = await stub.token({ username: roles.includes('ROLE_ADMIN') ? 'organiser' : 'player_one', roles });
  return cookieOf(await session.createUserSession(new Request('http://localhost/login'), token, 'x', '/'));
}
function routes(table: Record<string, (req: SeenRequest) => [number, unknown]>) {
  stub.answer((req, res) => {
    const key = `${req.method} ${req.url.split('?')[0]}`;
    const route = table[key];
    if (!route) return json(res, 404, { message: `no stub for ${key}` });
    const [status, body] = route(req);
    json(res, status, body);
  });
}
/** The <input> with this name, as rendered. */
const inputNamed = (html: string, name: string) => new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0] ?? '';

describe('the rules both sides share', () => {
  it('knows the games by their usual names', () => {
    expect(['BGMI', 'Battlegrounds Mobile India', 'PUBG Mobile', 'Free Fire MAX', 'freefire', 'Valorant'].map(gameFamily)).toEqual([
      'bgmi',
      'bgmi',
      'pubgm',
      'freefire',
      'freefire',
      undefined,
    ]);
  });

  it('drops spaces, refuses other characters, and checks the length of the game', () => {
    const parsed = TeamCreateSchema.parse({ ...TEAM, player1CharacterId: ' 5123 4567\u00A089 ', player2CharacterId: null });
    expect(parsed.player1CharacterId).toBe('512345 6789'.replace(' ', ''));
    expect(parsed.player2CharacterId).toBe('');
    expect(TeamCreateSchema.safeParse({ ...TEAM, player1CharacterId: '5123-4567' }).success).toBe(false);
    expect(characterIdProblems({ ...TEAM, player1CharacterId: '5123456789' }, 'BGMI', false)).toEqual({});
    expect(characterIdProblems({ ...TEAM, player1CharacterId: '5123456789' }, 'BGMI', true)).toEqual({
      player2CharacterId: 'Player 2 character ID is required for this tournament.',
      player3CharacterId: 'Player 3 character ID is required for this tournament.',
      player4CharacterId: 'Player 4 character ID is required for this tournament.',
    });
  });
});

describe('the WhatsApp link to the captain', () => {
  it('is wa.me with the country code and digits only', () => {
    expect(whatsAppNumber('+919876543210')).toBe('919876543210');
    expect(whatsAppNumber('98765 43210')).toBe('919876543210');
    expect(whatsAppNumber('09876543210')).toBe('919876543210');
    expect(whatsAppNumber('n/a')).toBeNull();
    expect(whatsAppLink('+919876543210', captainMessage('Monsoon Cup', 'Team Soul & Co'))).toBe(
      'https://wa.me/919876543210?text=Hi!%20This%20is%20the%20organiser%20of%20Monsoon%20Cup%20on%20Custom%20Room%2C%20about%20your%20team%20Team%20Soul%20%26%20Co.',
    );
  });
});

describe('registration form', () => {
  it('has a numeric, labelled character ID input beside each player, named in the game’s words, required when the organiser says so', async () => {
    routes({ 'GET /tournaments/3': () => [200, TOURNAMENT], 'GET /registrations/3': () => [404, { message: 'none' }] });
    const page = unwrap(
      await register.loader(
        args(new Request('http://localhost/register/3', { headers: { cookie: await cookieFor(['ROLE_USER']) } }), { tournamentId: '3' }),
      ),
    ).body;
    const html = await renderPage(register.default, page);
    for (const field of ['player1CharacterId', 'player4CharacterId', 'substitute2CharacterId']) {
      const input = inputNamed(html, field);
      expect(input).toContain('inputMode="numeric"');
      expect(html).toContain(`for="${field}"`);
    }
    expect(inputNamed(html, 'player1CharacterId')).toContain('required');
    expect(inputNamed(html, 'substitute1CharacterId')).not.toContain('required');
    expect(html).toMatch(/Player 1 \(IGL\): Free Fire UID/);
    expect(html).toContain('8 to 12 digits');
    expect(html).toContain('needs each player’s character ID');
  });

  it('puts the gateway’s refusal beside the character ID field, tied to it, with the input kept', async () => {
    const message = 'Player 2 UID 12345678 is already playing for another team in this tournament.';
    routes({ 'POST /registrations/3': () => [409, { message, errors: { player2CharacterId: message } }] });
    const fields = { ...TEAM, player1CharacterId: '11112222', player2CharacterId: '1234 5678' };
    const request = formPost('http://localhost/register/3', fields, { cookie: await cookieFor(['ROLE_USER']) });
    const { status, body } = unwrap(await register.action(args(request, { tournamentId: '3' })));
    expect(status).toBe(409);
    expect(body.fieldErrors).toEqual({ player2CharacterId: message });
    expect(body.values.player2CharacterId).toBe('1234 5678');
    const sent = stub.seen.filter((r) => r.method === 'POST').at(-1)!;
    expect(sent.body).toMatchObject({ player1CharacterId: '11112222', player2CharacterId: '12345678', player3CharacterId: '' });

    const html = await renderPage(
      register.default,
      { t: { ...TOURNAMENT, fee: '₹150', slots: '', closes: '' }, state: { kind: 'open' } },
      undefined,
      body,
    );
    const input = inputNamed(html, 'player2CharacterId');
    expect(input).toContain('value="1234 5678"');
    expect(input).toContain('aria-invalid="true"');
    expect(/aria-describedby="([^"]+)"/.exec(input)![1]!.split(' ')).toContain('player2CharacterId-error');
    expect(html).toMatch(/id="player2CharacterId-error"[^>]*>(<[^>]+>[^<]*<\/[^>]+>)?\s*Player 2 UID 12345678 is already playing/);
  });
});

describe('team page', () => {
  it('shows the captain each player’s ID beside the name', async () => {
    routes({
      'GET /tournaments/3': () => [200, TOURNAMENT],
      'GET /registrations/3': () => [
        200,
        { ...registrationJson({ tid: 3, ...TEAM }), player1CharacterId: '11112222', player2CharacterId: '' },
      ],
    });
    const cookie = await cookieFor(['ROLE_USER']);
    const page = unwrap(
      await teamPage.loader(args(new Request('http://localhost/team/3', { headers: { cookie } }), { tournamentId: '3' })),
    ).body;
    const html = await renderPage(teamPage.default, page);
    expect(html).toMatch(/Mortal<span class="team-character-id">Free Fire UID <span class="mono">11112222<\/span>/);
    expect(html).not.toMatch(/Viper<span class="team-character-id">/);
  });
});

describe('admin registrations', () => {
  const row = {
    ...registrationJson({ rid: 7, tid: 3, ...TEAM }),
    player1CharacterId: '11112222',
    player2CharacterId: '22223333',
    player3CharacterId: '',
    player4CharacterId: '',
    substitute1CharacterId: '',
    substitute2CharacterId: '',
    username: 'soul_captain',
    captainPhone: '+919876543210',
    captainEmail: 'captain@soul.example',
    sameReferenceAs: [],
  };

  it('shows each player’s ID, the captain’s phone, email and a wa.me link naming the tournament, and flags missing IDs', async () => {
    routes({ 'GET /tournaments/3': () => [200, TOURNAMENT], 'GET /registrations/tournament/3': () => [200, [row]] });
    const cookie = await cookieFor(['ROLE_USER', 'ROLE_ADMIN']);
    const page = unwrap(
      await registrations.loader(
        args(new Request('http://localhost/admin/3/registrations', { headers: { cookie } }), { tournamentId: '3' }),
      ),
    ).body;
    expect(page.teams[0]).toMatchObject({
      players: ['Mortal (Free Fire UID 11112222)', 'Viper (Free Fire UID 22223333)', 'Regaltos', 'Owais'],
      missingIds: 2,
      captain: {
        phone: '+919876543210',
        email: 'captain@soul.example',
        whatsApp: `https://wa.me/919876543210?text=${encodeURIComponent(captainMessage('Weekend Scrims', 'Team Soul'))}`,
      },
    });
    const html = await renderPage(registrations.default, page);
    expect(html).toContain('href="tel:+919876543210"');
    expect(html).toContain('href="mailto:captain@soul.example"');
    expect(html).toContain('href="https://wa.me/919876543210?text=Hi!%20This%20is%20the%20organiser%20of%20Weekend%20Scrims');
    expect(html).toContain('2 players have no character ID yet');
  });

  it('puts the IDs and the contact in the CSV after the earlier columns', async () => {
    routes({ 'GET /tournaments/3': () => [200, TOURNAMENT], 'GET /registrations/tournament/3': () => [200, [row]] });
    const cookie = await cookieFor(['ROLE_USER', 'ROLE_ADMIN']);
    const res = (await csv.loader(
      args(new Request('http://localhost/admin/3/registrations.csv', { headers: { cookie } }), { tournamentId: '3' }),
    )) as Response;
    const [header, line] = (await res.text()).replace(/^\uFEFF/, '').split('\r\n');
    expect(header!.split(',').slice(-9)).toEqual([
      'player1CharacterId',
      'player2CharacterId',
      'player3CharacterId',
      'player4CharacterId',
      'substitute1CharacterId',
      'substitute2CharacterId',
      'captainPhone',
      'captainEmail',
      'captainWhatsApp',
    ]);
    expect(line!.split(',').slice(-9)).toEqual([
      '11112222',
      '22223333',
      '',
      '',
      '',
      '',
      // The CSV's formula guard keeps a leading + as text: spreadsheets show +919876543210, not a number.
      "'+919876543210",
      'captain@soul.example',
      `https://wa.me/919876543210?text=${encodeURIComponent(captainMessage('Weekend Scrims', 'Team Soul'))}`,
    ]);
  });
});
