// Issue 31 (decision 081): a bank or UPI business statement uploaded, matched to the teams' UTRs (or their
// payment notes), previewed in groups, and the matched verified in one all-or-nothing action.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createTournamentWithTeams,
  createUser,
  expectStatus,
  uniqueUtr,
  useGatewayWithPlayers,
  type RegisteredTeam,
  type TestGateway,
  type TestUser,
} from './helpers.js';

/** An SBI-like export: a header block, the table, a footer. rows: [date, description, ref, debit, credit]. */
function sbiCsv(rows: string[][]): string {
  return [
    'Account Name :,RAHUL ESPORTS',
    'Account Number :,00000012345678901',
    'Statement From :,01 Nov 2026,to,30 Nov 2026',
    '',
    'Txn Date,Value Date,Description,Ref No./Cheque No.,Debit,Credit,Balance',
    ...rows.map(([date, description, ref, debit, credit]) =>
      [date, date, description, ref, debit, credit, '1,00,000.00'].map(csvCell).join(','),
    ),
    '',
    '**This is a computer generated statement and does not require a signature.',
  ].join('\n');
}
const csvCell = (v: string | undefined) => (v && /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : (v ?? ''));

function statementForm(text: string | Buffer, name = 'statement.csv'): FormData {
  const form = new FormData();
  form.append('statement', new Blob([typeof text === 'string' ? text : new Uint8Array(text)]), name);
  return form;
}

describe('statement matching', () => {
  const setup = useGatewayWithPlayers(6);
  let gw: TestGateway;
  let admin: string;
  let players: TestUser[];
  beforeAll(() => ({ gw, admin, players } = setup));

  const upload = (tid: number, text: string | Buffer, token: string, name?: string) =>
    gw.api.request('POST', `/tournaments/${tid}/statements`, { token, form: statementForm(text, name) });
  const preview = (tid: number, sid: number, token = admin) => gw.api.get(`/tournaments/${tid}/statements/${sid}`, token);
  const verify = (tid: number, sid: number, body: object, token = admin) =>
    gw.api.post(`/tournaments/${tid}/statements/${sid}/verify`, body, token);

  /** A ₹50 tournament of five teams: four send UTRs, the fifth pays with its note only. */
  async function event() {
    const { tid, teams } = await createTournamentWithTeams(
      gw.api,
      admin,
      players,
      ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo'].map((n) => `${n} ${Date.now() % 100000}`),
      { entryFee: '50' },
    );
    const utrs = [uniqueUtr(), uniqueUtr(), uniqueUtr(), uniqueUtr()];
    for (const [i, utr] of utrs.entries())
      expectStatus(await gw.api.post(`/registrations/${tid}/payment`, { upiReference: utr }, players[i]!.token), 200);
    return { tid, teams, utrs };
  }

  function eventStatement(teams: RegisteredTeam[], utrs: string[], unknownUtr: string) {
    const spaced = `${utrs[0]!.slice(0, 4)} ${utrs[0]!.slice(4, 8)} ${utrs[0]!.slice(8)}`;
    return sbiCsv([
      ['28 Nov 2026', `UPI/${teams[0]!.teamName}/alpha@okaxis`, spaced, '', '50.00'], // Alpha: a UTR with spaces
      ['28 Nov 2026', 'UPI/bravo@ybl', utrs[1]!, '', '50.00'], // Bravo
      ['28 Nov 2026', 'UPI/charlie@oksbi', utrs[2]!, '', '40.00'], // Charlie paid ₹40
      // Delta's UTR is missing from the statement.
      ['28 Nov 2026', `UPI/echo@paytm/CR-${teams[4]!.rid} ${teams[4]!.teamName}`, '', '', '50.00'], // Echo: its note only
      ['28 Nov 2026', 'UPI/stranger@ibl', unknownUtr, '', '50.00'], // nobody's
      ['29 Nov 2026', 'UPI/bravo@ybl', utrs[1]!, '', '50.00'], // Bravo credited again
      ['29 Nov 2026', 'ATM WITHDRAWAL', '', '2,000.00', ''], // a debit
    ]);
  }

  it('groups every payment and credit, and verifies the matched in one action', async () => {
    const { tid, teams, utrs } = await event();
    const unknownUtr = uniqueUtr();
    const text = eventStatement(teams, utrs, unknownUtr);
    const s = expectStatus(await upload(tid, text, admin, 'sbi-november.csv'), 201);
    expect(s).toMatchObject({ state: 'read', fileName: 'sbi-november.csv', format: 'csv', credits: 6, repeated: false });

    const p = expectStatus(await preview(tid, s.id), 200);
    expect(p.feePaise).toBe(5000);
    expect(names(p.matched)).toEqual([teams[0]!.teamName, teams[1]!.teamName, teams[4]!.teamName].sort());
    expect(p.matched.find((m: any) => m.registrationId === teams[4]!.rid)).toMatchObject({ by: 'note', upiReference: '' });
    expect(p.matched.find((m: any) => m.registrationId === teams[0]!.rid)).toMatchObject({
      by: 'utr',
      credit: { utr: utrs[0], amountPaise: 5000 },
    });
    expect(p.amountDiffers).toEqual([
      expect.objectContaining({ registrationId: teams[2]!.rid, credit: expect.objectContaining({ amountPaise: 4000 }) }),
    ]);
    expect(p.noTeam).toEqual([expect.objectContaining({ utr: unknownUtr, team: null })]);
    expect(p.notOnStatement).toEqual([expect.objectContaining({ registrationId: teams[3]!.rid, upiReference: utrs[3] })]);
    expect(p.duplicates).toEqual([
      expect.objectContaining({ utr: utrs[1], team: expect.objectContaining({ registrationId: teams[1]!.rid }) }),
    ]);
    expect(p.alreadyVerified).toEqual([]);

    // Nothing is verified by the upload or the preview.
    const before = expectStatus(await gw.api.get(`/registrations/tournament/${tid}`, admin), 200);
    expect(before.filter((r: any) => r.paymentStatus === 'verified')).toEqual([]);

    const shown = Object.fromEntries(p.matched.map((m: any) => [String(m.registrationId), m.by === 'utr' ? m.credit.utr : '']));
    const rids = p.matched.map((m: any) => m.registrationId);
    const done = expectStatus(await verify(tid, s.id, { rids, expectedUpiReferences: shown }), 200);
    expect(done).toEqual({ verified: 3, message: 'Verified 3 teams.' });
    const after = expectStatus(await gw.api.get(`/registrations/tournament/${tid}`, admin), 200);
    const status = new Map(after.map((r: any) => [r.rid, r.paymentStatus]));
    expect([0, 1, 2, 3, 4].map((i) => status.get(teams[i]!.rid))).toEqual(['verified', 'verified', 'submitted', 'submitted', 'verified']);
    // Each verified team is told, as a single verification tells it.
    const told = await gw.app.store.db
      .selectFrom('notification_events')
      .select('audience')
      .where('tournament_id', '=', tid)
      .where('kind', '=', 'payment-verified')
      .execute();
    expect(told.map((e) => JSON.parse(e.audience).registrations[0]).sort()).toEqual([teams[0]!.rid, teams[1]!.rid, teams[4]!.rid].sort());

    // Again: nothing left to verify, and the same call changes nothing.
    const again = expectStatus(await preview(tid, s.id), 200);
    expect(again.matched).toEqual([]);
    expect(names(again.alreadyVerified)).toEqual(names(p.matched));
    expect(expectStatus(await verify(tid, s.id, { rids, expectedUpiReferences: shown }), 200)).toEqual({
      verified: 0,
      message: 'Those teams were already verified; nothing changed.',
    });
  });

  it('the same file uploaded again is the same statement, and changes nothing', async () => {
    const { tid, teams, utrs } = await event();
    const text = eventStatement(teams, utrs, uniqueUtr());
    const first = expectStatus(await upload(tid, text, admin), 201);
    const second = expectStatus(await upload(tid, text, admin, 'renamed.csv'), 200);
    expect(second).toMatchObject({ id: first.id, repeated: true, credits: 6, fileName: first.fileName });
    expect(expectStatus(await gw.api.get(`/tournaments/${tid}/statements`, admin), 200)).toHaveLength(1);
  });

  it('verifies all or nothing: a team that changed its UTR since the preview stops the whole action', async () => {
    const { tid, teams, utrs } = await event();
    const s = expectStatus(await upload(tid, eventStatement(teams, utrs, uniqueUtr()), admin), 201);
    const p = expectStatus(await preview(tid, s.id), 200);
    const shown = Object.fromEntries(p.matched.map((m: any) => [String(m.registrationId), m.by === 'utr' ? m.credit.utr : '']));
    const rids = p.matched.map((m: any) => m.registrationId);
    // Bravo sends another UTR after the organiser looked.
    expectStatus(await gw.api.post(`/registrations/${tid}/payment`, { upiReference: uniqueUtr() }, players[1]!.token), 200);
    const refused = await verify(tid, s.id, { rids, expectedUpiReferences: shown });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(`${teams[1]!.teamName} no longer matches the statement as shown. Nothing was verified; check again.`);
    expect(refused.body.errors).toEqual({ [`expectedUpiReferences.${teams[1]!.rid}`]: expect.any(String) });
    // A UTR the organiser was not shown is refused too (a team of the preview named with another UTR).
    const wrong = await verify(tid, s.id, { rids: [teams[0]!.rid], expectedUpiReferences: { [teams[0]!.rid]: utrs[3] } });
    expect(wrong.status).toBe(409);
    // A team that was never matched (Charlie paid ₹40) cannot be slipped in.
    const slipped = await verify(tid, s.id, { rids: [teams[2]!.rid], expectedUpiReferences: { [teams[2]!.rid]: utrs[2] } });
    expect(slipped.status).toBe(409);
    const after = expectStatus(await gw.api.get(`/registrations/tournament/${tid}`, admin), 200);
    expect(after.filter((r: any) => r.paymentStatus === 'verified')).toEqual([]);
  });

  it('asks for the columns of an unknown layout, and remembers them for the organiser', async () => {
    const { tid, teams, utrs } = await event();
    const odd = (utr: string, amount: string) => `28-11-2026;${utr};${amount};ok`;
    const text = ['Kab;Sandarbh;Rashi;Tippani', odd(utrs[0]!, '50'), odd(utrs[1]!, '50')].join('\n');
    const s = expectStatus(await upload(tid, text, admin, 'odd.csv'), 201);
    expect(s).toMatchObject({ state: 'needs-columns', headers: ['Kab', 'Sandarbh', 'Rashi', 'Tippani'], credits: 0 });
    expect(s.sample.length).toBeGreaterThan(0);
    const p = expectStatus(await preview(tid, s.id), 200);
    expect(p.matched).toEqual([]);
    expect((await verify(tid, s.id, { rids: [teams[0]!.rid], expectedUpiReferences: { [teams[0]!.rid]: utrs[0] } })).status).toBe(409);

    const noAmount = await gw.api.put(`/tournaments/${tid}/statements/${s.id}/columns`, { columns: { reference: 1 } }, admin);
    expect(noAmount.status).toBe(400);
    const read = expectStatus(
      await gw.api.put(`/tournaments/${tid}/statements/${s.id}/columns`, { columns: { date: 0, reference: 1, amount: 2 } }, admin),
      200,
    );
    expect(read).toMatchObject({ state: 'read', credits: 2, columns: { date: 0, reference: 1, amount: 2 } });
    expect(names(expectStatus(await preview(tid, s.id), 200).matched)).toEqual([teams[0]!.teamName, teams[1]!.teamName].sort());

    // Another file of the same layout is read at once with the remembered columns.
    const next = expectStatus(await upload(tid, ['Kab;Sandarbh;Rashi;Tippani', odd(utrs[2]!, '40')].join('\n'), admin, 'odd-2.csv'), 201);
    expect(next).toMatchObject({ state: 'read', credits: 1 });
  });

  it('refuses what it cannot read with a clear message', async () => {
    const { tid } = await event();
    const none = await gw.api.request('POST', `/tournaments/${tid}/statements`, { token: admin, form: new FormData() });
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('Choose the statement file (CSV or XLSX).');
    const big = await upload(tid, Buffer.alloc(5 * 1024 * 1024 + 1, 0x41), admin);
    expect(big.status).toBe(413);
    expect(big.body.message).toBe('The statement is larger than 5 MB. Export a shorter date range.');
    const xls = await upload(tid, Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]), admin, 'old.xls');
    expect(xls.status).toBe(400);
    expect(xls.body.errors.statement).toMatch(/CSV or XLSX/);
    expect((await gw.api.get(`/tournaments/${tid}/statements/999999`, admin)).status).toBe(404);
  });

  it('only the owner, co-organisers and payments staff see statements; lobby staff and players do not', async () => {
    const { tid, teams, utrs } = await event();
    const s = expectStatus(await upload(tid, eventStatement(teams, utrs, uniqueUtr()), admin), 201);
    const stageId = expectStatus(await gw.api.post(`/tournaments/${tid}/stages`, { name: 'Qualifiers', lobbySize: 4 }, admin), 201).id;
    const crew: Record<string, TestUser> = {};
    for (const role of ['payments', 'co-organiser', 'lobby'] as const) {
      const member = await createUser(gw.api);
      const body = role === 'lobby' ? { who: member.username, role, scopes: [{ stageId }] } : { who: member.username, role };
      const invited = expectStatus(await gw.api.post(`/tournaments/${tid}/staff`, body, admin), 201, role);
      expectStatus(await gw.api.post(`/staff-invitations/${invited.token}/accept`, {}, member.token), 200);
      crew[role] = member;
    }
    for (const role of ['payments', 'co-organiser'] as const) {
      expect((await preview(tid, s.id, crew[role]!.token)).status, role).toBe(200);
      expect((await gw.api.get(`/tournaments/${tid}/statements`, crew[role]!.token)).status, role).toBe(200);
    }
    expect((await preview(tid, s.id, crew.lobby!.token)).status).toBe(403);
    expect((await upload(tid, 'x', crew.lobby!.token)).status).toBe(403);
    // A player of the tournament, and an account with no part in it.
    expect((await preview(tid, s.id, players[0]!.token)).status).toBe(403);
    expect((await upload(tid, 'x', players[0]!.token)).status).toBe(403);
    expect((await verify(tid, s.id, { rids: [teams[0]!.rid], expectedUpiReferences: {} }, players[0]!.token)).status).toBe(403);
    expect((await gw.api.get(`/tournaments/${tid}/statements/${s.id}`)).status).toBe(401);
  });
});

const names = (rows: { teamName: string }[]) => rows.map((r) => r.teamName).sort();
