import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_FIELDS, type TeamField } from '@custom-room/contract/constants';
import { paymentFormUrl, paymentNote, qrDataUrl, upiUri } from '~/utils/upi.server';
import { registrationJson } from '../support';
import {
  cookieOf,
  formPost,
  json,
  startGatewayStub,
  thrown,
  unwrap,
  useStubEnv,
  type GatewayStub,
  type SeenRequest,
} from './support/gateway-stub';

let stub: GatewayStub;
let register: typeof import('~/routes/register_.$tournamentId');
let payment: typeof import('~/routes/payment');
let session: typeof import('~/utils/session.server');

beforeAll(async () => {
  stub = await startGatewayStub();
  await useStubEnv(stub);
  register = await import('~/routes/register_.$tournamentId');
  payment = await import('~/routes/payment');
  session = await import('~/utils/session.server');
});
afterAll(() => stub.close());

const TOURNAMENT = {
  id: 3,
  name: 'Weekend Scrims',
  game: 'BGMI',
  startDate: '2026-12-10T12:30:00.000Z',
  endDate: '2026-12-11T12:30:00.000Z',
  registrationOpen: '2026-01-01T00:00:00.000Z',
  registrationClose: '2099-12-09T12:30:00.000Z',
  maxTeams: 25,
  entryFee: 150,
  status: 'Registration Ongoing',
  registeredTeams: 16,
};
/** The default registration's team fields, as the register form posts them. */
const TEAM = Object.fromEntries(TEAM_FIELDS.map((field) => [field, registrationJson()[field]])) as Record<TeamField, string>;
const registration = (extra: Record<string, unknown> = {}) => ({ ...registrationJson({ rid: 42, tid: 3, ...TEAM }), ...extra });

async function signedIn(url: string, init?: (cookie: string) => Request): Promise<Request> {
  const token = await stub.token({ username: 'player_one' });
  const cookie = cookieOf(await session.createUserSession(new Request('http://localhost/login'), token, 'player_one', '/'));
  return init ? init(cookie) : new Request(url, { headers: { cookie } });
}
const post = (url: string, fields: Record<string, string>) => signedIn(url, (cookie) => formPost(url, fields, { cookie }));
const args = (request: Request, params: Record<string, string> = {}) => ({ request, params, context: {} });

/** Routes the stub by method and path. */
function routes(table: Record<string, (req: SeenRequest) => [number, unknown]>) {
  stub.answer((req, res) => {
    const key = `${req.method} ${req.url.split('?')[0]}`;
    const route = table[key];
    if (!route) return json(res, 404, { message: `no stub for ${key}` });
    const [status, body] = route(req);
    json(res, status, body);
  });
}

describe('UPI payment helpers', () => {
  it('note "CR-{rid} {team}" cut to 50 characters', () => {
    expect(paymentNote(42, 'Team Soul')).toBe('CR-42 Team Soul');
    const long = paymentNote(123456, 'A very long team name that goes on and on and on forever');
    expect(long).toHaveLength(50);
    expect(long.startsWith('CR-123456 A very long')).toBe(true);
  });

  it('builds upi://pay with the payee, the amount in rupees, INR and the note, spaces as %20', () => {
    const uri = upiUri({ vpa: 'org@okaxis', payeeName: 'Custom Room', amount: 150, note: 'CR-42 Team Soul' });
    expect(uri).toBe('upi://pay?pa=org%40okaxis&pn=Custom%20Room&am=150.00&cu=INR&tn=CR-42%20Team%20Soul');
  });

  it('draws a 250×250 SVG QR code', async () => {
    const url = await qrDataUrl('upi://pay?pa=a@b&am=1.00');
    const svg = Buffer.from(url.replace('data:image/svg+xml;base64,', ''), 'base64').toString('utf8');
    expect(svg).toMatch(/^<svg[^>]+width="250" height="250"/);
  });

  it('fills {rid} into the screenshot form link, none when unset', () => {
    expect(paymentFormUrl('https://forms.example/f?entry.1={rid}', 42)).toBe('https://forms.example/f?entry.1=42');
    expect(paymentFormUrl(undefined, 42)).toBeNull();
  });
});

describe('/register/{tournamentId}', () => {
  it('sends a visitor without a session to log in and back', async () => {
    const res = (await thrown(() => register.loader(args(new Request('http://localhost/register/3'), { tournamentId: '3' })))) as Response;
    expect(res.headers.get('location')).toBe('/login?redirectTo=%2Fregister%2F3');
  });

  it('shows slots left and the form while registration is open', async () => {
    routes({ 'GET /tournaments/3': () => [200, TOURNAMENT], 'GET /registrations/3': () => [404, { message: 'none' }] });
    const page = unwrap(await register.loader(args(await signedIn('http://localhost/register/3'), { tournamentId: '3' }))).body;
    expect(page.t).toMatchObject({ name: 'Weekend Scrims', fee: '₹150', slots: '9 of 25 slots left' });
    expect(page.state).toEqual({ kind: 'open' });
  });

  it('offers the team and payment instead of the form once registered, and "closed" with the status otherwise', async () => {
    routes({ 'GET /tournaments/3': () => [200, TOURNAMENT], 'GET /registrations/3': () => [200, registration()] });
    let page = unwrap(await register.loader(args(await signedIn('http://localhost/register/3'), { tournamentId: '3' }))).body;
    expect(page.state).toEqual({ kind: 'registered', rid: 42, teamName: 'Team Soul' });

    routes({
      'GET /tournaments/3': () => [200, { ...TOURNAMENT, status: 'Completed' }],
      'GET /registrations/3': () => [404, { message: 'none' }],
    });
    page = unwrap(await register.loader(args(await signedIn('http://localhost/register/3'), { tournamentId: '3' }))).body;
    expect(page.state).toEqual({ kind: 'closed', message: 'Registration is closed. Status: Completed.' });
  });

  it('posts the spec field names and goes to /payment?rid=', async () => {
    routes({ 'POST /registrations/3': () => [201, registration()] });
    const res = (await register.action(args(await post('http://localhost/register/3', TEAM), { tournamentId: '3' }))) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/payment?rid=42');
    expect(stub.seen.at(-1)).toMatchObject({ method: 'POST', url: '/registrations/3', body: TEAM });
  });

  it('says so when the gateway registered the team but returned no rid', async () => {
    const { rid: _rid, ...withoutRid } = registration();
    routes({ 'POST /registrations/3': () => [201, withoutRid] });
    const { status, body } = unwrap(await register.action(args(await post('http://localhost/register/3', TEAM), { tournamentId: '3' })));
    expect(status).toBe(200);
    expect(body.formError).toBe('Registration succeeded but ID was not returned.');
    expect(body.values).toMatchObject(TEAM);
  });

  it('keeps every input and places the gateway’s refusal beside its field', async () => {
    routes({
      'POST /registrations/3': () => [
        409,
        {
          message: 'Viper is already playing for another team in this tournament.',
          errors: { player2Username: 'Viper is already playing for another team in this tournament.' },
        },
      ],
      'GET /registrations/3': () => [404, { message: 'none' }],
    });
    const { status, body } = unwrap(await register.action(args(await post('http://localhost/register/3', TEAM), { tournamentId: '3' })));
    expect(status).toBe(409);
    expect(body.fieldErrors).toEqual({ player2Username: 'Viper is already playing for another team in this tournament.' });
    expect(body.values).toMatchObject(TEAM);
  });

  it('refuses look-alike IGNs of one team and hidden characters before calling the gateway, naming the fields and keeping every input', async () => {
    const before = stub.seen.length;
    const lookAlikes = { ...TEAM, player3Username: 'Mоrtal', substitute1Username: 'Ｖｉｐｅｒ' };
    let { status, body } = unwrap(
      await register.action(args(await post('http://localhost/register/3', lookAlikes), { tournamentId: '3' })),
    );
    expect(status).toBe(400);
    expect(body.fieldErrors).toEqual({
      player3Username: 'Player 3 IGN looks the same as Player 1 IGN: each player needs their own name.',
      substitute1Username: 'Substitute 1 IGN looks the same as Player 2 IGN: each player needs their own name.',
    });
    expect(body.values).toMatchObject(lookAlikes);

    const hiddenCharacters = { ...TEAM, teamName: 'Blaze\u034F', player4Username: 'Owais\uFE0F' };
    ({ status, body } = unwrap(
      await register.action(args(await post('http://localhost/register/3', hiddenCharacters), { tournamentId: '3' })),
    ));
    expect(status).toBe(400);
    expect(body.fieldErrors).toEqual({
      teamName: 'Team name cannot contain invisible or direction-changing characters.',
      player4Username: 'Player 4 IGN cannot contain invisible or direction-changing characters.',
    });
    expect(body.values).toMatchObject(hiddenCharacters);
    expect(stub.seen.length).toBe(before);
  });

  it('refuses missing players with the gateway’s own messages before calling it', async () => {
    const before = stub.seen.length;
    const { status, body } = unwrap(
      await register.action(args(await post('http://localhost/register/3', { ...TEAM, player4Username: ' ' }), { tournamentId: '3' })),
    );
    expect(status).toBe(400);
    expect(body.fieldErrors).toEqual({ player4Username: 'Player 4 IGN is required.' });
    expect(stub.seen.length).toBe(before);
  });

  it('sends a second submit of a registered team to its payment page', async () => {
    routes({
      'POST /registrations/3': () => [409, { message: 'You have already registered a team for this tournament.' }],
      'GET /registrations/3': () => [200, registration()],
    });
    const res = (await register.action(args(await post('http://localhost/register/3', TEAM), { tournamentId: '3' }))) as Response;
    expect(res.headers.get('location')).toBe('/payment?rid=42');
  });
});

describe('/payment', () => {
  const mine = (extra: Record<string, unknown> = {}) => [
    {
      ...registration(extra),
      tournament: {
        id: 3,
        name: 'Weekend Scrims',
        game: 'BGMI',
        status: 'Registration Ongoing',
        startDate: '',
        endDate: '',
        entryFee: 150,
        coverImageUrl: null,
      },
    },
  ];

  it('asks for a rid, and treats an unknown one (or another player’s) as not found', async () => {
    routes({ 'GET /registrations/user': () => [200, mine()] });
    expect(unwrap(await payment.loader(args(await signedIn('http://localhost/payment'))))).toEqual({
      status: 400,
      body: { found: false, message: 'No registration ID provided — please register first.' },
    });
    for (const rid of ['41', 'x']) {
      expect(unwrap(await payment.loader(args(await signedIn(`http://localhost/payment?rid=${rid}`))))).toEqual({
        status: 404,
        body: { found: false, message: 'Registration not found!' },
      });
    }
  });

  it('shows the amount, the QR and the upi:// link whose note carries the rid', async () => {
    routes({ 'GET /registrations/user': () => [200, mine()], 'GET /tournaments/3': () => [200, TOURNAMENT] });
    const { body } = unwrap(await payment.loader(args(await signedIn('http://localhost/payment?rid=42'))));
    expect(body).toMatchObject({ found: true, rid: 42, amount: '₹150', statusLabel: 'Pending', free: false });
    expect(body.upi.uri).toContain('am=150.00');
    expect(body.upi.uri).toContain('tn=CR-42%20Team%20Soul');
    expect(body.upi.qr).toMatch(/^data:image\/svg\+xml;base64,/);
  });

  // Issue 27 item 10: players pay the tournament's own payee; the variables are only the default.
  it("pays the tournament's own payee, and the site's default only for a tournament without one", async () => {
    const own = { ...TOURNAMENT, payeeUpiId: 'weekend.scrims@okaxis', payeeName: 'Weekend Scrims Org' };
    routes({ 'GET /registrations/user': () => [200, mine()], 'GET /tournaments/3': () => [200, own] });
    const { body } = unwrap(await payment.loader(args(await signedIn('http://localhost/payment?rid=42'))));
    expect(body.upi).toMatchObject({ vpa: 'weekend.scrims@okaxis', payeeName: 'Weekend Scrims Org' });
    expect(body.upi.uri).toMatch(/^upi:\/\/pay\?pa=weekend.scrims%40okaxis&pn=Weekend%20Scrims%20Org&am=150.00/);

    routes({ 'GET /registrations/user': () => [200, mine()], 'GET /tournaments/3': () => [200, TOURNAMENT] });
    const fallback = unwrap(await payment.loader(args(await signedIn('http://localhost/payment?rid=42')))).body;
    expect(fallback.upi).toMatchObject({ vpa: process.env.UPI_PAYEE_VPA ?? 'customroom@upi' });
  });

  it('falls back to the tournament’s price, then to the tournament itself, for the fee', async () => {
    routes({
      'GET /registrations/user': () => [200, [{ ...mine()[0], tournament: { id: 3, name: 'Weekend Scrims', price: 99 } }]],
      'GET /tournaments/3': () => [200, TOURNAMENT], // for its payee
    });
    expect(unwrap(await payment.loader(args(await signedIn('http://localhost/payment?rid=42')))).body.amount).toBe('₹99');
    routes({ 'GET /registrations/user': () => [200, [registration()]], 'GET /tournaments/3': () => [200, { ...TOURNAMENT, entryFee: 0 }] });
    const { body } = unwrap(await payment.loader(args(await signedIn('http://localhost/payment?rid=42'))));
    expect(body).toMatchObject({ free: true, upi: null });
  });

  it('sends the UPI reference for the registration’s tournament and keeps a refused one', async () => {
    routes({
      'GET /registrations/user': () => [200, mine()],
      'POST /registrations/3/payment': () => [200, registration({ paymentStatus: 'submitted' })],
    });
    const res = (await payment.action(args(await post('http://localhost/payment?rid=42', { upiReference: ' 412345678901 ' })))) as Response;
    expect(res.headers.get('location')).toBe('/payment?rid=42');
    expect(stub.seen.at(-1)).toMatchObject({ url: '/registrations/3/payment', body: { upiReference: '412345678901' } });

    const { status, body } = unwrap(await payment.action(args(await post('http://localhost/payment?rid=42', { upiReference: '12-34' }))));
    expect(status).toBe(400);
    expect(body.fieldErrors.upiReference).toMatch(/^A UTR has 12 digits; this has 4\. In your UPI app/);
    expect(body.values.upiReference).toBe('12-34');
  });

  it('checks the 12-digit UTR before the gateway, sends it without spaces and dashes, and keeps what was typed when refused (issue 16)', async () => {
    let taken = false;
    const TAKEN =
      'This UTR is already on another registration. Check that you copied the UTR of your own payment; if you did, contact the organiser.';
    routes({
      'GET /registrations/user': () => [200, mine()],
      'POST /registrations/3/payment': () =>
        taken ? [409, { message: TAKEN, errors: { upiReference: TAKEN } }] : [200, registration({ paymentStatus: 'submitted' })],
    });
    const where =
      /In your UPI app, open the payment: the UTR is the 12-digit "UPI Ref\. No\." \(Paytm, BHIM\), "UTR" \(PhonePe\) or "UPI transaction ID" \(Google Pay\)\.$/;
    const refused: [string, RegExp][] = [
      ['12345678901', /^A UTR has 12 digits; this has 11\./],
      ['1234567890123456789012345', /this has 25\./],
      ['000000000000', /^A UTR is never one digit repeated\./],
      ['T2603051830ABC', /^A UTR has only digits\./],
    ];
    const before = stub.seen.length;
    for (const [typed, message] of refused) {
      const { status, body } = unwrap(await payment.action(args(await post('http://localhost/payment?rid=42', { upiReference: typed }))));
      expect(status, typed).toBe(400);
      expect(body.fieldErrors.upiReference, typed).toMatch(message);
      expect(body.fieldErrors.upiReference, typed).toMatch(where);
      expect(body.values.upiReference, typed).toBe(typed);
    }
    expect(stub.seen.slice(before).filter((r) => r.method === 'POST')).toEqual([]);

    const res = (await payment.action(args(await post('http://localhost/payment?rid=42', { upiReference: '4123 4567-8901' })))) as Response;
    expect(res.status).toBe(302);
    expect(stub.seen.at(-1)).toMatchObject({ method: 'POST', url: '/registrations/3/payment', body: { upiReference: '412345678901' } });

    taken = true;
    const { status, body } = unwrap(
      await payment.action(args(await post('http://localhost/payment?rid=42', { upiReference: '5123 4567 8901' }))),
    );
    expect(status).toBe(409);
    expect(body.fieldErrors).toEqual({ upiReference: TAKEN });
    expect(body.values.upiReference).toBe('5123 4567 8901');
  });

  it('never submits for a registration that is not the caller’s', async () => {
    routes({ 'GET /registrations/user': () => [200, mine()] });
    const { status, body } = unwrap(
      await payment.action(args(await post('http://localhost/payment?rid=7', { upiReference: '412345678901' }))),
    );
    expect(status).toBe(404);
    expect(body.formError).toBe('Registration not found!');
    expect(stub.seen.some((r) => r.method === 'POST' && r.url.includes('/payment') && r.url.includes('/7'))).toBe(false);
  });
});

describe('/my-tournaments', () => {
  let list: typeof import('~/routes/my-tournaments._index');
  let info: typeof import('~/routes/my-tournaments.$tournamentId.info');
  beforeAll(async () => {
    list = await import('~/routes/my-tournaments._index');
    info = await import('~/routes/my-tournaments.$tournamentId.info');
  });
  const summary = {
    id: 3,
    name: 'Weekend Scrims',
    game: 'BGMI',
    status: 'Registration Ongoing',
    startDate: '2026-12-10T12:30:00.000Z',
    endDate: '',
    entryFee: 150,
    coverImageUrl: null,
    phase: 'registration-open', // issue 27: the gateway's derived phase
  };

  it('a card per registration: tournament, game, team, start date, payment status in words', async () => {
    routes({ 'GET /registrations/user': () => [200, [{ ...registration({ paymentStatus: 'submitted' }), tournament: summary }]] });
    const page = await list.loader(args(await signedIn('http://localhost/my-tournaments')));
    expect(page).toEqual({
      failed: false,
      cards: [
        {
          rid: 42,
          tid: 3,
          name: 'Weekend Scrims',
          game: 'BGMI',
          phase: 'registration-open',
          starts: '10 Dec 2026',
          teamName: 'Team Soul',
          payment: 'Submitted',
          free: false,
          state: { place: 'placed', words: 'payment submitted', tone: 'wait', confirmed: false, active: true },
        },
      ],
    });
  });

  it('an empty list, and a refusal as the spec’s message rather than an error page', async () => {
    routes({ 'GET /registrations/user': () => [200, []] });
    expect(await list.loader(args(await signedIn('http://localhost/my-tournaments')))).toEqual({ failed: false, cards: [] });
    routes({ 'GET /registrations/user': () => [403, { message: 'nope' }] });
    expect(await list.loader(args(await signedIn('http://localhost/my-tournaments')))).toEqual({ failed: true, cards: [] });
  });

  it('the details page offers Pay only until the payment is verified, and 404s without a team', async () => {
    routes({
      'GET /tournaments/3': () => [200, TOURNAMENT],
      'GET /registrations/3': () => [200, registration({ paymentStatus: 'verified' })],
    });
    const page = await info.loader(args(await signedIn('http://localhost/my-tournaments/3/info'), { tournamentId: '3' }));
    expect(page).toMatchObject({ id: 3, rid: 42, teamName: 'Team Soul', paymentStatus: 'verified', payment: 'Verified', free: false });

    routes({ 'GET /tournaments/3': () => [200, TOURNAMENT], 'GET /registrations/3': () => [404, { message: 'none' }] });
    const err = unwrap(
      await thrown(async () => info.loader(args(await signedIn('http://localhost/my-tournaments/3/info'), { tournamentId: '3' }))),
    );
    expect(err.status).toBe(404);
    expect(err.body.message).toBe('You have not registered a team for this tournament.');
  });
});
