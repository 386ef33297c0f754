import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueEvent } from '../../gateway/src/db/outbox.js';
import { FakeClock } from '../../gateway/src/lib/clock.js';
import { startGateway, type TestGateway } from './helpers.js';

// Issue 19's outbox: the foundation the notification worker reads.
describe('the notifications outbox', () => {
  let gw: TestGateway;
  const clock = new FakeClock(Date.parse('2026-11-26T10:00:00.000Z'));
  beforeAll(async () => {
    gw = await startGateway({}, undefined, { clock });
  });
  afterAll(() => gw.stop());

  it('gives the app the clock it was built with', () => {
    expect(gw.app.clock.now()).toBe(Date.parse('2026-11-26T10:00:00.000Z'));
    clock.advance(60_000);
    expect(gw.app.clock.now()).toBe(Date.parse('2026-11-26T10:01:00.000Z'));
  });

  it('records an event with its audience and data, at the given time, once per dedupe key', async () => {
    const db = gw.app.store.db;
    const event = {
      kind: 'match-reminder' as const,
      tournamentId: 7,
      audience: { groups: [3, 4] },
      data: { matchId: 11 },
      dedupeKey: 'reminder:11',
    };
    expect(await db.transaction().execute((trx) => enqueueEvent(trx, event, clock.now()))).toBe(true);
    expect(await enqueueEvent(db, event, clock.now())).toBe(false);
    expect(await enqueueEvent(db, { ...event, dedupeKey: undefined }, clock.now())).toBe(true);
    expect(await enqueueEvent(db, { ...event, dedupeKey: undefined }, clock.now())).toBe(true);
    const rows = await db.selectFrom('notification_events').selectAll().orderBy('id').execute();
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({ kind: 'match-reminder', tournament_id: 7, dedupe_key: 'reminder:11', fanned_out_at: null });
    expect(JSON.parse(rows[0]!.audience)).toEqual({ groups: [3, 4] });
    expect(JSON.parse(rows[0]!.data)).toEqual({ matchId: 11 });
    expect(rows[0]!.created_at).toBe('2026-11-26T10:01:00.000Z');
  });
});
