// Issue 30 (decision 071): teams report a match's result with a screenshot, the staff see conflicts and
// reused screenshots and confirm the lobby in one transaction, results stay provisional for the dispute
// window, teams dispute, staff uphold or dismiss, reminders go to teams that have not reported, and the
// players' finishes feed Top fraggers. Over HTTP, with an injected clock; SQLite and PostgreSQL.
import http from 'node:http';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DISPUTE_TAKEN,
  DISPUTE_WINDOW_CLOSED,
  matchStartsAt,
  REPORT_CONFIRMED,
  REPORT_NOT_DUE,
  SCREENSHOT_MESSAGES,
} from '@custom-room/contract';
import { FakeClock } from '../../gateway/src/lib/clock.js';
import {
  adminToken,
  createTournament,
  createUser,
  expectStatus,
  matchFields,
  startGateway,
  teamFields,
  toForm,
  unique,
  type TestGateway,
  type TestUser,
} from './helpers.js';

const MINUTE = 60_000;

/** A result-screen-like picture: blocks of grey laid out by the seed (different seeds look different). */
async function screenshot(seed: number, format: 'png' | 'jpeg' = 'png'): Promise<Buffer> {
  let s = seed * 7919 + 17;
  const rand = () => (s = (s * 48271) % 2147483647) / 2147483647;
  const rects = Array.from({ length: 14 }, () => {
    const [x, y, w, h, g] = [rand() * 700, rand() * 380, 60 + rand() * 300, 30 + rand() * 160, Math.floor(rand() * 255)];
    return `<rect x="${x.toFixed(0)}" y="${y.toFixed(0)}" width="${w.toFixed(0)}" height="${h.toFixed(0)}" fill="rgb(${g},${g},${g})"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="450"><rect width="800" height="450" fill="#333"/>${rects}</svg>`;
  const image = sharp(Buffer.from(svg));
  return format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 60 }).toBuffer();
}

const shotFile = (data: Buffer, type = 'image/png') => ({ name: 'screenshot', data, filename: 'result.png', type });

/** The report form's fields: placement and the players' finishes in roster order. */
const reportFields = (position: number, players: [string, number][]) => ({
  position: String(position),
  ...Object.fromEntries(
    players.flatMap(([ign, f], i) => [
      [`player${i + 1}`, ign],
      [`finishes${i + 1}`, String(f)],
    ]),
  ),
});

interface Team {
  rid: number;
  captain: TestUser;
  igns: string[];
  name: string;
}

describe('captains report, staff confirm, teams dispute (a tournament without stages)', () => {
  const clock = new FakeClock();
  let gw: TestGateway;
  let admin: string;
  let tid: number;
  let teams: Team[];
  let member: TestUser; // a roster name of team 2 with its own account: a team member who is not the captain
  let outsider: TestUser;
  let startsAt: number;
  let startDate: string;

  const report = (who: TestUser, fields: Record<string, string>, file?: Buffer, method: 'POST' | 'PUT' = 'POST', match = 1) =>
    gw.api.request(method, `/tournaments/${tid}/reports/1/${match}`, {
      token: who.token,
      form: toForm(fields, file ? [shotFile(file)] : []),
    });
  const lobby = (match = 1) => gw.api.get(`/tournaments/${tid}/reports/1/${match}`, admin);
  /** Decision 077: screenshots are compared after the answer; this waits for that work of the app's. */
  const compared = () => gw.app.afterAnswer.settled();
  const run = () => gw.app.notifier.runOnce(clock.now());
  const notes = async (who: TestUser) => expectStatus(await gw.api.get('/notifications', who.token), 200).items as any[];

  beforeAll(async () => {
    gw = await startGateway({}, undefined, { clock });
    admin = await adminToken(gw.api);
    startDate = new Date(clock.now() + 2 * 24 * 60 * MINUTE).toISOString();
    const day = (n: number) => new Date(clock.now() + n * 24 * 60 * MINUTE).toISOString();
    const t = await createTournament(gw.api, admin, { entryFee: '0', startDate, endDate: day(4), registrationClose: day(1) });
    tid = t.id;
    teams = [];
    for (let i = 0; i < 4; i++) {
      const captain = await createUser(gw.api);
      const fields = teamFields({ teamName: `Squad ${i + 1} ${unique()}` });
      const rid = expectStatus(await gw.api.post(`/registrations/${tid}`, fields, captain.token), 201, 'register').rid;
      teams.push({
        rid,
        captain,
        name: fields.teamName,
        igns: [fields.player1Username, fields.player2Username, fields.player3Username, fields.player4Username],
      });
    }
    member = await createUser(gw.api, { username: teams[1]!.igns[2]! });
    outsider = await createUser(gw.api);
    for (const [matchNo, time] of [
      [1, '18:00'],
      [2, '19:00'],
    ] as const) {
      expectStatus(await gw.api.post('/matches', matchFields(tid, { matchNo, time }), admin), 201, 'match');
    }
    startsAt = matchStartsAt(startDate, 1, '18:00', gw.config.APP_TIME_ZONE)!;
  });
  afterAll(() => gw?.stop());

  it('refuses a report before the match starts, and the team sees it is not due yet', async () => {
    const res = await report(teams[0]!.captain, reportFields(1, [[teams[0]!.igns[0]!, 3]]), await screenshot(1));
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(REPORT_NOT_DUE);
    const mine = expectStatus(await gw.api.get(`/tournaments/${tid}/reports/mine`, teams[0]!.captain.token), 200);
    expect(mine).toMatchObject({ teamId: teams[0]!.rid, igns: teams[0]!.igns, captain: true });
    expect(mine.matches[0]).toMatchObject({ day: 1, match: 1, groupId: 0, reporting: 'not-started', due: false, report: null });
    expect(mine.matches[0].startsAt).toBe(new Date(startsAt).toISOString());
  });

  it('takes one report per team after the start, by the form, with a screenshot; edits keep the screenshot', async () => {
    clock.set(startsAt + 5 * MINUTE);
    const [a, b] = teams;
    expect(expectStatus(await gw.api.get(`/tournaments/${tid}/reports/mine`, a!.captain.token), 200).matches[0]).toMatchObject({
      reporting: 'open',
      due: true,
    });
    // Bad input: each field its message, nothing stored.
    const bad = await report(a!.captain, { ...reportFields(0, [[a!.igns[0]!, 3]]), finishes2: 'x', player2: a!.igns[1]! });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['finishes2', 'position']);
    const noShot = await report(a!.captain, reportFields(1, [[a!.igns[0]!, 3]]));
    expect(noShot.status).toBe(400);
    expect(noShot.body.errors.screenshot).toBe(SCREENSHOT_MESSAGES.required);
    const gif = await report(
      a!.captain,
      reportFields(1, [[a!.igns[0]!, 3]]),
      await sharp(await screenshot(1))
        .gif()
        .toBuffer(),
    );
    expect(gif.status).toBe(400);
    expect(gif.body.errors.screenshot).toBe(SCREENSHOT_MESSAGES.unreadable);
    const tooMany = await report(
      a!.captain,
      reportFields(1, [
        [a!.igns[0]!, 1],
        [a!.igns[1]!, 1],
        [a!.igns[2]!, 1],
        [a!.igns[3]!, 1],
        ['sub_one', 1],
      ]),
      await screenshot(1),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors.players).toMatch(/at most 4 players/);

    const filed = expectStatus(
      await report(
        a!.captain,
        reportFields(1, [
          [a!.igns[0]!, 3],
          [a!.igns[1]!, 2],
          [a!.igns[2]!, 0],
          ['stranger_x', 1],
        ]),
        await screenshot(1),
      ),
      201,
    );
    expect(filed).toMatchObject({ teamId: a!.rid, position: 1, finishes: 6, reportedBy: a!.captain.username, confirmed: false });
    expect(filed.players.find((p: any) => p.ign === 'stranger_x').onTeam).toBe(false);
    expect((await report(a!.captain, reportFields(1, [[a!.igns[0]!, 3]]), await screenshot(1))).status).toBe(409);
    const edited = expectStatus(
      await report(
        a!.captain,
        reportFields(1, [
          [a!.igns[0]!, 4],
          [a!.igns[1]!, 2],
          [a!.igns[2]!, 0],
          ['stranger_x', 1],
        ]),
        undefined,
        'PUT',
      ),
      200,
    );
    expect(edited).toMatchObject({ finishes: 7, screenshotUrl: filed.screenshotUrl });

    // A team member who is not the captain reports team 2's result; the captain is told who did.
    expect(expectStatus(await gw.api.get(`/tournaments/${tid}/reports/mine`, member.token), 200)).toMatchObject({
      teamId: b!.rid,
      captain: false,
    });
    expectStatus(
      await report(
        member,
        reportFields(1, [
          [b!.igns[0]!, 2],
          [b!.igns[1]!, 2],
        ]),
        await screenshot(2),
      ),
      201,
    );
    await run();
    const told = (await notes(b!.captain)).find((n) => n.kind === 'report-filed');
    expect(told?.body).toContain(member.username);
    expect(told?.link).toBe(`/team/${tid}/reports/1/1`);
    expect((await notes(a!.captain)).some((n) => n.kind === 'report-filed')).toBe(false);
    // Someone with no team cannot report.
    expect((await report(outsider, reportFields(3, [['x', 1]]), await screenshot(9))).status).toBe(403);
  });

  it('shows a screenshot to the team and the staff only, never cached', async () => {
    const mine = expectStatus(await gw.api.get(`/tournaments/${tid}/reports/mine`, teams[0]!.captain.token), 200);
    const url = mine.matches[0].report.screenshotUrl as string;
    const own = await gw.api.get(url, teams[0]!.captain.token);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('image/jpeg');
    expect(own.headers.get('cache-control')).toBe('private, no-store');
    expect((await sharp(own.body as Buffer).metadata()).exif).toBeUndefined();
    expect((await gw.api.get(url, admin)).status).toBe(200);
    expect((await gw.api.get(url, teams[1]!.captain.token)).status).toBe(403);
    expect((await gw.api.get(url, outsider.token)).status).toBe(403);
    expect((await gw.api.get(url)).status).toBe(401);
  });

  it('lists the reports in placement order with their conflicts, reused screenshots and the teams that have not reported', async () => {
    const c = teams[2]!;
    // Team 3 sends team 1's screenshot again, re-encoded as a JPEG, and claims 1st as well.
    expectStatus(await report(c.captain, reportFields(1, [[c.igns[0]!, 1]]), await screenshot(1, 'jpeg')), 201);
    await compared();
    const view = expectStatus(await lobby(), 200);
    expect(view.screenshotChecksPending).toBe(0);
    expect(view).toMatchObject({ day: 1, match: 1, groupId: 0, reporting: 'open', lobby: { teams: 4, playersPerTeam: 4 } });
    expect(view.reports.map((r: any) => r.position)).toEqual([1, 1, 1]);
    expect(view.missing.map((m: any) => m.teamId)).toEqual([teams[3]!.rid]);
    const kinds = view.conflicts.map((k: any) => k.kind);
    expect(kinds).toContain('placement-shared');
    expect(kinds).toContain('player-not-on-team');
    const reused = view.conflicts.filter((k: any) => k.kind === 'same-screenshot');
    expect(reused.map((k: any) => k.teamIds[0]).sort()).toEqual([teams[0]!.rid, c.rid].sort());
    const third = view.reports.find((r: any) => r.teamId === c.rid);
    expect(third.sameScreenshot).toEqual([expect.objectContaining({ sameTournament: true, teamName: teams[0]!.name, day: 1, match: 1 })]);
    // A different picture is not flagged.
    expect(view.reports.find((r: any) => r.teamId === teams[1]!.rid).sameScreenshot).toBeUndefined();
    // Players and payments people are not staff of the lobby.
    expect((await gw.api.get(`/tournaments/${tid}/reports/1/1`, teams[0]!.captain.token)).status).toBe(403);
  });

  it('lets background work wait for a quiet moment: no request being answered (decision 077)', async () => {
    await gw.app.afterAnswer.quiet(60_000); // nothing in flight: at once (the test's timeout is far shorter than the cap)
    // A report whose body is still arriving is a request being answered.
    const url = new URL(`/tournaments/${tid}/reports/1/1`, gw.url);
    const arrived = new Promise<void>((resolve) => gw.app.server.once('request', () => setImmediate(resolve)));
    const body = '--b\r\nContent-Disposition: form-data; name="position"\r\n\r\n3\r\n--b--\r\n';
    const req = http.request(url, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${teams[0]!.captain.token}`,
        'content-type': 'multipart/form-data; boundary=b',
        'content-length': String(Buffer.byteLength(body)),
      },
    });
    const answered = new Promise<number>((resolve, reject) => {
      req.on('response', (res) => (res.resume(), res.on('end', () => resolve(res.statusCode!))));
      req.on('error', reject);
    });
    req.write(body.slice(0, 20));
    await arrived;
    let quietAt = 0;
    const quiet = gw.app.afterAnswer.quiet(60_000).then(() => (quietAt = performance.now()));
    await new Promise((resolve) => setImmediate(resolve));
    expect(quietAt).toBe(0); // still being answered
    req.end(body.slice(20));
    const status = await answered;
    const answeredAt = performance.now();
    await quiet; // woken by the answer, not by the 60 s cap
    expect(status).toBeGreaterThanOrEqual(400);
    expect(quietAt).toBeGreaterThan(0);
    expect(quietAt).toBeLessThanOrEqual(answeredAt + 5_000);
  });

  it('compares a screenshot after the answer; one a stopped process left unchecked is compared by the worker (decision 077)', async () => {
    const c = teams[2]!;
    const db = gw.app.store.db;
    const mine = await db
      .selectFrom('match_reports')
      .select(['id', 'updated_at'])
      .where('registration_id', '=', c.rid)
      .where('match_no', '=', 1)
      .executeTakeFirstOrThrow();
    // As if the process had stopped between the answer and the comparison.
    await db.updateTable('match_reports').set({ screenshot_checked_at: null }).where('id', '=', mine.id).execute();
    await db
      .deleteFrom('report_lookalikes')
      .where((eb) => eb.or([eb('report_id', '=', mine.id), eb('other_report_id', '=', mine.id)]))
      .execute();
    const pending = expectStatus(await lobby(), 200);
    expect(pending.screenshotChecksPending).toBe(1);
    expect(pending.conflicts.some((k: any) => k.kind === 'same-screenshot')).toBe(false);
    // Not overdue yet: the worker leaves it to the process that answered.
    expect((await gw.app.notifier.runOnce(clock.now() + MINUTE)).screenshots).toBe(0);
    expect((await gw.app.notifier.runOnce(clock.now() + 3 * MINUTE)).screenshots).toBe(1);
    const view = expectStatus(await lobby(), 200);
    expect(view.screenshotChecksPending).toBe(0);
    expect(view.reports.find((r: any) => r.teamId === c.rid).sameScreenshot).toEqual([
      expect.objectContaining({ sameTournament: true, teamName: teams[0]!.name, day: 1, match: 1 }),
    ]);
    // Checked once: the next sweep has nothing to do.
    expect((await gw.app.notifier.runOnce(clock.now() + 10 * MINUTE)).screenshots).toBe(0);
  });

  it('confirms the lobby in one transaction: corrections in the history, provisional results, reporting closed', async () => {
    const [a, b, c, d] = teams;
    const rows = [
      { teamId: a!.rid, position: 1, finishes: 7 },
      { teamId: b!.rid, position: 2, finishes: 4 }, // corrected: the report claimed 1st
      { teamId: c!.rid, position: 3, finishes: 1 },
      { teamId: d!.rid, position: 4, finishes: 0 }, // entered by the staff: no report
    ];
    // The rules of manual entry: two teams on one placement is refused, nothing stored.
    const clash = await gw.api.post(
      `/tournaments/${tid}/reports/1/1/confirm`,
      { results: rows.map((r, i) => (i === 1 ? { ...r, position: 1 } : r)) },
      admin,
    );
    expect(clash.status).toBe(409);
    expect(expectStatus(await gw.api.get(`/tournaments/${tid}/points-table/results?day=1&match=1`, admin), 200)).toEqual([]);

    const confirmed = expectStatus(await gw.api.post(`/tournaments/${tid}/reports/1/1/confirm`, { results: rows }, admin), 200);
    expect(confirmed.results.map((r: any) => [r.teamId, r.position])).toEqual(rows.map((r) => [r.teamId, r.position]));
    expect(confirmed.confirmedBy).toBe('admin');
    expect(confirmed.provisionalUntil).toBe(new Date(clock.now() + 15 * MINUTE).toISOString());
    const view = expectStatus(await lobby(), 200);
    expect(view).toMatchObject({ reporting: 'confirmed', confirmedBy: 'admin', provisionalUntil: confirmed.provisionalUntil });
    // The history names the corrections of teams 2 and 3's reports (both claimed 1st); team 1's stood as sent.
    const history = expectStatus(await gw.api.get(`/tournaments/${tid}/points-table/history`), 200);
    expect(history.changes).toHaveLength(1);
    expect(history.changes[0].changedBy).toBe('admin');
    expect(history.changes[0].teams).toEqual([
      expect.objectContaining({
        teamId: b!.rid,
        before: { position: 1, wins: 1, finishes: 4 },
        after: { position: 2, wins: 0, finishes: 4 },
      }),
      expect.objectContaining({
        teamId: c!.rid,
        before: { position: 1, wins: 1, finishes: 1 },
        after: { position: 3, wins: 0, finishes: 1 },
      }),
    ]);
    // Edits end with the confirmation.
    const late = await report(a!.captain, reportFields(2, [[a!.igns[0]!, 1]]), undefined, 'PUT');
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(REPORT_CONFIRMED);
    // Top fraggers: the players of the reports whose finishes add up to the confirmed ones.
    const players = expectStatus(await gw.api.get(`/tournaments/${tid}/points-table/players`), 200);
    expect(players.slice(0, 2)).toEqual([
      expect.objectContaining({ rank: 1, ign: a!.igns[0], teamId: a!.rid, finishes: 4, matches: 1 }),
      expect.objectContaining({ rank: 2, teamId: b!.rid, finishes: 2 }),
    ]);
    expect(players.some((p: any) => p.teamId === d!.rid)).toBe(false); // no report: no players' rows
  });

  it('takes a dispute once per team and match within the window; staff uphold it and the team is told', async () => {
    const [a, , c, d] = teams;
    const dispute = (who: TestUser, fields: Record<string, string>, file?: Buffer) =>
      gw.api.request('POST', `/tournaments/${tid}/disputes`, { token: who.token, form: toForm(fields, file ? [shotFile(file)] : []) });
    const short = await dispute(d!.captain, { day: '1', match: '1', teamId: String(c!.rid), reason: 'wrong' });
    expect(short.status).toBe(400);
    expect(short.body.errors.reason).toBeDefined();
    const filed = expectStatus(
      await dispute(
        d!.captain,
        { day: '1', match: '1', teamId: String(c!.rid), reason: 'Squad 3 was eliminated before us, they were 4th.' },
        await screenshot(4),
      ),
      201,
    );
    expect(filed).toMatchObject({ byTeamId: d!.rid, aboutTeamId: c!.rid, state: 'open' });
    const again = await dispute(d!.captain, {
      day: '1',
      match: '1',
      teamId: String(a!.rid),
      reason: 'And Squad 1 had fewer finishes than that.',
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(DISPUTE_TAKEN);
    // The disputing team and the disputed one see it; another team does not; the staff do.
    expect(expectStatus(await gw.api.get(`/tournaments/${tid}/disputes`, d!.captain.token), 200).map((x: any) => x.id)).toEqual([filed.id]);
    expect(expectStatus(await gw.api.get(`/tournaments/${tid}/disputes`, c!.captain.token), 200).map((x: any) => x.id)).toEqual([filed.id]);
    expect(expectStatus(await gw.api.get(`/tournaments/${tid}/disputes`, a!.captain.token), 200)).toEqual([]);
    expect(expectStatus(await gw.api.get(`/tournaments/${tid}/disputes?state=open`, admin), 200).map((x: any) => x.id)).toEqual([filed.id]);
    expect((await gw.api.get(filed.screenshotUrl, a!.captain.token)).status).toBe(403);
    expect((await gw.api.get(filed.screenshotUrl, d!.captain.token)).status).toBe(200);

    const resolveUrl = `/tournaments/${tid}/disputes/${filed.id}/resolve`;
    expect((await gw.api.post(resolveUrl, { action: 'dismiss', reason: '' }, admin)).status).toBe(400);
    // Upholding puts team 3 4th: team 4 holds 4th, so the rules of manual entry refuse it until both move.
    expect((await gw.api.post(resolveUrl, { action: 'uphold', position: 4 }, admin)).status).toBe(409);
    expectStatus(await gw.api.post(resolveUrl, { action: 'uphold', position: 5 }, admin), 400, 'outside the lobby');
    const swap = [
      { teamId: teams[0]!.rid, position: 1, finishes: 7 },
      { teamId: teams[1]!.rid, position: 2, finishes: 4 },
      { teamId: c!.rid, position: 3, finishes: 1 },
      { teamId: d!.rid, position: 0, finishes: 0 },
    ];
    expectStatus(await gw.api.put(`/tournaments/${tid}/points-table/matches/1/1`, { results: swap }, admin), 200);
    const upheld = expectStatus(
      await gw.api.post(resolveUrl, { action: 'uphold', position: 4, reason: 'The replay shows it.' }, admin),
      200,
    );
    expect(upheld).toMatchObject({ state: 'upheld', resolvedBy: 'admin', resolution: 'The replay shows it.' });
    const stored = expectStatus(await gw.api.get(`/tournaments/${tid}/points-table/results?day=1&match=1`, admin), 200);
    expect(stored.find((r: any) => r.teamId === c!.rid).position).toBe(4);
    expect((await gw.api.post(resolveUrl, { action: 'dismiss', reason: 'Again' }, admin)).status).toBe(409);
    await run();
    expect((await notes(d!.captain)).find((n) => n.kind === 'dispute-resolved')?.title).toBe('Dispute upheld');

    // After the window, no more disputes.
    clock.advance(16 * MINUTE);
    const closed = await dispute(a!.captain, { day: '1', match: '1', teamId: String(c!.rid), reason: 'Too late to say this now, really.' });
    expect(closed.status).toBe(409);
    expect(closed.body.message).toBe(DISPUTE_WINDOW_CLOSED);
  });

  it('reminds the teams that have not reported, once, ten minutes after the expected end', async () => {
    const match2 = matchStartsAt(startDate, 1, '19:00', gw.config.APP_TIME_ZONE)!;
    clock.set(match2 + 5 * MINUTE);
    // Team 1 sends its result screen of match 1 again for match 2 (resized): the lobby view of match 2 says so.
    const again = await sharp(await screenshot(1))
      .resize(720)
      .png()
      .toBuffer();
    expectStatus(await report(teams[0]!.captain, reportFields(2, [[teams[0]!.igns[0]!, 1]]), again, 'POST', 2), 201);
    await compared();
    const view = expectStatus(await lobby(2), 200);
    expect(view.reports[0].sameScreenshot).toEqual(
      expect.arrayContaining([expect.objectContaining({ sameTournament: true, teamName: teams[0]!.name, day: 1, match: 1 })]),
    );
    clock.set(match2 + 39 * MINUTE);
    await run();
    const reminded = async (t: Team) => (await notes(t.captain)).filter((n) => n.kind === 'report-reminder').length;
    expect(await reminded(teams[1]!)).toBe(0); // 30 minutes of play + 10 have not passed
    clock.set(match2 + 41 * MINUTE);
    await run();
    await run();
    expect(await reminded(teams[1]!)).toBe(1);
    expect(await reminded(teams[3]!)).toBe(1);
    expect(await reminded(teams[0]!)).toBe(0); // it reported
  });

  it('keeps the settings: match length and the dispute window (0: results are final at once)', async () => {
    expect(expectStatus(await gw.api.get(`/tournaments/${tid}/reports/settings`, admin), 200)).toEqual({
      matchMinutes: 30,
      disputeMinutes: 15,
      stages: [],
    });
    expect((await gw.api.put(`/tournaments/${tid}/reports/settings`, { matchMinutes: 2 }, admin)).status).toBe(400);
    const set = expectStatus(await gw.api.put(`/tournaments/${tid}/reports/settings`, { matchMinutes: 45, disputeMinutes: 0 }, admin), 200);
    expect(set).toMatchObject({ matchMinutes: 45, disputeMinutes: 0 });
    const rows = teams.map((t, i) => ({ teamId: t.rid, position: i + 1, finishes: 0 }));
    const confirmed = expectStatus(await gw.api.post(`/tournaments/${tid}/reports/1/2/confirm`, { results: rows }, admin), 200);
    expect(confirmed.provisionalUntil).toBeNull();
    expect((await gw.api.put(`/tournaments/${tid}/reports/settings`, { matchMinutes: 45 }, teams[0]!.captain.token)).status).toBe(403);
  });
});

describe('reports of a stage: a lobby manager of Group A, and disputes hold the stage open', () => {
  const clock = new FakeClock();
  let gw: TestGateway;
  let owner: string;
  let tid: number;
  let stageId: number;
  let groups: { id: number; name: string; teams: number[] }[];
  let lobbyA: TestUser;
  const captains = new Map<number, TestUser>();

  beforeAll(async () => {
    gw = await startGateway({}, undefined, { clock });
    owner = await adminToken(gw.api);
    const day = (n: number) => new Date(clock.now() + n * 24 * 60 * MINUTE).toISOString();
    tid = (await createTournament(gw.api, owner, { entryFee: '0', startDate: day(2), endDate: day(4), registrationClose: day(1) })).id;
    for (let i = 0; i < 8; i++) {
      const captain = await createUser(gw.api);
      const rid = expectStatus(await gw.api.post(`/registrations/${tid}`, teamFields(), captain.token), 201, 'register').rid;
      captains.set(rid, captain);
    }
    stageId = expectStatus(await gw.api.post(`/tournaments/${tid}/stages`, { name: 'Qualifiers', lobbySize: 4 }, owner), 201).id;
    const drawn = expectStatus(await gw.api.post(`/tournaments/${tid}/stages/${stageId}/groups`, { method: 'registration' }, owner), 200);
    groups = drawn.groups.map((g: any) => ({ id: g.id, name: g.name, teams: g.slots.map((s: any) => s.teamId) }));
    expectStatus(await gw.api.post(`/tournaments/${tid}/stages/${stageId}/publish`, {}, owner), 200, 'publish');
    const matches = [{ day: 1, matchNo: 1, map: 'Erangel', time: '18:00' }];
    expectStatus(await gw.api.post(`/tournaments/${tid}/stages/${stageId}/matches`, { matches }, owner), 200, 'schedule');
    lobbyA = await createUser(gw.api);
    const invited = expectStatus(
      await gw.api.post(
        `/tournaments/${tid}/staff`,
        { who: lobbyA.username, role: 'lobby', scopes: [{ stageId, groupId: groups[0]!.id }] },
        owner,
      ),
      201,
    );
    expectStatus(await gw.api.post(`/staff-invitations/${invited.token}/accept`, {}, lobbyA.token), 200, 'accept');
    clock.set(matchStartsAt(day(2), 1, '18:00', gw.config.APP_TIME_ZONE)! + 10 * MINUTE);
  });
  afterAll(() => gw?.stop());

  it('takes each team’s report for its own group; the staff name the group when several play the match', async () => {
    for (const g of groups) {
      for (const [i, rid] of g.teams.entries()) {
        const form = toForm(reportFields(i + 1, [['anyone', i]]), [shotFile(await screenshot(100 + rid))]);
        const filed = expectStatus(
          await gw.api.request('POST', `/tournaments/${tid}/reports/1/1`, { token: captains.get(rid)!.token, form }),
          201,
        );
        expect(filed.groupId).toBe(g.id);
      }
    }
    const unnamed = await gw.api.get(`/tournaments/${tid}/reports/1/1`, owner);
    expect(unnamed.status).toBe(400);
    const view = expectStatus(await gw.api.get(`/tournaments/${tid}/reports/1/1?group=${groups[1]!.id}`, owner), 200);
    expect(view).toMatchObject({ groupId: groups[1]!.id, groupName: groups[1]!.name, stageName: 'Qualifiers', missing: [] });
    expect(view.reports.map((r: any) => r.teamId)).toEqual(groups[1]!.teams);
    expect(view.teams.map((t: any) => t.slot)).toEqual([1, 2, 3, 4]);
  });

  it('lets the lobby manager of Group A see and confirm Group A only', async () => {
    const [a, b] = groups;
    const rows = (g: { teams: number[] }) => ({ results: g.teams.map((teamId, i) => ({ teamId, position: i + 1, finishes: i })) });
    expect((await gw.api.get(`/tournaments/${tid}/reports/1/1?group=${b!.id}`, lobbyA.token)).status).toBe(403);
    expect((await gw.api.post(`/tournaments/${tid}/reports/1/1/confirm?group=${b!.id}`, rows(b!), lobbyA.token)).status).toBe(403);
    expect((await gw.api.put(`/tournaments/${tid}/reports/1/1/reporting?group=${b!.id}`, { open: false }, lobbyA.token)).status).toBe(403);
    expectStatus(await gw.api.get(`/tournaments/${tid}/reports/1/1?group=${a!.id}`, lobbyA.token), 200);
    expectStatus(await gw.api.post(`/tournaments/${tid}/reports/1/1/confirm?group=${a!.id}`, rows(a!), lobbyA.token), 200);
    // Nothing of Group B was stored; its owner confirms it.
    expect(expectStatus(await gw.api.get(`/tournaments/${tid}/points-table/results?day=1&match=1&group=${b!.id}`, owner), 200)).toEqual([]);
    expectStatus(await gw.api.post(`/tournaments/${tid}/reports/1/1/confirm?group=${b!.id}`, rows(b!), owner), 200);
    // A team's screenshot is not for another group's lobby manager.
    const other = expectStatus(await gw.api.get(`/tournaments/${tid}/reports/1/1?group=${b!.id}`, owner), 200).reports[0];
    expect((await gw.api.get(other.screenshotUrl, lobbyA.token)).status).toBe(403);
    // The stage table counts the confirmed results; Top fraggers has a group scope.
    const players = expectStatus(await gw.api.get(`/tournaments/${tid}/points-table/players?group=${a!.id}`), 200);
    expect(new Set(players.map((p: any) => p.teamId))).toEqual(new Set(a!.teams)); // Group B's players are not in Group A's scope
    expect(players[0]).toMatchObject({ rank: 1, ign: 'anyone', teamId: a!.teams[3], finishes: 3 });
  });

  it('keeps the stage open while a dispute is open; the lobby manager of Group A cannot resolve Group B’s', async () => {
    const b = groups[1]!;
    const by = captains.get(b.teams[3]!)!;
    const form = toForm({ day: '1', match: '1', teamId: String(b.teams[0]), reason: 'They were not first: we have the replay.' });
    const dispute = expectStatus(await gw.api.request('POST', `/tournaments/${tid}/disputes`, { token: by.token, form }), 201);
    expect(dispute.groupId).toBe(b.id);
    expect(expectStatus(await gw.api.get(`/tournaments/${tid}/disputes`, lobbyA.token), 200)).toEqual([]);
    const complete = await gw.api.post(`/tournaments/${tid}/stages/${stageId}/complete`, {}, owner);
    expect(complete.status).toBe(409);
    expect(complete.body.message).toMatch(/A dispute is still open/);
    const resolve = (token: string) =>
      gw.api.post(
        `/tournaments/${tid}/disputes/${dispute.id}/resolve`,
        { action: 'dismiss', reason: 'The screenshot shows them first.' },
        token,
      );
    expect((await resolve(lobbyA.token)).status).toBe(403);
    expect(expectStatus(await resolve(owner), 200).state).toBe('dismissed');
    expectStatus(await gw.api.post(`/tournaments/${tid}/stages/${stageId}/complete`, {}, owner), 200, 'complete');
  });
});
