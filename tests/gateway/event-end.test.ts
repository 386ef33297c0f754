import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueEvent } from '../../gateway/src/db/outbox.js';
import { FakeClock } from '../../gateway/src/lib/clock.js';
import { startSmtpSink, type SmtpSink } from '../support/notify-servers.js';
import {
  adminToken,
  createTournament,
  createTournamentWithTeams,
  createUser,
  startGateway,
  toForm,
  tournamentFields,
  unique,
  uniqueUtr,
  type ApiResponse,
  type TestGateway,
  type TestUser,
} from './helpers.js';

/**
 * Issue 27 items 1 and 3 (decision 051): the last stage announces final places, not "did not qualify", and every
 * tournament answer carries the phase derived from its status, dates and stages (the contract's tournamentPhase).
 */
describe('the end of an event', () => {
  let gw: TestGateway;
  let admin: string;
  let players: TestUser[];
  let smtp: SmtpSink;
  const clock = new FakeClock();

  beforeAll(async () => {
    smtp = await startSmtpSink();
    gw = await startGateway({ SMTP_URL: smtp.url, WEB_URL: 'https://play.example.test' }, undefined, { clock });
    admin = await adminToken(gw.api);
    players = [];
    for (let i = 0; i < 6; i++) players.push(await createUser(gw.api));
  });
  afterAll(async () => {
    await gw?.stop();
    await smtp?.close();
  });

  const ok = <T>(res: ApiResponse<T>, status = 200, what = ''): T => {
    expect(res.status, `${what} ${JSON.stringify(res.body)}`.trim()).toBe(status);
    return res.body;
  };
  const stagesUrl = (tid: number) => `/tournaments/${tid}/stages`;
  const linesOf = async (player: TestUser, tid: number) =>
    ((await gw.api.get('/notifications?limit=100', player.token)).body.items as any[]).filter((n) => n.tournamentId === tid);
  const tournament = async (tid: number) => ok(await gw.api.get(`/tournaments/${tid}`), 200, 'tournament') as any;
  const listed = async (tid: number) => (ok(await gw.api.get('/tournaments'), 200, 'list') as any[]).find((t) => t.id === tid);
  /** One group-match of a stage's group with these teams in this finishing order. */
  const results = async (tid: number, sid: number, groupId: number, order: number[]) => {
    ok(
      await gw.api.put(
        `/tournaments/${tid}/points-table/matches/1/1`,
        { groupId, results: order.map((teamId, i) => ({ teamId, position: i + 1, finishes: 0, wins: i === 0 ? 1 : 0 })) },
        admin,
      ),
      200,
      `results of stage ${sid}`,
    );
  };

  /** Qualifiers (groups of 3, top 2 each) → Final of 4; six teams; returns ids once the Final is drawn. */
  async function twoStageEvent() {
    const { tid, teams } = await createTournamentWithTeams(
      gw.api,
      admin,
      players,
      players.map((_, i) => `E${i} ${unique()}`),
      { entryFee: '0', maxTeams: '100' },
    );
    const quals = ok(await gw.api.post(stagesUrl(tid), { name: 'Qualifiers', lobbySize: 3, advancePerGroup: 2 }, admin), 201) as any;
    const final = ok(await gw.api.post(stagesUrl(tid), { name: 'Final', lobbySize: 4 }, admin), 201) as any;
    return { tid, teams, quals, final };
  }

  it('a stage with a next stage speaks of qualifying; the last one tells every team its final place ("Champions of …")', async () => {
    const { tid, teams, quals, final } = await twoStageEvent();
    const name = (await tournament(tid)).name as string;
    const drawn = ok(await gw.api.post(`${stagesUrl(tid)}/${quals.id}/groups`, { method: 'registration' }, admin), 200, 'draw') as any;
    ok(
      await gw.api.post(
        `${stagesUrl(tid)}/${quals.id}/matches`,
        { matches: [{ day: 1, matchNo: 1, map: 'Erangel', time: '18:00' }] },
        admin,
      ),
    );
    ok(await gw.api.post(`${stagesUrl(tid)}/${quals.id}/publish`, {}, admin));
    for (const g of drawn.groups)
      await results(
        tid,
        quals.id,
        g.id,
        g.slots.map((s: any) => s.teamId),
      );
    const advanced = ok(await gw.api.post(`${stagesUrl(tid)}/${quals.id}/complete`, {}, admin), 200, 'complete qualifiers') as any;
    await gw.app.notifier.runOnce();
    const through = new Set<number>(advanced.qualifiers.map((q: any) => q.teamId));
    expect(through.size).toBe(4);
    for (const [i, player] of players.entries()) {
      const [latest] = await linesOf(player, tid);
      expect(latest.kind, teams[i]!.teamName).toBe(through.has(teams[i]!.rid) ? 'qualified' : 'eliminated');
      if (!through.has(teams[i]!.rid)) expect(latest.body).toContain('did not qualify from Qualifiers');
    }

    // The Final: the finishing order decides 1st to 4th.
    const finalDrawn = ok(await gw.api.post(`${stagesUrl(tid)}/${final.id}/groups`, { method: 'registration' }, admin), 200) as any;
    ok(
      await gw.api.post(
        `${stagesUrl(tid)}/${final.id}/matches`,
        { matches: [{ day: 2, matchNo: 1, map: 'Miramar', time: '18:00' }] },
        admin,
      ),
    );
    ok(await gw.api.post(`${stagesUrl(tid)}/${final.id}/publish`, {}, admin));
    const group = finalDrawn.groups[0];
    const order: number[] = [...group.slots].reverse().map((s: any) => s.teamId);
    ok(
      await gw.api.put(
        `/tournaments/${tid}/points-table/matches/2/1`,
        { groupId: group.id, results: order.map((teamId, i) => ({ teamId, position: i + 1, finishes: 0, wins: i === 0 ? 1 : 0 })) },
        admin,
      ),
    );
    const done = ok(await gw.api.post(`${stagesUrl(tid)}/${final.id}/complete`, {}, admin), 200, 'complete final') as any;
    expect(done.nextStage).toBeNull();
    await gw.app.notifier.runOnce();
    await gw.app.notifier.runOnce(); // the emails of the lines written by the run before
    const byRid = new Map(teams.map((t, i) => [t.rid, { team: t, player: players[i]! }]));
    for (const [rank, rid] of order.entries()) {
      const { team, player } = byRid.get(rid)!;
      const [latest] = await linesOf(player, tid);
      expect(latest.kind).toBe('final-standing');
      expect(latest.link).toBe(`/tournaments/${tid}`);
      expect(latest.body).not.toMatch(/qualif/i);
      if (rank === 0) {
        expect(latest.title).toBe(`Champions of ${name}`);
        expect(latest.body).toBe(`${team.teamName} won ${name}: 1st of 4 in Final. Congratulations!`);
      } else {
        const place = ['2nd', '3rd', '4th'][rank - 1];
        expect(latest.title).toBe(`You finished ${place} of 4 in ${name}`);
        expect(latest.body).toBe(`${team.teamName} finished ${place} of 4 in Final of ${name}. Thank you for playing.`);
      }
      // The same words by email (push renders the same message).
      const mail = smtp.mails.find((m) => m.to.includes(player.email) && m.subject === latest.title);
      expect(mail?.text).toContain(latest.body);
    }
    // The two teams out in the Qualifiers hear nothing more.
    for (const [i, player] of players.entries()) {
      if (!through.has(teams[i]!.rid)) expect((await linesOf(player, tid))[0].kind).toBe('eliminated');
    }
    // A finalist's placement reads as its final place.
    const champion = byRid.get(order[0]!)!;
    const mine = ok(await gw.api.get(`/registrations/${tid}`, champion.player.token), 200, 'my team') as any;
    expect(mine.placements.at(-1).outcome).toMatchObject({ stageRank: 1, final: true });
  });

  it('answers the derived phase beside the stored status: in progress once a stage is published, completed with the last stage', async () => {
    const { tid, quals, final } = await twoStageEvent();
    const open = await tournament(tid);
    expect(open).toMatchObject({
      status: 'Registration Ongoing',
      phase: 'registration-open',
      stageProgress: { stages: 2, started: false, finished: false },
    });

    const drawn = ok(await gw.api.post(`${stagesUrl(tid)}/${quals.id}/groups`, { method: 'registration' }, admin), 200) as any;
    ok(
      await gw.api.post(
        `${stagesUrl(tid)}/${quals.id}/matches`,
        { matches: [{ day: 1, matchNo: 1, map: 'Erangel', time: '18:00' }] },
        admin,
      ),
    );
    ok(await gw.api.post(`${stagesUrl(tid)}/${quals.id}/publish`, {}, admin));
    // The organiser's status is left as it was; what is shown follows the stages.
    expect(await tournament(tid)).toMatchObject({ status: 'Registration Ongoing', phase: 'in-progress', stageProgress: { started: true } });
    expect(await listed(tid)).toMatchObject({ status: 'Registration Ongoing', phase: 'in-progress' });
    for (const g of drawn.groups)
      await results(
        tid,
        quals.id,
        g.id,
        g.slots.map((s: any) => s.teamId),
      );
    ok(await gw.api.post(`${stagesUrl(tid)}/${quals.id}/complete`, {}, admin));
    expect((await tournament(tid)).phase).toBe('in-progress');

    ok(await gw.api.post(`${stagesUrl(tid)}/${final.id}/groups`, { method: 'registration' }, admin));
    const finalDrawn = ok<any>(await gw.api.post(`${stagesUrl(tid)}/${final.id}/publish`, {}, admin));
    // A stage completes once its matches have results (decision 053).
    ok(
      await gw.api.post(
        `${stagesUrl(tid)}/${final.id}/matches`,
        { matches: [{ day: 2, matchNo: 1, map: 'Sanhok', time: '18:00' }] },
        admin,
      ),
    );
    for (const g of finalDrawn.groups)
      ok(
        await gw.api.put(
          `/tournaments/${tid}/points-table/matches/2/1`,
          { groupId: g.id, results: g.slots.map((x: any, i: number) => ({ teamId: x.teamId, position: i + 1, finishes: 0 })) },
          admin,
        ),
      );
    ok(await gw.api.post(`${stagesUrl(tid)}/${final.id}/complete`, {}, admin));
    expect(await tournament(tid)).toMatchObject({
      status: 'Registration Ongoing',
      phase: 'completed',
      stageProgress: { stages: 2, finished: true },
    });
    expect((await listed(tid)).phase).toBe('completed');

    // Reopening the Final puts it back in progress.
    ok(await gw.api.post(`${stagesUrl(tid)}/${final.id}/reopen`, {}, admin));
    expect((await tournament(tid)).phase).toBe('in-progress');
  });

  it('without stages, derives the phase from the dates and status alone, and a cached answer does not outlive a date', async () => {
    const now = clock.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const hour = 3_600_000;
    const t = await createTournament(gw.api, admin, {
      registrationOpen: iso(now + hour),
      registrationClose: iso(now + 3 * hour),
      startDate: iso(now + 4 * hour),
      endDate: iso(now + 6 * hour),
    });
    const read = await tournament(t.id);
    expect(read.phase).toBe('upcoming');
    expect(read).not.toHaveProperty('stageProgress');
    expect((await listed(t.id)).phase).toBe('upcoming');
    // No write between these reads: only the clock moves, and each answer follows it.
    const steps: [number, string][] = [
      [2 * hour, 'registration-open'],
      [1.5 * hour, 'registration-closed'],
      [hour, 'in-progress'],
      [2 * hour, 'completed'],
    ];
    for (const [forward, phase] of steps) {
      clock.advance(forward);
      expect((await tournament(t.id)).phase, phase).toBe(phase);
      expect((await listed(t.id)).phase, phase).toBe(phase);
    }
    // The link card's status line follows the phase too: its bytes (and ETag) change with the clock alone.
    const fresh = await createTournament(gw.api, admin, {
      registrationOpen: iso(clock.now() - hour),
      registrationClose: iso(clock.now() + hour),
      startDate: iso(clock.now() + 2 * hour),
      endDate: iso(clock.now() + 3 * hour),
    });
    const card = async () => {
      const res = await fetch(`${gw.url}/tournaments/${fresh.id}/card.png`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      return res.headers.get('etag');
    };
    const whileOpen = await card();
    expect(await card()).toBe(whileOpen);
    clock.advance(1.5 * hour);
    expect(await card()).not.toBe(whileOpen);
    const cancelled = await createTournament(gw.api, admin, { status: 'Cancelled' });
    expect((await tournament(cancelled.id)).phase).toBe('cancelled');
    const closedByOrganiser = await createTournament(gw.api, admin, { status: 'Registration Closed' });
    expect((await tournament(closedByOrganiser.id)).phase).toBe('registration-closed');
  });

  it('takes no payment and sends no request to pay once a tournament is Completed or Cancelled (issue 27 item 2)', async () => {
    for (const status of ['Cancelled', 'Completed'] as const) {
      const fields = tournamentFields({ entryFee: '100', maxTeams: '10' });
      const { tid, teams } = await createTournamentWithTeams(
        gw.api,
        admin,
        players.slice(0, 2),
        [`P0 ${unique()}`, `P1 ${unique()}`],
        fields,
      );
      // While it runs, a placed team pays as before.
      ok(await gw.api.post(`/registrations/${tid}/payment`, { upiReference: uniqueUtr() }, players[0]!.token), 200, 'pay while open');
      const t = await tournament(tid);
      const update = await gw.api.request('PUT', `/tournaments/admin/update/${tid}`, {
        token: admin,
        form: toForm({
          ...fields,
          name: t.name,
          startDate: t.startDate,
          endDate: t.endDate,
          registrationOpen: t.registrationOpen,
          registrationClose: t.registrationClose,
          status,
        }),
      });
      ok(update, 200, 'update status');
      expect((await tournament(tid)).phase).toBe(status.toLowerCase());
      const refused = await gw.api.post(`/registrations/${tid}/payment`, { upiReference: uniqueUtr() }, players[1]!.token);
      expect(refused.status).toBe(409);
      expect(refused.body.message).toMatch(
        status === 'Cancelled' ? /cancelled: no entry fee is taken/ : /completed: no entry fee is taken/,
      );
      // A promotion written now (a place freed) reaches nobody: it would ask for a fee.
      await gw.app.store.writeTransaction((trx) =>
        enqueueEvent(trx, { kind: 'promoted', tournamentId: tid, audience: { registrations: [teams[1]!.rid] }, data: {} }, clock.now()),
      );
      await gw.app.notifier.runOnce();
      expect((await linesOf(players[1]!, tid)).map((l) => l.kind)).not.toContain('promoted');
    }
  });
});
