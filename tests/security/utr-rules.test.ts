// Issue 16, item 2: the UPI reference is the 12-digit UTR every UPI app shows (decision 029). Spaces
// and dashes inside it are dropped; anything else, one digit repeated, or a UTR already on another
// registration (any tournament) is refused with a message that names the field, says where to find the
// UTR, and never reveals which team has it. Two submits of one UTR at once: one wins.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPlayersDirect,
  createTournament,
  teamFields,
  uniqueUtr,
  type TestGateway,
  type TestUser,
  useGatewayWithPlayers,
} from './helpers.js';

const WHERE =
  /In your UPI app, open the payment: the UTR is the 12-digit "UPI Ref\. No\." \(Paytm, BHIM\), "UTR" \(PhonePe\) or "UPI transaction ID" \(Google Pay\)\./;
const TAKEN =
  'This UTR is already on another registration. Check that you copied the UTR of your own payment; if you did, contact the organiser.';

describe('UPI references: the 12-digit UTR, once', () => {
  let gw: TestGateway;
  let admin: string;
  let players: TestUser[];
  const counts = { refused: 0, accepted: 0, taken: 0 };

  const setup = useGatewayWithPlayers(3);
  beforeAll(() => ({ gw, admin, players } = setup));
  afterAll(() => console.log(`utr rules: ${counts.refused} malformed refused, ${counts.taken} taken refused, ${counts.accepted} accepted`));

  /** A new tournament with a team of each player; answers its id. */
  async function tournament(overrides: Record<string, string> = {}) {
    const t = await createTournament(gw.api, admin, overrides);
    for (const p of players) expect((await gw.api.post(`/registrations/${t.id}`, teamFields(), p.token)).status).toBe(201);
    return t.id as number;
  }
  const submit = (tid: number, player: TestUser, upiReference: unknown) =>
    gw.api.post(`/registrations/${tid}/payment`, { upiReference }, player.token);
  const mine = async (tid: number, player: TestUser) => (await gw.api.get(`/registrations/${tid}`, player.token)).body;

  it('accepts the 12 digits, dropping spaces and dashes typed or pasted inside them', async () => {
    const tid = await tournament();
    const digits = uniqueUtr();
    const grouped = `${digits.slice(0, 4)} ${digits.slice(4, 8)} ${digits.slice(8)}`;
    const forms = [
      digits,
      `  ${digits}\t`,
      grouped,
      `${digits.slice(0, 4)}-${digits.slice(4, 8)}-${digits.slice(8)}`,
      `${digits.slice(0, 6)}\u00a0${digits.slice(6)}`, // a non-breaking space from a copied statement
      `${digits.slice(0, 3)}\u2013${digits.slice(3, 6)}\u2014${digits.slice(6)}`, // en and em dashes
      `${digits.slice(0, 2)} - ${digits.slice(2)}`,
    ];
    for (const form of forms) {
      const res = await submit(tid, players[0]!, form);
      expect(res.status, JSON.stringify(form)).toBe(200);
      expect(res.body).toMatchObject({ paymentStatus: 'submitted', paymentReference: digits });
      counts.accepted += 1;
    }
    expect((await mine(tid, players[0]!)).paymentReference).toBe(digits);
  });

  it('refuses anything but 12 digits, and one digit repeated, beside the field with where to find the UTR', async () => {
    const tid = await tournament();
    const cases: [unknown, RegExp][] = [
      ['12345678901', /^A UTR has 12 digits; this has 11\. /], // the 11 digits
      ['1234567890123456789012345', /^A UTR has 12 digits; this has 25\. /], // the 25 digits
      ['4123456789012', /this has 13\. /],
      ['412345', /this has 6\. /],
      ['000000000000', /^A UTR is never one digit repeated\. /], // the twelve zeros
      ['111111111111', /never one digit repeated/],
      ['9999 9999 9999', /never one digit repeated/],
      ['T2603051830ABC', /^A UTR has only digits\. /], // PhonePe's transaction ID, not the UTR
      ['4123456789O1', /only digits/], // a letter O
      ['4123.4567.8901', /only digits/],
      ['4123/4567/8901', /only digits/],
      ['+412345678901', /only digits/],
      ['४१२३४५६७८९०१', /only digits/], // Devanagari digits
      ['４１２３４５６７８９０１', /only digits/], // full-width digits
      ['412345678901; drop table registrations', /only digits/],
      ['', /^UPI reference is required\.$/],
      ['   ', /^UPI reference is required\.$/],
      [' - - ', /^UPI reference is required\.$/],
      [412345678901, /^UPI reference must be text\.$/],
      [null, /^UPI reference must be text\.$/],
      [['412345678901'], /^UPI reference must be text\.$/],
    ];
    for (const [upiReference, message] of cases) {
      const res = await submit(tid, players[0]!, upiReference);
      expect(res.status, JSON.stringify(upiReference)).toBe(400);
      expect(Object.keys(res.body.errors), JSON.stringify(upiReference)).toEqual(['upiReference']);
      expect(res.body.errors.upiReference, JSON.stringify(upiReference)).toMatch(message);
      if (typeof upiReference === 'string' && upiReference.trim().replace(/[\s-]/g, '') !== '')
        expect(res.body.errors.upiReference).toMatch(WHERE);
      counts.refused += 1;
    }
    expect(await mine(tid, players[0]!)).toMatchObject({ paymentStatus: 'pending', paymentReference: '' });
  });

  it('refuses a UTR already on another registration, in this tournament or any other, without naming it', async () => {
    const [first, second] = [await tournament(), await tournament()];
    const utr = uniqueUtr();
    const owner = players[0]!;
    expect((await submit(first, owner, utr)).status).toBe(200);
    const ownerTeam = await mine(first, owner);

    const tries: [number, TestUser, string][] = [
      [first, players[1]!, utr], // same tournament
      [second, players[2]!, utr], // another tournament
      [second, owner, utr], // the same player's team in another tournament: one payment, one registration
      [first, players[2]!, `${utr.slice(0, 4)} ${utr.slice(4, 8)} ${utr.slice(8)}`], // the same UTR, written differently
      [second, players[1]!, `${utr.slice(0, 6)}-${utr.slice(6)}`],
    ];
    for (const [tid, player, reference] of tries) {
      const res = await submit(tid, player, reference);
      expect(res.status, reference).toBe(409);
      expect(res.body).toEqual({ message: TAKEN, errors: { upiReference: TAKEN } });
      const text = JSON.stringify(res.body);
      for (const secret of [ownerTeam.teamName, String(ownerTeam.rid), owner.username, ownerTeam.player1Username])
        expect(text).not.toContain(secret);
      expect((await mine(tid, player)).paymentStatus).toBe('pending');
      counts.taken += 1;
    }
    // The team's own UTR again is no conflict; once it changes its UTR, the old one is free.
    expect((await submit(first, owner, utr)).status).toBe(200);
    const next = uniqueUtr();
    expect((await submit(first, owner, next)).status).toBe(200);
    expect((await submit(second, players[2]!, utr)).status).toBe(200);
    expect((await submit(second, players[1]!, next)).status).toBe(409);
  });

  it('of many teams sending one UTR at the same moment, exactly one gets it', async () => {
    const t = await createTournament(gw.api, admin, { maxTeams: '40' });
    const crowd = await createPlayersDirect(gw.app.store, gw.app.tokens, 24);
    for (const p of crowd) expect((await gw.api.post(`/registrations/${t.id}`, teamFields(), p.token)).status).toBe(201);
    for (let round = 0; round < 3; round++) {
      const utr = uniqueUtr();
      const answers = await Promise.all(crowd.map((p) => submit(t.id, p, utr)));
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(crowd.length - 1);
      for (const a of answers.filter((x) => x.status === 409)) expect(a.body).toEqual({ message: TAKEN, errors: { upiReference: TAKEN } });
      const holders = (await gw.api.get(`/registrations/tournament/${t.id}`, admin)).body.filter((r: any) => r.paymentReference === utr);
      expect(holders).toHaveLength(1);
      counts.taken += crowd.length - 1;
      counts.accepted += 1;
    }
  });
});
