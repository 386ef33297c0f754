// Issue 16, item 3: a verify or reject judges the UPI reference the admin was shown (decision 029).
// The admin lists the teams, a player then changes the UTR: the admin's Verify must not mark the new,
// unseen UTR as verified. Refused with 409 "This team changed its UPI reference; check it again" and
// nothing changes, for the one-team call and the ticked (bulk) call, all or nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminToken,
  createPlayersDirect,
  createTournament,
  startGateway,
  teamFields,
  uniqueUtr,
  type TestGateway,
  type TestUser,
} from './helpers.js';

const CHANGED = 'This team changed its UPI reference; check it again.';

describe('verification bound to the UTR the admin saw', () => {
  let gw: TestGateway;
  let admin: string;
  let players: TestUser[];
  const figures: string[] = [];

  beforeAll(async () => {
    gw = await startGateway();
    admin = await adminToken(gw.api);
    players = await createPlayersDirect(gw.app.store, gw.app.tokens, 48);
  });
  afterAll(async () => {
    console.log(`payment verification: ${figures.join('; ')}`);
    await gw.stop();
  });

  /** A tournament where the first n players registered a team and sent a UTR. */
  async function submittedTeams(n: number) {
    const t = await createTournament(gw.api, admin, { maxTeams: '60' });
    const teams: { rid: number; player: TestUser; utr: string }[] = [];
    for (const player of players.slice(0, n)) {
      const reg = await gw.api.post(`/registrations/${t.id}`, teamFields(), player.token);
      expect(reg.status).toBe(201);
      const utr = uniqueUtr();
      expect((await gw.api.post(`/registrations/${t.id}/payment`, { upiReference: utr }, player.token)).status).toBe(200);
      teams.push({ rid: reg.body.rid, player, utr });
    }
    return { tid: t.id as number, teams };
  }
  /** The admin's list: rid → [status, reference, updatedAt]. */
  const listed = async (tid: number) =>
    Object.fromEntries(
      ((await gw.api.get(`/registrations/tournament/${tid}`, admin)).body as any[]).map((r) => [
        r.rid,
        [r.paymentStatus, r.paymentReference, r.updatedAt],
      ]),
    );
  const setOne = (rid: number, body: Record<string, unknown>) => gw.api.put(`/registrations/admin/${rid}/payment`, body, admin);
  const setMany = (body: Record<string, unknown>) => gw.api.put('/registrations/admin/payments', body, admin);
  const changeUtr = async (tid: number, player: TestUser) => {
    const utr = uniqueUtr();
    expect((await gw.api.post(`/registrations/${tid}/payment`, { upiReference: utr }, player.token)).status).toBe(200);
    return utr;
  };

  it('one team: 48 of 48 verifies and rejects of a UTR changed after the admin saw it are refused, and nothing changes', async () => {
    const { tid, teams } = await submittedTeams(48);
    const seen = await listed(tid); // the admin's page
    const fresh: string[] = [];
    for (const team of teams) fresh.push(await changeUtr(tid, team.player)); // ... and every player then sends another UTR
    const before = await listed(tid);
    let refused = 0;
    for (const [i, team] of teams.entries()) {
      const res = await setOne(team.rid, { paymentStatus: i % 2 ? 'rejected' : 'verified', expectedUpiReference: seen[team.rid]![1] });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: CHANGED, errors: { expectedUpiReference: CHANGED } });
      refused += 1;
    }
    expect(await listed(tid)).toEqual(before);
    for (const [i, team] of teams.entries()) expect(before[team.rid]!.slice(0, 2)).toEqual(['submitted', fresh[i]]);
    figures.push(`one-team call: ${refused} of ${teams.length} stale verifies/rejects refused, 0 changed`);

    // Looking again (the new UTR) and verifying works.
    const now = await listed(tid);
    const ok = await setOne(teams[0]!.rid, { paymentStatus: 'verified', expectedUpiReference: now[teams[0]!.rid]![1] });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ paymentStatus: 'verified', paymentReference: fresh[0] });
  });

  it('ticked teams: one changed UTR refuses the whole batch, naming that team beside it, and nothing changes', async () => {
    const { tid, teams } = await submittedTeams(6);
    const seen = await listed(tid);
    const expectedUpiReferences = Object.fromEntries(teams.map((t) => [t.rid, seen[t.rid]![1]]));
    await changeUtr(tid, teams[3]!.player);
    await changeUtr(tid, teams[5]!.player);
    const before = await listed(tid);
    for (const paymentStatus of ['verified', 'rejected']) {
      const res = await setMany({ tournamentId: tid, rids: teams.map((t) => t.rid), paymentStatus, expectedUpiReferences });
      expect(res.status).toBe(409);
      expect(Object.keys(res.body.errors).sort()).toEqual(
        [`expectedUpiReferences.${teams[3]!.rid}`, `expectedUpiReferences.${teams[5]!.rid}`].sort(),
      );
      expect(res.body.errors[`expectedUpiReferences.${teams[3]!.rid}`]).toBe(CHANGED);
      expect(res.body.message).toMatch(/changed their UPI references; check them again\. Nothing was changed\.$/);
      expect(await listed(tid)).toEqual(before);
    }
    // One ticked team only, changed: the same refusal in the singular.
    const single = await setMany({ tournamentId: tid, rids: [teams[3]!.rid], paymentStatus: 'verified', expectedUpiReferences });
    expect(single.status).toBe(409);
    expect(single.body.message).toMatch(/changed its UPI reference; check it again\. Nothing was changed\.$/);
    // The unchanged ones alone go through.
    const unchanged = [0, 1, 2, 4].map((i) => teams[i]!.rid);
    const ok = await setMany({ tournamentId: tid, rids: unchanged, paymentStatus: 'verified', expectedUpiReferences });
    expect(ok.status).toBe(200);
    expect(ok.body.map((r: any) => r.paymentStatus)).toEqual(['verified', 'verified', 'verified', 'verified']);
    figures.push('bulk call: 3 stale batches refused whole, 0 changed');
  });

  it('verify and reject must say which reference they judged; setting pending or submitted need not', async () => {
    const { tid, teams } = await submittedTeams(2);
    const before = await listed(tid);
    const one = await setOne(teams[0]!.rid, { paymentStatus: 'verified' });
    expect(one.status).toBe(400);
    expect(Object.keys(one.body.errors)).toEqual(['expectedUpiReference']);
    const many = await setMany({
      tournamentId: tid,
      rids: [teams[0]!.rid, teams[1]!.rid],
      paymentStatus: 'rejected',
      expectedUpiReferences: { [teams[0]!.rid]: teams[0]!.utr },
    });
    expect(many.status).toBe(400);
    expect(Object.keys(many.body.errors)).toEqual([`expectedUpiReferences.${teams[1]!.rid}`]);
    expect(await listed(tid)).toEqual(before);

    // Another reference than the stored one, "" for a team that has one, or garbage: refused too.
    for (const expectedUpiReference of ['', uniqueUtr(), teams[1]!.utr, `${teams[0]!.utr}0`]) {
      expect((await setOne(teams[0]!.rid, { paymentStatus: 'verified', expectedUpiReference })).status, expectedUpiReference).toBe(409);
    }
    expect((await setOne(teams[0]!.rid, { paymentStatus: 'verified', expectedUpiReference: 42 })).status).toBe(400);
    expect(await listed(tid)).toEqual(before);

    // Written with spaces, as shown on a statement, it is the same reference.
    const utr = teams[0]!.utr;
    expect(
      (
        await setOne(teams[0]!.rid, {
          paymentStatus: 'verified',
          expectedUpiReference: `${utr.slice(0, 4)} ${utr.slice(4, 8)} ${utr.slice(8)}`,
        })
      ).status,
    ).toBe(200);
    expect((await setOne(teams[1]!.rid, { paymentStatus: 'pending' })).status).toBe(200);
    expect((await setOne(teams[1]!.rid, { paymentStatus: 'submitted' })).status).toBe(200);

    // A team without a reference (paid at the desk) is verified with "" as the reference seen, or none.
    const [c, d] = [players[2]!, players[3]!];
    const rc = (await gw.api.post(`/registrations/${tid}`, teamFields(), c.token)).body.rid;
    const rd = (await gw.api.post(`/registrations/${tid}`, teamFields(), d.token)).body.rid;
    expect((await setOne(rc, { paymentStatus: 'verified' })).status).toBe(200);
    expect((await setOne(rd, { paymentStatus: 'verified', expectedUpiReference: '' })).status).toBe(200);
  });

  it('a UTR changed at the same moment as the verify: never verified without the admin having seen it', async () => {
    const { tid, teams } = await submittedTeams(48);
    const seen = await listed(tid);
    const outcomes = { refused: 0, verifiedSeen: 0, verifiedUnseen: 0, lateChangeRefused: 0 };
    await Promise.all(
      teams.map(async (team, i) => {
        const newUtr = uniqueUtr();
        const verifying = () => setOne(team.rid, { paymentStatus: 'verified', expectedUpiReference: seen[team.rid]![1] });
        const changing = () => gw.api.post(`/registrations/${tid}/payment`, { upiReference: newUtr }, team.player.token);
        // Half the races start with the verify, half with the change: both orders meet.
        const [verify, change] =
          i % 2 ? await Promise.all([verifying(), changing()]) : (await Promise.all([changing(), verifying()])).reverse();
        const final = (await gw.api.get(`/registrations/${tid}`, team.player.token)).body;
        if (verify.status === 409) {
          outcomes.refused += 1;
          expect(change.status).toBe(200);
          expect(final).toMatchObject({ paymentStatus: 'submitted', paymentReference: newUtr });
        } else {
          expect(verify.status).toBe(200);
          // The verify went first: the player's change then met "already verified".
          expect(change.status).toBe(409);
          outcomes.lateChangeRefused += 1;
          if (final.paymentReference === seen[team.rid]![1]) outcomes.verifiedSeen += 1;
          else outcomes.verifiedUnseen += 1;
        }
      }),
    );
    expect(outcomes.verifiedUnseen).toBe(0);
    expect(outcomes.refused + outcomes.verifiedSeen).toBe(48);
    figures.push(
      `48 races of verify vs UTR change: ${outcomes.refused} verifies refused, ${outcomes.verifiedSeen} verified the UTR seen, ${outcomes.verifiedUnseen} verified an unseen UTR`,
    );
  });
});
