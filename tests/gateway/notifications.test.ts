import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchStartsAt } from '@custom-room/contract';
import { enqueueEvent, type OutboxEvent } from '../../gateway/src/db/outbox.js';
import { FakeClock } from '../../gateway/src/lib/clock.js';
import { LEASE_MS, MAX_ATTEMPTS, backoffMs } from '../../gateway/src/lib/notify/worker.js';
import { startPushService, startSmtpSink, type PushService, type SmtpSink } from '../support/notify-servers.js';
import {
  adminToken,
  createStorage,
  createTournamentWithTeams,
  createUser,
  dialectName,
  matchFields,
  startGateway,
  unique,
  type Storage,
  type TestGateway,
  type TestUser,
} from './helpers.js';

const WEB_URL = 'https://play.example.test';

/**
 * Issue 19's notifications over HTTP (decision 044): the worker fans outbox events out to the site list,
 * email (a real SMTP server in this process) and web push (a push service here that decrypts each message
 * with the subscription's keys). The worker is driven with runOnce at FakeClock times: no sleeps.
 */
describe('notifications', () => {
  let storage: Storage;
  let gw: TestGateway;
  let gw2: TestGateway;
  let admin: string;
  let players: TestUser[];
  let smtp: SmtpSink;
  let push: PushService;
  // Today's real time: tournaments made with isoIn open their registration relative to it.
  const clock = new FakeClock();

  beforeAll(async () => {
    smtp = await startSmtpSink();
    push = await startPushService();
    storage = await createStorage();
    const env = { SMTP_URL: smtp.url, WEB_URL, PUSH_ALLOW_HTTP: 'on' };
    gw = await startGateway(env, storage, { clock });
    // A second gateway process on the same database: events and deliveries are claimed by one of them.
    gw2 = await startGateway(env, storage, { clock });
    admin = await adminToken(gw.api);
    players = [];
    for (let i = 0; i < 5; i++) players.push(await createUser(gw.api));
  });
  afterAll(async () => {
    await gw2?.stop();
    await gw?.stop();
    await smtp?.close();
    await push?.close();
  });

  const run = (at = clock.now()) => gw.app.notifier.runOnce(at);
  const enqueue = (event: OutboxEvent) => gw.app.store.writeTransaction((trx) => enqueueEvent(trx, event, clock.now()));
  const list = async (player: TestUser, query = '') => {
    const res = await gw.api.get(`/notifications${query}`, player.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { items: any[]; nextBefore: number | null; unread: number };
  };
  const unread = async (player: TestUser) => (await gw.api.get('/notifications/unread-count', player.token)).body.unread as number;
  const mailsTo = (player: TestUser) => smtp.mails.filter((m) => m.to.includes(player.email));
  const freeCup = (n: number) =>
    createTournamentWithTeams(
      gw.api,
      admin,
      players,
      Array.from({ length: n }, (_, i) => `N${i} ${unique()}`),
      { entryFee: '0', maxTeams: '100' },
    );

  it('lists a notification for each account the event reaches, newest first, with the unread count; read by ids or all', async () => {
    const { tid, teams } = await freeCup(3);
    expect(
      await enqueue({ kind: 'payment-verified', tournamentId: tid, audience: { registrations: [teams[0]!.rid, teams[1]!.rid] } }),
    ).toBe(true);
    const before = await unread(players[0]!);
    const round = await run();
    expect(round.events).toBe(1);
    expect(round.notifications).toBe(2);

    const mine = await list(players[0]!);
    expect(mine.items[0]).toMatchObject({
      kind: 'payment-verified',
      tournamentId: tid,
      title: 'Payment verified',
      body: `${teams[0]!.teamName}: your payment for ${(await gw.api.get(`/tournaments/${tid}`)).body.name} is verified. Your place is confirmed.`,
      link: `/team/${tid}`,
      read: false,
      createdAt: new Date(clock.now()).toISOString(),
    });
    expect(mine.unread).toBe(before + 1);
    expect(await unread(players[0]!)).toBe(before + 1);
    // The nav's count rides on the account call the web app makes anyway.
    expect((await gw.api.get('/api/auth/me', players[0]!.token)).body.unreadNotifications).toBe(before + 1);
    // The third team's captain was not in the audience.
    expect((await list(players[2]!)).items.some((n) => n.tournamentId === tid)).toBe(false);

    // Another account's id is passed over; one's own is read.
    const theirs = (await list(players[1]!)).items[0]!;
    expect((await gw.api.post('/notifications/read', { ids: [theirs.id] }, players[0]!.token)).body).toEqual({ unread: before + 1 });
    expect((await gw.api.post('/notifications/read', { ids: [mine.items[0]!.id] }, players[0]!.token)).body).toEqual({ unread: before });
    expect((await list(players[0]!)).items[0]!.read).toBe(true);
    expect((await list(players[1]!)).items[0]!.read).toBe(false);
    expect((await gw.api.post('/notifications/read', {}, players[1]!.token)).body).toEqual({ unread: 0 });
    expect(await unread(players[1]!)).toBe(0);
  });

  it('pages the list with nextBefore', async () => {
    const { tid, teams } = await freeCup(1);
    for (let i = 0; i < 23; i++) await enqueue({ kind: 'released', tournamentId: tid, audience: { registrations: [teams[0]!.rid] } });
    await run();
    const first = await list(players[0]!, '?limit=20');
    expect(first.items).toHaveLength(20);
    expect(first.items.map((n) => n.id)).toEqual([...first.items.map((n) => n.id)].sort((a, b) => b - a));
    expect(first.nextBefore).toBe(first.items.at(-1)!.id);
    const second = await list(players[0]!, `?limit=20&before=${first.nextBefore}`);
    expect(second.items[0]!.id).toBeLessThan(first.nextBefore!);
    const all = await list(players[0]!, '?limit=100');
    expect(all.items.slice(20, 40).map((n) => n.id)).toEqual(second.items.map((n) => n.id));
  });

  it('refuses bad paging and read bodies with field messages, and strangers', async () => {
    const bad = await gw.api.get('/notifications?limit=0', players[0]!.token);
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty('limit');
    const ids = await gw.api.post('/notifications/read', { ids: ['x'] }, players[0]!.token);
    expect(ids.status).toBe(400);
    expect(Object.keys(ids.body.errors)[0]).toMatch(/^ids/);
    expect((await gw.api.post('/notifications/read', { ids: [] }, players[0]!.token)).status).toBe(400);
    expect((await gw.api.get('/notifications')).status).toBe(401);
    expect((await gw.api.get('/notifications/unread-count')).status).toBe(401);
    expect((await gw.api.post('/notifications/read', {})).status).toBe(401);
  });

  it('emails each captain once, plainly, with one link and no room details', async () => {
    const { tid, teams } = await freeCup(2);
    const room = { matchId: `R${unique()}`.slice(0, 12), password: `P${unique()}`.slice(0, 12) };
    const created = await gw.api.post('/matches', matchFields(tid, { day: 1, matchNo: 1, ...room }), admin);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await run();
    for (const [i, player] of players.slice(0, 2).entries()) {
      const mails = mailsTo(player).filter((m) => m.text.includes(`/tournament/${tid}/matches`));
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe('Room details are up');
      expect(mails[0]!.text).toContain('day 1 match 1');
      const links = mails[0]!.text.match(/https?:\/\/\S+/g);
      expect(links).toEqual([`${WEB_URL}/tournament/${tid}/matches`]);
      expect(mails[0]!.raw).not.toContain(room.matchId);
      expect(mails[0]!.raw).not.toContain(room.password);
      expect(teams[i]).toBeDefined();
    }
    // Saving the same room again is no news; a changed password is.
    const match = created.body;
    expect((await gw.api.put(`/matches/${match.id}`, matchFields(tid, { day: 1, matchNo: 1, ...room }), admin)).status).toBe(200);
    await run();
    expect(mailsTo(players[0]!).filter((m) => m.text.includes(`/tournament/${tid}/matches`))).toHaveLength(1);
    expect(
      (await gw.api.put(`/matches/${match.id}`, matchFields(tid, { day: 1, matchNo: 1, ...room, password: 'newpass' }), admin)).status,
    ).toBe(200);
    await run();
    const changed = mailsTo(players[0]!).filter((m) => m.text.includes(`/tournament/${tid}/matches`));
    expect(changed.map((m) => m.subject)).toEqual(['Room details are up', 'Room details changed']);
    expect(changed[1]!.raw).not.toContain('newpass');
  });

  it('two processes running rounds at once write each line and send each mail once', async () => {
    const { tid, teams } = await freeCup(4);
    for (let i = 0; i < 6; i++)
      await enqueue({ kind: 'promoted', tournamentId: tid, audience: { registrations: teams.map((t) => t.rid) } });
    // The same event twice in one audience reaches each account once.
    await enqueue({ kind: 'released', tournamentId: tid, audience: { registrations: [teams[0]!.rid, teams[0]!.rid] } });
    const before = smtp.mails.length;
    // On SQLite both gateways of this test share one thread, where a second connection waiting for the
    // file's write lock blocks the first one's commit: there, concurrent rounds run in one process.
    const other = dialectName === 'postgres' ? gw2 : gw;
    await Promise.all([run(), other.app.notifier.runOnce(clock.now()), run(), other.app.notifier.runOnce(clock.now())]);
    await Promise.all([run(), other.app.notifier.runOnce(clock.now())]);
    const lines = await gw.app.store.db
      .selectFrom('notifications')
      .select(['event_id', 'user_id'])
      .where('tournament_id', '=', tid)
      .execute();
    expect(lines).toHaveLength(6 * 4 + 1);
    expect(new Set(lines.map((l) => `${l.event_id}:${l.user_id}`)).size).toBe(lines.length);
    expect(smtp.mails.length - before).toBe(6 * 4 + 1);
    const states = await gw.app.store.db.selectFrom('notification_deliveries').select('state').where('tournament_id', '=', tid).execute();
    expect(states.every((s) => s.state === 'sent')).toBe(true);
  });

  it('retries a refused mail with backoff, and picks up the claims of a process that died', async () => {
    const { tid, teams } = await freeCup(1);
    await enqueue({ kind: 'payment-rejected', tournamentId: tid, audience: { registrations: [teams[0]!.rid] } });
    const mine = () => mailsTo(players[0]!).filter((m) => m.subject === 'Payment not verified' && m.text.includes(`/team/${tid}`));
    smtp.refuseNext(1);
    expect(await run()).toMatchObject({ events: 1, sent: 0, retried: 1 });
    expect(await run()).toMatchObject({ sent: 0, retried: 0 }); // not due yet
    clock.advance(backoffMs(1) - 1);
    expect(await run()).toMatchObject({ sent: 0 });
    clock.advance(1);
    expect(await run()).toMatchObject({ sent: 1 });
    expect(mine()).toHaveLength(1);

    // A process claims a delivery and dies before sending it: nobody else takes it until the lease runs out.
    await enqueue({ kind: 'payment-rejected', tournamentId: tid, audience: { registrations: [teams[0]!.rid] } });
    await gw2.app.notifier.fanOut(clock.now());
    const claimed = await gw2.app.notifier.claimDeliveries(clock.now());
    expect(claimed).toHaveLength(1);
    expect(await run()).toMatchObject({ sent: 0 });
    clock.advance(LEASE_MS - 1);
    expect(await run()).toMatchObject({ sent: 0 });
    clock.advance(1);
    expect(await run()).toMatchObject({ sent: 1 });
    expect(mine()).toHaveLength(2);
    const row = await gw.app.store.db
      .selectFrom('notification_deliveries')
      .selectAll()
      .where('id', '=', claimed[0]!.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'sent', attempts: 2 });
  });

  it('records a delivery as failed after its last attempt, for the organiser to see', async () => {
    const { tid, teams } = await freeCup(1);
    await enqueue({
      kind: 'eliminated',
      tournamentId: tid,
      audience: { registrations: [teams[0]!.rid] },
      data: { stageName: 'Qualifiers' },
    });
    smtp.refuseNext(MAX_ATTEMPTS);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const round = await run();
      expect(round.sent).toBe(0);
      expect(round.retried + round.failed).toBe(1);
      expect(round.failed).toBe(attempt === MAX_ATTEMPTS ? 1 : 0);
      clock.advance(backoffMs(attempt));
    }
    expect(await run()).toMatchObject({ sent: 0, retried: 0, failed: 0 });
    const failed = await gw.api.get(`/tournaments/${tid}/notifications/failed`, admin);
    expect(failed.status).toBe(200);
    expect(failed.body).toEqual([
      expect.objectContaining({
        channel: 'email',
        kind: 'eliminated',
        title: 'Qualifiers is over',
        username: players[0]!.username,
        attempts: MAX_ATTEMPTS,
        error: expect.stringContaining('Mailbox busy'),
      }),
    ]);
    expect((await gw.api.get(`/tournaments/${tid}/notifications/failed`, players[0]!.token)).status).toBe(403);
    expect((await gw.api.get(`/tournaments/${tid}/notifications/failed`)).status).toBe(401);
    expect((await gw.api.get(`/tournaments/999999/notifications/failed`, admin)).status).toBe(404);
    // The organiser's tournament list counts them; a tournament without any leaves the field out, as before.
    const summary = (await gw.api.get('/tournaments/admin/summary', admin)).body as { id: number; failedDeliveries?: number }[];
    expect(summary.find((s) => s.id === tid)!.failedDeliveries).toBe(1);
    const fresh = await freeCup(1);
    const again = (await gw.api.get('/tournaments/admin/summary', admin)).body as { id: number; failedDeliveries?: number }[];
    expect(again.find((s) => s.id === fresh.tid)).not.toHaveProperty('failedDeliveries');
    // The list line stays: the site is the one channel that always works.
    expect((await list(players[0]!)).items[0]!.title).toBe('Qualifiers is over');
  });

  describe('web push', () => {
    it('publishes its VAPID key and sends each subscribed phone an encrypted, signed push naming the event, never the room', async () => {
      const key = await gw.api.get('/push/public-key');
      expect(key.status).toBe(200);
      expect(Buffer.from(key.body.publicKey, 'base64url')).toHaveLength(65);
      // Every process on the DATA_DIR uses the same generated key.
      expect((await gw2.api.get('/push/public-key')).body).toEqual(key.body);

      const phone = push.subscribe();
      const sub = await gw.api.post('/push/subscribe', { endpoint: phone.endpoint, keys: phone.keys }, players[0]!.token);
      expect(sub.status, JSON.stringify(sub.body)).toBe(201);
      const { tid } = await freeCup(2);
      const room = { matchId: `R${unique()}`.slice(0, 12), password: `P${unique()}`.slice(0, 12) };
      expect((await gw.api.post('/matches', matchFields(tid, { day: 2, matchNo: 3, ...room }), admin)).status).toBe(201);
      await run();
      const got = push.received.filter((r) => r.path === new URL(phone.endpoint).pathname);
      expect(push.problems).toEqual([]);
      expect(got).toHaveLength(1);
      const payload = JSON.parse(got[0]!.payload);
      expect(payload).toMatchObject({ title: 'Room details are up', url: `${WEB_URL}/tournament/${tid}/matches` });
      expect(payload.body).toContain((await gw.api.get(`/tournaments/${tid}`)).body.name);
      expect(payload.body).toContain('day 2 match 3');
      expect(got[0]!.payload).not.toContain(room.matchId);
      expect(got[0]!.payload).not.toContain(room.password);
      expect(got[0]!.vapid).toMatchObject({ aud: push.url, publicKey: key.body.publicKey });
      expect(got[0]!.headers.ttl).toBeDefined();
    });

    it('forgets a phone whose push service says it is gone, and records the failure', async () => {
      const phone = push.subscribe();
      expect((await gw.api.post('/push/subscribe', { endpoint: phone.endpoint, keys: phone.keys }, players[1]!.token)).status).toBe(201);
      push.setStatus(phone, 410);
      const { tid, teams } = await freeCup(2);
      await enqueue({
        kind: 'qualified',
        tournamentId: tid,
        audience: { registrations: [teams[1]!.rid] },
        data: { stageName: 'Qualifiers' },
      });
      await run();
      const subs = await gw.app.store.db.selectFrom('push_subscriptions').select('id').where('endpoint', '=', phone.endpoint).execute();
      expect(subs).toHaveLength(0);
      const failed = (await gw.api.get(`/tournaments/${tid}/notifications/failed`, admin)).body;
      expect(failed).toEqual([
        expect.objectContaining({ channel: 'push', kind: 'qualified', attempts: 1, error: expect.stringContaining('410') }),
      ]);
    });

    it('takes endpoints at the browsers’ push services only; http on this machine only with PUSH_ALLOW_HTTP=on', async () => {
      const user = await createUser(gw.api); // in no tournament: nothing is ever sent to these addresses
      const keys = push.subscribe().keys;
      const subscribe = (endpoint: string, on = gw) => on.api.post('/push/subscribe', { endpoint, keys }, user.token);
      const stored = async (endpoint: string) =>
        (await gw.app.store.db.selectFrom('push_subscriptions').select('id').where('endpoint', '=', endpoint).execute()).length;
      for (const endpoint of [
        'https://example.com/push/1',
        'http://10.0.0.1/push',
        'https://10.0.0.1/push',
        'http://169.254.169.254/latest/meta-data/',
        'https://fcm.googleapis.com.evil.com/fcm/send/abc',
        'https://evil.com/fcm.googleapis.com/fcm/send/abc',
        'https://evilfcm.googleapis.com/fcm/send/abc',
        'https://push.apple.com.evil.com/abc',
        'https://user:pw@fcm.googleapis.com/fcm/send/abc',
        'https://fcm.googleapis.com:8443/fcm/send/abc',
        'http://fcm.googleapis.com/fcm/send/abc',
        'http://192.168.1.10:8080/push',
      ]) {
        const res = await subscribe(endpoint);
        expect(res.status, endpoint).toBe(400);
        expect(res.body.errors, endpoint).toEqual({ endpoint: 'Must be a browser push service URL.' });
        expect(await stored(endpoint), endpoint).toBe(0);
      }
      const real = [
        'https://fcm.googleapis.com/fcm/send/dGVzdA:APA91bH-abc', // Chrome, Opera, Samsung Internet, Edge on Android
        'https://fcm.googleapis.com/wp/dGVzdA:APA91bH-abc',
        'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABabc', // Firefox
        'https://wns2-par02p.notify.windows.com/w/?token=BQYAAABabc', // Edge on Windows
        'https://web.push.apple.com/QGt1eXwmNYabc', // Safari
      ];
      for (const endpoint of real) {
        const res = await subscribe(endpoint);
        expect(res.status, `${endpoint} ${JSON.stringify(res.body)}`).toBe(201);
        expect(await stored(endpoint)).toBe(1);
      }
      // The test push service on 127.0.0.1 is taken with PUSH_ALLOW_HTTP=on (gw), refused by a gateway without it.
      const plain = await startGateway({ WEB_URL }, storage, { clock });
      try {
        const local = push.subscribe().endpoint;
        expect(plain.app.config.PUSH_ALLOW_HTTP).toBe(false);
        expect((await subscribe(local, plain)).body.errors).toEqual({ endpoint: 'Must be a browser push service URL.' });
        expect((await subscribe('http://localhost:9/push/1', plain)).status).toBe(400);
        expect((await subscribe(real[0]!, plain)).status).toBe(201);
        expect((await subscribe(local)).status).toBe(201);
      } finally {
        await plain.stop();
      }
      for (const endpoint of real) expect((await gw.api.post('/push/unsubscribe', { endpoint }, user.token)).status).toBe(200);
    });

    it('never posts to a stored endpoint outside the push services (one from before the check): drops it', async () => {
      const user = await createUser(gw.api);
      const keys = push.subscribe().keys;
      const endpoint = `${push.url.replace('127.0.0.1', '127.0.0.2')}/push/internal-${unique()}`;
      await gw.app.store.db
        .insertInto('push_subscriptions')
        .values({ user_id: user.id, endpoint, p256dh: keys.p256dh, auth: keys.auth, created_at: new Date(clock.now()).toISOString() })
        .execute();
      const { tid } = await freeCup(1);
      await enqueue({ kind: 'qualified', tournamentId: tid, audience: { users: [user.id] }, data: { stageName: 'Qualifiers' } });
      const before = push.received.length;
      await run();
      expect(push.received.length).toBe(before);
      expect(await gw.app.store.db.selectFrom('push_subscriptions').select('id').where('endpoint', '=', endpoint).execute()).toEqual([]);
      const failed = (await gw.api.get(`/tournaments/${tid}/notifications/failed`, admin)).body;
      expect(failed).toEqual([expect.objectContaining({ channel: 'push', error: expect.stringContaining('Not a browser push service') })]);
    });

    it('subscribes and unsubscribes only with valid bodies, for the signed-in account', async () => {
      const phone = push.subscribe();
      const bad = await gw.api.post('/push/subscribe', { endpoint: 'not a url', keys: { p256dh: 'x', auth: '' } }, players[2]!.token);
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['endpoint', 'keys.auth', 'keys.p256dh']);
      expect((await gw.api.post('/push/subscribe', { endpoint: phone.endpoint, keys: phone.keys })).status).toBe(401);
      expect((await gw.api.post('/push/subscribe', { endpoint: phone.endpoint, keys: phone.keys }, players[2]!.token)).status).toBe(201);
      // Someone else cannot remove it (404: nothing of theirs to remove); its owner can.
      expect((await gw.api.post('/push/unsubscribe', { endpoint: phone.endpoint }, players[3]!.token)).status).toBe(404);
      const count = async () =>
        (await gw.app.store.db.selectFrom('push_subscriptions').select('id').where('endpoint', '=', phone.endpoint).execute()).length;
      expect(await count()).toBe(1);
      expect((await gw.api.post('/push/unsubscribe', { endpoint: phone.endpoint }, players[2]!.token)).status).toBe(200);
      expect(await count()).toBe(0);
    });
  });
});

describe('notifications from stage writes and the match reminder', () => {
  let gw: TestGateway;
  let admin: string;
  let players: TestUser[];
  const clock = new FakeClock();

  beforeAll(async () => {
    gw = await startGateway({}, undefined, { clock });
    admin = await adminToken(gw.api);
    players = [];
    for (let i = 0; i < 4; i++) players.push(await createUser(gw.api));
  });
  afterAll(() => gw?.stop());

  const linesOf = async (player: TestUser, tid: number) =>
    ((await gw.api.get('/notifications?limit=100', player.token)).body.items as any[]).filter((n) => n.tournamentId === tid);

  it('tells each team its group and slot, the rooms of its own group, a reminder once, and whether it qualified', async () => {
    const { tid, teams } = await createTournamentWithTeams(
      gw.api,
      admin,
      players,
      players.map((_, i) => `S${i} ${unique()}`),
      { entryFee: '0', maxTeams: '100' },
    );
    const stage = (await gw.api.post(`/tournaments/${tid}/stages`, { name: 'Qualifiers', lobbySize: 2, advancePerGroup: 1 }, admin)).body;
    const drawn = await gw.api.post(`/tournaments/${tid}/stages/${stage.id}/groups`, { method: 'registration' }, admin);
    expect(drawn.status, JSON.stringify(drawn.body)).toBe(200);
    const groupA = drawn.body.groups.find((g: any) => g.name === 'A');
    const scheduled = await gw.api.post(
      `/tournaments/${tid}/stages/${stage.id}/matches`,
      { matches: [{ day: 1, matchNo: 1, map: 'Erangel', time: '18:00' }] },
      admin,
    );
    expect(scheduled.status).toBe(200);
    const matchA = scheduled.body.find((m: any) => m.groupId === groupA.id);
    // A room set before publishing is nobody's news yet.
    expect(
      (
        await gw.api.put(
          `/tournaments/${tid}/stages/${stage.id}/rooms`,
          { rooms: [{ id: matchA.id, matchId: '1111', password: 'draft' }] },
          admin,
        )
      ).status,
    ).toBe(200);
    expect((await gw.api.post(`/tournaments/${tid}/stages/${stage.id}/publish`, {}, admin)).status).toBe(200);
    await gw.app.notifier.runOnce();
    for (const [i, player] of players.entries()) {
      const lines = await linesOf(player, tid);
      expect(lines.map((l) => l.kind)).toEqual(['stage-published']);
      expect(lines[0]!.body).toBe(
        `${teams[i]!.teamName} plays in Group ${i < 2 ? 'A' : 'B'}, slot ${(i % 2) + 1} of Qualifiers, ${(await gw.api.get(`/tournaments/${tid}`)).body.name}.`,
      );
    }

    // Group A's room changes: only group A hears of it.
    const rooms = await gw.api.put(
      `/tournaments/${tid}/stages/${stage.id}/rooms`,
      { rooms: [{ id: matchA.id, matchId: '2222', password: 'secret' }] },
      admin,
    );
    expect(rooms.status).toBe(200);
    await gw.app.notifier.runOnce();
    expect((await linesOf(players[0]!, tid)).map((l) => l.kind)).toEqual(['room-posted', 'stage-published']);
    // Issue 27: the group by its name, "Group A", not a bare "(A)".
    expect((await linesOf(players[0]!, tid))[0]!.body).toContain('day 1 match 1 (Group A)');
    expect((await linesOf(players[0]!, tid))[1]!.body).toMatch(/ plays in Group A, slot \d+ of /);
    expect((await linesOf(players[2]!, tid)).map((l) => l.kind)).toEqual(['stage-published']);

    // The reminder: 15 minutes before day 1 at 18:00 (APP_TIME_ZONE), once, to group A (group B has no room).
    const tournament = (await gw.api.get(`/tournaments/${tid}`)).body;
    const startsAt = matchStartsAt(tournament.startDate, 1, '18:00', gw.config.APP_TIME_ZONE)!;
    clock.set(startsAt - 15 * 60_000 - 1);
    expect((await gw.app.notifier.runOnce()).reminders).toBe(0);
    clock.advance(31_000);
    expect((await gw.app.notifier.runOnce()).reminders).toBe(1);
    clock.advance(31_000);
    expect((await gw.app.notifier.runOnce()).reminders).toBe(0);
    const reminder = (await linesOf(players[1]!, tid))[0]!;
    expect(reminder).toMatchObject({ kind: 'match-reminder', title: 'Match in 15 minutes' });
    expect(reminder.body).toContain('starts at 18:00 IST');
    expect((await linesOf(players[3]!, tid)).map((l) => l.kind)).toEqual(['stage-published']);

    // Completing the stage: one team per group qualifies for the next one (a last stage would announce final
    // places; its matches marked not played, issue 27).
    expect((await gw.api.post(`/tournaments/${tid}/stages`, { name: 'Final', lobbySize: 2 }, admin)).status).toBe(201);
    const done = await gw.api.post(
      `/tournaments/${tid}/stages/${stage.id}/complete`,
      { notPlayed: scheduled.body.map((m: any) => m.id) },
      admin,
    );
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    await gw.app.notifier.runOnce();
    const qualified = new Set(done.body.qualifiers.map((q: any) => q.teamId));
    for (const [i, player] of players.entries()) {
      const latest = (await linesOf(player, tid))[0]!;
      expect(latest.kind).toBe(qualified.has(teams[i]!.rid) ? 'qualified' : 'eliminated');
    }
  });
});
