import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_ENDPOINT_TAKEN, PUSH_NOT_ON, PUSH_SUBSCRIPTIONS_MAX } from '@custom-room/contract';
import { enqueueEvent } from '../../gateway/src/db/outbox.js';
import { FakeClock, isoAt } from '../../gateway/src/lib/clock.js';
import { startPushService, type PushService, type TestSubscription } from '../support/notify-servers.js';
import { adminToken, createTournamentWithTeams, createUser, startGateway, unique, type TestGateway, type TestUser } from './helpers.js';

/**
 * Issue 27, items 12 and 13 (decision 054): an account flooding push subscriptions, and one account taking
 * another's phone by re-subscribing its endpoint. The worker is driven with runOnce on a fake clock.
 */
describe('push subscriptions under attack', () => {
  let gw: TestGateway;
  let push: PushService;
  let admin: string;
  const clock = new FakeClock();

  beforeAll(async () => {
    push = await startPushService();
    gw = await startGateway({ PUSH_ALLOW_HTTP: 'on' }, undefined, { clock });
    admin = await adminToken(gw.api);
  });
  afterAll(async () => {
    await gw?.stop();
    await push?.close();
  });

  const subscribe = (phone: TestSubscription, user: TestUser) =>
    gw.api.post('/push/subscribe', { endpoint: phone.endpoint, keys: phone.keys }, user.token);
  const unsubscribe = (phone: TestSubscription, user: TestUser) =>
    gw.api.post('/push/unsubscribe', { endpoint: phone.endpoint }, user.token);
  const phonesOf = async (user: TestUser) =>
    (await gw.app.store.db.selectFrom('push_subscriptions').select('endpoint').where('user_id', '=', user.id).orderBy('id').execute()).map(
      (r) => r.endpoint,
    );

  it('keeps at most 10 phones per account: each new one past that replaces the oldest', async () => {
    const user = await createUser(gw.api);
    const phones = Array.from({ length: 25 }, () => push.subscribe());
    for (const phone of phones) {
      clock.advance(1000);
      expect((await subscribe(phone, user)).status).toBe(201);
    }
    expect(PUSH_SUBSCRIPTIONS_MAX).toBe(10);
    expect(await phonesOf(user)).toEqual(phones.slice(-10).map((p) => p.endpoint));
    // Re-subscribing a phone it holds refreshes it (newest again) and adds nothing.
    clock.advance(1000);
    expect((await subscribe(phones[15]!, user)).status).toBe(201);
    clock.advance(1000);
    expect((await subscribe(push.subscribe(), user)).status).toBe(201);
    const kept = await phonesOf(user);
    expect(kept).toHaveLength(10);
    expect(kept).toContain(phones[15]!.endpoint);
    expect(kept).not.toContain(phones[16]!.endpoint);
  });

  it('sends one event at most 10 pushes per account, even to an account holding more from before the cap', async () => {
    const [flooder, other] = [await createUser(gw.api), await createUser(gw.api)];
    const { tid, teams } = await createTournamentWithTeams(gw.api, admin, [flooder, other], [`Flood ${unique()}`, `Other ${unique()}`], {
      entryFee: '0',
    });
    // 40 rows written straight to the table, as the gateway accepted them before the cap.
    const planted = Array.from({ length: 40 }, () => push.subscribe());
    await gw.app.store.db
      .insertInto('push_subscriptions')
      .values(
        planted.map((p, i) => ({
          user_id: flooder.id,
          endpoint: p.endpoint,
          p256dh: p.keys.p256dh,
          auth: p.keys.auth,
          created_at: isoAt(clock.now() + i),
        })),
      )
      .execute();
    const otherPhone = push.subscribe();
    expect((await subscribe(otherPhone, other)).status).toBe(201);
    await gw.app.store.writeTransaction((trx) =>
      enqueueEvent(trx, { kind: 'promoted', tournamentId: tid, audience: { registrations: teams.map((t) => t.rid) } }, clock.now()),
    );
    await gw.app.notifier.runOnce(clock.now());
    const deliveries = await gw.app.store.db
      .selectFrom('notification_deliveries')
      .select(['user_id', 'subscription_id', 'state'])
      .where('tournament_id', '=', tid)
      .where('channel', '=', 'push')
      .execute();
    const flooderIds = deliveries.filter((d) => Number(d.user_id) === flooder.id).map((d) => Number(d.subscription_id));
    expect(flooderIds).toHaveLength(10);
    // The newest 10 of the 40.
    const newest = await gw.app.store.db
      .selectFrom('push_subscriptions')
      .select('id')
      .where(
        'endpoint',
        'in',
        planted.slice(-10).map((p) => p.endpoint),
      )
      .execute();
    expect(flooderIds.sort((a, b) => a - b)).toEqual(newest.map((r) => Number(r.id)).sort((a, b) => a - b));
    expect(deliveries.filter((d) => Number(d.user_id) === other.id)).toEqual([expect.objectContaining({ state: 'sent' })]);
    expect(push.received.filter((r) => r.path === new URL(otherPhone.endpoint).pathname)).toHaveLength(1);
  });

  it('refuses an endpoint another account holds, and never reports "off" when nothing was removed', async () => {
    const [owner, thief] = [await createUser(gw.api), await createUser(gw.api)];
    const phone = push.subscribe();
    expect((await subscribe(phone, owner)).status).toBe(201);

    // Same endpoint, the thief's own keys: refused, and the phone stays the owner's with the owner's keys.
    const forged = { endpoint: phone.endpoint, keys: push.subscribe().keys };
    const taken = await gw.api.post('/push/subscribe', forged, thief.token);
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ message: PUSH_ENDPOINT_TAKEN, errors: { endpoint: PUSH_ENDPOINT_TAKEN } });
    const row = await gw.app.store.db
      .selectFrom('push_subscriptions')
      .selectAll()
      .where('endpoint', '=', phone.endpoint)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: owner.id, p256dh: phone.keys.p256dh, auth: phone.keys.auth });

    // The thief cannot turn the owner's phone off either; nothing removed is a 404, not "off".
    const notTheirs = await unsubscribe(phone, thief);
    expect(notTheirs.status).toBe(404);
    expect(notTheirs.body.message).toBe(PUSH_NOT_ON);
    expect(await phonesOf(owner)).toEqual([phone.endpoint]);

    // The owner's unsubscribe removes it, once.
    const off = await unsubscribe(phone, owner);
    expect(off.status).toBe(200);
    expect(off.body.message).toBe('Notifications are off for this phone.');
    expect(await phonesOf(owner)).toEqual([]);
    expect((await unsubscribe(phone, owner)).status).toBe(404);
    // Free again: now the other account may have it.
    expect((await subscribe(phone, thief)).status).toBe(201);
  });
});
