import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_PLAYER_PASSWORD, demoEmail, seedDemo } from '../../gateway/src/seed/demo.js';
import { adminToken, createStorage, startGateway, type TestGateway } from './helpers.js';

/** Row counts of every table the seeder writes. */
async function counts(gw: TestGateway) {
  const { db } = gw.app.store;
  const n = async (table: 'tournaments' | 'users' | 'registrations' | 'matches' | 'match_results' | 'images') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    tournaments: await n('tournaments'),
    users: await n('users'),
    registrations: await n('registrations'),
    matches: await n('matches'),
    results: await n('match_results'),
    images: await n('images'),
  };
}

describe('demo data', () => {
  const running: TestGateway[] = [];
  const start = async (...args: Parameters<typeof startGateway>) => {
    const gw = await startGateway(...args);
    running.push(gw);
    return gw;
  };
  afterAll(async () => {
    for (const gw of running) await gw.stop().catch(() => {});
  });

  it('fills an empty database once, and a restart on the same storage adds nothing', async () => {
    const storage = await createStorage();
    const gw = await start({ SEED_DEMO: '1' }, storage);
    const before = await counts(gw);
    expect(before).toMatchObject({ tournaments: 5, users: 17 }); // 16 players + the admin
    expect(before.registrations).toBeGreaterThan(30);
    expect(before.matches).toBeGreaterThan(10);
    expect(before.results).toBeGreaterThan(100);

    const list = await gw.api.get('/tournaments');
    expect(list.status).toBe(200);
    const tournaments = list.body as any[];
    expect(tournaments).toHaveLength(5);
    const byStatus = (status: string) => tournaments.find((t) => t.status === status);
    const now = Date.now();

    const open = byStatus('Registration Ongoing');
    expect(open.registeredTeams).toBeGreaterThan(0);
    expect(open.registeredTeams).toBeLessThan(open.maxTeams);
    expect(Date.parse(open.registrationOpen)).toBeLessThan(now);
    expect(Date.parse(open.registrationClose)).toBeGreaterThan(now);

    const upcoming = byStatus('Upcoming');
    expect(Date.parse(upcoming.registrationOpen)).toBeGreaterThan(now);

    const ongoing = byStatus('Ongoing');
    expect(Date.parse(ongoing.startDate)).toBeLessThan(now);
    expect(Date.parse(ongoing.endDate)).toBeGreaterThan(now);
    const day1 = await gw.api.get(`/tournaments/${ongoing.id}/points-table/day?day=1`);
    expect(day1.body).toHaveLength(ongoing.registeredTeams);
    expect((await gw.api.get(`/tournaments/${ongoing.id}/points-table/day?day=2`)).body).toEqual([]);
    const admin = await adminToken(gw.api);
    const matches = (await gw.api.get(`/matches/tournament/${ongoing.id}`, admin)).body as any[];
    expect(new Set(matches.map((m) => m.day))).toEqual(new Set([1, 2]));
    for (const m of matches) expect(m.matchId).toMatch(/^\d{7}$/);

    const completed = byStatus('Completed');
    expect(Date.parse(completed.endDate)).toBeLessThan(now);
    const overall = (await gw.api.get(`/tournaments/${completed.id}/points-table/overall`)).body as any[];
    expect(overall).toHaveLength(completed.registeredTeams);
    for (const row of overall) expect(row.matchesPlayed).toBe(12);
    for (const day of [1, 2, 3])
      expect((await gw.api.get(`/tournaments/${completed.id}/points-table/day?day=${day}`)).body).toHaveLength(completed.registeredTeams);
    expect(overall.reduce((n, r) => n + r.wins, 0)).toBe(12);

    const freeFire = tournaments.find((t) => t.game === 'Free Fire');
    expect(freeFire.pointsSystem).toBe('freefire-12');
    expect(new Set(tournaments.map((t) => t.game))).toEqual(new Set(['BGMI', 'Free Fire']));
    expect(new Set(tournaments.map((t) => t.status)).size).toBe(5);

    for (const t of tournaments) {
      expect(t.entryFee).toBeGreaterThanOrEqual(0);
      expect(t.entryFee).toBeLessThanOrEqual(500);
      expect(t.prizePool).toMatch(/^₹[\d,]+$/);
      expect(t.overview.length).toBeGreaterThan(20);
      expect(t.description.length).toBeGreaterThan(20);
      expect(t).toMatchObject({ coverImageWidth: 1200, coverImageHeight: 675 });
    }
    expect(new Set(tournaments.map((t) => t.coverImageUrl)).size).toBe(5);
    const cover = await gw.api.get(tournaments[0].coverImageUrl);
    expect(cover.status).toBe(200);
    expect(await sharp(cover.body as Buffer).metadata()).toMatchObject({ format: 'webp', width: 1200, height: 675 });

    // Demo players own the teams and can log in with the documented password.
    const login = await gw.api.post('/api/auth/login', { emailOrPhone: demoEmail(1), password: DEMO_PLAYER_PASSWORD });
    expect(login.status).toBe(200);
    const mine = await gw.api.get('/registrations/user', login.body.token);
    expect(mine.body.length).toBeGreaterThanOrEqual(4);

    await gw.stop();
    const again = await start({ SEED_DEMO: '1' }, storage);
    expect(await counts(again)).toEqual(before);
    expect((await again.api.get('/tournaments')).body).toHaveLength(5);
  });

  it('never seeds over existing tournaments, even deleted ones', async () => {
    const storage = await createStorage();
    const plain = await start({}, storage);
    const admin = await adminToken(plain.api);
    const { createTournament } = await import('./helpers.js');
    const t = await createTournament(plain.api, admin);
    expect((await plain.api.delete(`/tournaments/admin/delete${t.id}`, admin)).status).toBeLessThan(300);
    await plain.stop();
    const seeded = await start({ SEED_DEMO: '1' }, storage);
    expect(await counts(seeded)).toMatchObject({ tournaments: 1, users: 1, registrations: 0 });
  });

  it('creates nothing with SEED_DEMO=0', async () => {
    const gw = await start({ SEED_DEMO: '0' });
    expect(await counts(gw)).toEqual({ tournaments: 0, users: 1, registrations: 0, matches: 0, results: 0, images: 0 });
    expect((await gw.api.get('/tournaments')).body).toEqual([]);
  });

  it('seeds once when two seeders race on one database', async () => {
    const gw = await start({ SEED_DEMO: '0' });
    const outcomes = await Promise.all([seedDemo(gw.app), seedDemo(gw.app), seedDemo(gw.app)]);
    expect(outcomes.filter((o) => o !== null)).toHaveLength(1);
    expect(await counts(gw)).toMatchObject({ tournaments: 5, users: 17 });
  });
});
