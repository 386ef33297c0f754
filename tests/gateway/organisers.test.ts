// Issue 29 (decision 065): organisers apply and are approved, own their tournaments and their pages;
// crews are invited, accept and are removed; announcements reach their audience and nobody else, and
// never carry a room; older tournaments belong to the Site organiser after migration 019.
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../gateway/src/db/migrations.js';
import {
  ADMIN,
  adminToken,
  createStorage,
  createTournament,
  createUser,
  expectStatus,
  pngImage,
  startGateway,
  teamFields,
  toForm,
  tournamentFields,
  unique,
  type TestGateway,
  type TestUser,
} from './helpers.js';

describe('organisers', () => {
  let gw: TestGateway;
  let admin: string;
  let owner: TestUser;
  let stranger: TestUser;
  let slug: string;

  beforeAll(async () => {
    gw = await startGateway();
    admin = await adminToken(gw.api);
    owner = await createUser(gw.api);
    stranger = await createUser(gw.api);
  });
  afterAll(() => gw?.stop());

  it('an application waits for a site admin; the page shows once approved', async () => {
    const name = `Xtreme Esports ${unique()}`;
    const applied = expectStatus(
      await gw.api.post(
        '/organisers',
        { name, contact: '+91 98765 43210', about: 'Weekly BGMI scrims.', instagram: 'https://instagram.com/xtreme' },
        owner.token,
      ),
      201,
    );
    slug = applied.slug;
    expect(applied).toMatchObject({ name, status: 'pending', isSite: false, contact: '+91 98765 43210', ownerUsername: owner.username });
    expect(slug).toMatch(/^xtreme-esports-/);
    // Not public yet, not an organiser yet: creating a tournament is refused.
    expect((await gw.api.get(`/organisers/${slug}`)).status).toBe(404);
    expect((await gw.api.get(`/organisers/${slug}`, owner.token)).status).toBe(200);
    expect((await createTournamentAs(owner)).status).toBe(403);
    // The site admin's list of applications names it; the public list does not.
    const pending = expectStatus(await gw.api.get('/organisers?status=pending', admin), 200);
    expect(pending.map((o: any) => o.slug)).toContain(slug);
    // With the account it belongs to and its contact, for the admin to check; the public list has neither.
    expect(pending.find((o: any) => o.slug === slug)).toMatchObject({ ownerUsername: owner.username, contact: '+91 98765 43210' });
    expect(expectStatus(await gw.api.get('/organisers'), 200).every((o: any) => o.ownerUsername === undefined)).toBe(true);
    expect((await gw.api.get('/organisers?status=pending', stranger.token)).status).toBe(403);
    expect(expectStatus(await gw.api.get('/organisers'), 200).map((o: any) => o.slug)).not.toContain(slug);
    // Only a site admin approves.
    expect((await gw.api.post(`/organisers/${slug}/approve`, { decision: 'approve' }, owner.token)).status).toBe(403);
    expectStatus(await gw.api.post(`/organisers/${slug}/approve`, { decision: 'approve' }, admin), 200);
    const page = expectStatus(await gw.api.get(`/organisers/${slug}`), 200);
    expect(page).toMatchObject({
      name,
      about: 'Weekly BGMI scrims.',
      instagram: 'https://instagram.com/xtreme',
      status: 'approved',
      tournaments: [],
    });
    expect(page.contact).toBeUndefined(); // the contact is for the site admin and the owner
  });

  it('refuses a second organiser for one account, a taken page address and links to other sites', async () => {
    expect((await gw.api.post('/organisers', { name: `Again ${unique()}`, contact: owner.email }, owner.token)).status).toBe(409);
    const taken = await gw.api.post('/organisers', { name: 'Other', slug, contact: stranger.email }, stranger.token);
    expect(taken.status).toBe(409);
    expect(taken.body.errors.slug).toMatch(/taken/);
    const bad = await gw.api.post(
      '/organisers',
      { name: 'Other', contact: stranger.email, youtube: 'https://evil.example/watch' },
      stranger.token,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors.youtube).toMatch(/youtube\.com/);
    // The site's own pages under /organisers/ (the application form) are no organiser's address.
    const chosen = await gw.api.post('/organisers', { name: 'Other', slug: 'apply', contact: stranger.email }, stranger.token);
    expect(chosen.status).toBe(400);
    expect(chosen.body.errors.slug).toMatch(/taken/);
    const named = await gw.api.post('/organisers', { name: 'Apply', contact: stranger.email }, stranger.token);
    expect(named.status).toBe(409);
    expect(named.body.errors.slug).toMatch(/taken/);
  });

  const createTournamentAs = (user: TestUser) =>
    gw.api.request('POST', '/tournaments/add', { token: user.token, form: toForm(tournamentFields()) });

  it('an approved organiser owns what it creates; its tournaments say who runs them, open first', async () => {
    const t = await createTournament(gw.api, owner.token, { name: `Owned Cup ${unique()}` });
    expect(t.organiser).toMatchObject({ slug, logoUrl: null });
    expect(expectStatus(await gw.api.get(`/tournaments/${t.id}`), 200).organiser.slug).toBe(slug);
    const listed = expectStatus(await gw.api.get('/tournaments'), 200).find((x: any) => x.id === t.id);
    expect(listed.organiser.slug).toBe(slug);
    // A site admin's tournament goes to the Site organiser.
    const site = await createTournament(gw.api, admin);
    expect(site.organiser.slug).toBe('site');
    const page = expectStatus(await gw.api.get(`/organisers/${slug}`), 200);
    expect(page.tournaments.map((x: any) => x.id)).toEqual([t.id]);
    // The owner's desk lists it; the stranger's desk is empty and the admin list shows it nothing.
    const desk = expectStatus(await gw.api.get('/desk', owner.token), 200);
    expect(desk.tournaments).toEqual([{ id: t.id, name: t.name, kind: 'owner' }]);
    expect(desk.organiser.slug).toBe(slug);
    const mine = expectStatus(await gw.api.get('/tournaments/admin/summary', owner.token), 200);
    expect(mine.map((x: any) => x.id)).toEqual([t.id]);
    expect((await gw.api.get('/tournaments/admin/summary', stranger.token)).status).toBe(403);
  });

  it('the owner changes its page (the slug stays); nobody else does; a renamed organiser shows on its tournaments', async () => {
    const body = { name: `Renamed ${unique()}`, contact: owner.email, discord: 'https://discord.gg/abc' };
    expect((await gw.api.put(`/organisers/${slug}`, body, stranger.token)).status).toBe(403);
    const changed = expectStatus(await gw.api.put(`/organisers/${slug}`, body, owner.token), 200);
    expect(changed).toMatchObject({ slug, name: body.name, discord: 'https://discord.gg/abc' });
    const [t] = expectStatus(await gw.api.get(`/organisers/${slug}`), 200).tournaments;
    expect(expectStatus(await gw.api.get(`/tournaments/${t.id}`), 200).organiser.name).toBe(body.name);
  });
});

describe("an organiser's logo (decision 068)", () => {
  let gw: TestGateway;
  let admin: string;
  let owner: TestUser;
  let rival: TestUser;
  let slug: string;
  let tid: number;
  const fields = (overrides: Record<string, string> = {}) => ({ name: `Logo Org ${unique()}`, contact: '+91 98765 43210', ...overrides });
  const putForm = (token: string, form: FormData, at = slug) => gw.api.request('PUT', `/organisers/${at}`, { token, form });
  const withLogo = (data: Buffer, type = 'image/png', filename = 'logo.png', extra: Record<string, string> = {}) =>
    toForm(fields(extra), [{ name: 'logo', data, filename, type }]);

  beforeAll(async () => {
    gw = await startGateway();
    admin = await adminToken(gw.api);
    [owner, rival] = [await createUser(gw.api), await createUser(gw.api)];
    for (const user of [owner, rival]) {
      const org = expectStatus(await gw.api.post('/organisers', fields(), user.token), 201);
      expectStatus(await gw.api.post(`/organisers/${org.slug}/approve`, { decision: 'approve' }, admin), 200);
      if (user === owner) slug = org.slug;
    }
    tid = (await createTournament(gw.api, owner.token)).id;
  });
  afterAll(() => gw?.stop());

  it('a PNG uploaded with the page becomes its logo: served at 128 pixels, named by the page and its tournaments', async () => {
    const name = `With Logo ${unique()}`;
    const changed = expectStatus(await putForm(owner.token, withLogo(await pngImage(600, 600), 'image/png', 'logo.png', { name })), 200);
    expect(changed).toMatchObject({ slug, name, contact: '+91 98765 43210' });
    expect(changed.logoUrl).toMatch(/^\/images\/[0-9a-f]{32}-128\.webp$/);
    const image = await fetch(`${gw.url}${changed.logoUrl}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 128, height: 128 });
    expect(expectStatus(await gw.api.get(`/organisers/${slug}`), 200).logoUrl).toBe(changed.logoUrl);
    expect(expectStatus(await gw.api.get(`/tournaments/${tid}`), 200).organiser).toEqual({ slug, name, logoUrl: changed.logoUrl });
    const listed = expectStatus(await gw.api.get('/tournaments'), 200).find((t: any) => t.id === tid);
    expect(listed.organiser.logoUrl).toBe(changed.logoUrl);
    // A JSON body changes the text and keeps the logo, as it always kept what it does not name.
    const json = expectStatus(await gw.api.put(`/organisers/${slug}`, fields({ name }), owner.token), 200);
    expect(json.logoUrl).toBe(changed.logoUrl);
    // A form without a chosen file (the browser's empty part) keeps it too.
    const kept = expectStatus(await putForm(owner.token, withLogo(Buffer.alloc(0), 'application/octet-stream', '', { name })), 200);
    expect(kept.logoUrl).toBe(changed.logoUrl);
  });

  it("refuses a file that is no image with the cover's message, and a bad field by its name; nothing changes", async () => {
    const before = expectStatus(await gw.api.get(`/organisers/${slug}`), 200);
    const text = await putForm(owner.token, withLogo(Buffer.from('just some text, not a picture'), 'text/plain', 'notes.txt'));
    expect(text.status).toBe(415);
    expect(text.body).toEqual({ message: 'Please upload only image files.', errors: { logo: 'Please upload only image files.' } });
    const small = await putForm(owner.token, withLogo(await pngImage(100, 100)));
    expect(small.status).toBe(400);
    expect(small.body.errors).toEqual({ logo: 'The logo is too small: at least 200×100 pixels.' });
    const badLink = await putForm(
      owner.token,
      withLogo(await pngImage(300, 300), 'image/png', 'logo.png', { youtube: 'https://evil.example/x' }),
    );
    expect(badLink.status).toBe(400);
    expect(badLink.body.errors.youtube).toMatch(/youtube\.com/);
    const after = expectStatus(await gw.api.get(`/organisers/${slug}`), 200);
    expect({ name: after.name, logoUrl: after.logoUrl }).toEqual({ name: before.name, logoUrl: before.logoUrl });
  });

  it("the owner of another organiser may not change this one's logo; a site admin may", async () => {
    const before = expectStatus(await gw.api.get(`/organisers/${slug}`), 200);
    const refused = await putForm(rival.token, withLogo(await pngImage(300, 300, { r: 0, g: 0, b: 0 })));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Only its owner changes this page.');
    expect(expectStatus(await gw.api.get(`/organisers/${slug}`), 200).logoUrl).toBe(before.logoUrl);
    expect((await putForm(owner.token, withLogo(await pngImage(300, 300)), 'no-such-organiser')).status).toBe(404);
    const byAdmin = expectStatus(
      await putForm(admin, withLogo(await pngImage(300, 300, { r: 10, g: 200, b: 10 }), 'image/png', 'l.png', { name: before.name })),
      200,
    );
    expect(byAdmin.logoUrl).toMatch(/-128\.webp$/);
    expect(byAdmin.logoUrl).not.toBe(before.logoUrl);
  });

  it('removeLogo clears it, in a form or in JSON', async () => {
    const cleared = expectStatus(await putForm(owner.token, toForm(fields({ removeLogo: 'on' }))), 200);
    expect(cleared.logoUrl).toBeNull();
    expect(expectStatus(await gw.api.get(`/tournaments/${tid}`), 200).organiser.logoUrl).toBeNull();
    const again = expectStatus(await putForm(owner.token, withLogo(await pngImage(400, 200))), 200);
    expect(again.logoUrl).toMatch(/-128\.webp$/);
    const json = expectStatus(await gw.api.put(`/organisers/${slug}`, { ...fields(), removeLogo: true }, owner.token), 200);
    expect(json.logoUrl).toBeNull();
    const bad = await gw.api.put(`/organisers/${slug}`, { ...fields(), removeLogo: 'maybe' }, owner.token);
    expect(bad.status).toBe(400);
    expect(bad.body.errors.removeLogo).toBe('Remove logo must be on or off.');
  });
});

describe('the crew', () => {
  let gw: TestGateway;
  let admin: string;
  let owner: TestUser;
  let helper: TestUser;
  let player: TestUser;
  let tid: number;

  beforeAll(async () => {
    gw = await startGateway();
    admin = await adminToken(gw.api);
    [owner, helper, player] = [await createUser(gw.api), await createUser(gw.api), await createUser(gw.api)];
    const org = expectStatus(await gw.api.post('/organisers', { name: `Crew Org ${unique()}`, contact: owner.email }, owner.token), 201);
    expectStatus(await gw.api.post(`/organisers/${org.slug}/approve`, { decision: 'approve' }, admin), 200);
    tid = (await createTournament(gw.api, owner.token)).id;
    expectStatus(await gw.api.post(`/registrations/${tid}`, teamFields(), player.token), 201);
  });
  afterAll(() => gw?.stop());

  it('is invited by username or email, told, and accepts as the invited account only', async () => {
    const invited = expectStatus(await gw.api.post(`/tournaments/${tid}/staff`, { who: helper.email, role: 'payments' }, owner.token), 201);
    expect(invited).toMatchObject({ tournamentId: tid, role: 'payments' });
    expect(invited.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    // Invited, not yet staff.
    expect(expectStatus(await gw.api.get(`/tournaments/${tid}/staff/me`, helper.token), 200)).toEqual({ kind: null, scopes: [] });
    expect(expectStatus(await gw.api.get('/desk', helper.token), 200).invitations).toEqual([
      { tournamentId: tid, tournamentName: expect.any(String), role: 'payments', token: invited.token },
    ]);
    await gw.app.notifier.runOnce(Date.now());
    const told = expectStatus(await gw.api.get('/notifications', helper.token), 200).items;
    expect(told[0]).toMatchObject({ kind: 'staff-invited', link: `/staff-invitations/${invited.token}` });
    expect((await gw.api.post(`/staff-invitations/${invited.token}/accept`, {}, player.token)).status).toBe(403);
    expectStatus(await gw.api.post(`/staff-invitations/${invited.token}/accept`, {}, helper.token), 200);
    expect((await gw.api.post(`/staff-invitations/${invited.token}/accept`, {}, helper.token)).status).toBe(404);
    expect(expectStatus(await gw.api.get(`/tournaments/${tid}/staff/me`, helper.token), 200)).toEqual({ kind: 'payments', scopes: [] });
    const list = expectStatus(await gw.api.get(`/tournaments/${tid}/staff`, owner.token), 200);
    expect(list.staff).toEqual([expect.objectContaining({ username: helper.username, role: 'payments', status: 'active' })]);
    expect(list.owner.username).toBe(owner.username);
  });

  it('refuses an unknown account, the owner, a duplicate, and a lobby manager without groups', async () => {
    const post = (body: object) => gw.api.post(`/tournaments/${tid}/staff`, body, owner.token);
    expect((await post({ who: `nobody_${unique()}`, role: 'payments' })).body.errors.who).toMatch(/No account/);
    expect((await post({ who: owner.username, role: 'payments' })).status).toBe(400);
    expect((await post({ who: helper.username, role: 'co-organiser' })).status).toBe(409);
    expect((await post({ who: player.username, role: 'lobby' })).body.errors.scopes).toMatch(/stages or groups/);
    const fresh = await createUser(gw.api);
    expect((await post({ who: fresh.username, role: 'lobby', scopes: [{ stageId: 999_999 }] })).body.errors['scopes.0.stageId']).toMatch(
      /stage of this/,
    );
    // A player of the tournament is never its staff.
    expect((await post({ who: player.username, role: 'payments' })).status).toBe(409);
  });

  it('the site admin keeps every right; the owner removes a member', async () => {
    expectStatus(await gw.api.get(`/tournaments/${tid}/staff`, admin), 200);
    expect(expectStatus(await gw.api.get(`/tournaments/${tid}/staff/me`, admin), 200).kind).toBe('site-admin');
    expectStatus(await gw.api.delete(`/tournaments/${tid}/staff/${helper.id}`, owner.token), 200);
    expect(expectStatus(await gw.api.get(`/tournaments/${tid}/staff/me`, helper.token), 200).kind).toBeNull();
    expect((await gw.api.delete(`/tournaments/${tid}/staff/${helper.id}`, owner.token)).status).toBe(404);
  });
});

describe('announcements', () => {
  let gw: TestGateway;
  let admin: string;
  let tid: number;
  let stageId: number;
  let groups: Record<'A' | 'B', { id: number; players: TestUser[] }>;
  let roomA: { matchId: string; password: string };

  beforeAll(async () => {
    gw = await startGateway();
    admin = await adminToken(gw.api);
    tid = (await createTournament(gw.api, admin, { entryFee: '0' })).id;
    const players: TestUser[] = [];
    for (let i = 0; i < 8; i++) {
      const p = await createUser(gw.api);
      players.push(p);
      expectStatus(await gw.api.post(`/registrations/${tid}`, teamFields(), p.token), 201);
    }
    const byRid = new Map<number, TestUser>();
    for (const p of players) byRid.set(expectStatus(await gw.api.get(`/registrations/${tid}`, p.token), 200).rid, p);
    stageId = expectStatus(await gw.api.post(`/tournaments/${tid}/stages`, { name: 'Qualifiers', lobbySize: 4 }, admin), 201).id;
    const drawn = expectStatus(await gw.api.post(`/tournaments/${tid}/stages/${stageId}/groups`, { method: 'registration' }, admin), 200);
    const group = (name: 'A' | 'B') => {
      const g = drawn.groups.find((x: any) => x.name === name);
      return { id: g.id as number, players: g.slots.map((s: any) => byRid.get(s.teamId)!) };
    };
    groups = { A: group('A'), B: group('B') };
    expectStatus(await gw.api.post(`/tournaments/${tid}/stages/${stageId}/publish`, {}, admin), 200);
    const matches = expectStatus(
      await gw.api.post(
        `/tournaments/${tid}/stages/${stageId}/matches`,
        { matches: [{ day: 1, matchNo: 1, map: 'Erangel', time: '18:00' }] },
        admin,
      ),
      200,
    );
    roomA = { matchId: '8675309', password: 'tango42' };
    const matchA = matches.find((m: any) => m.groupId === groups.A.id).id;
    expectStatus(await gw.api.put(`/tournaments/${tid}/stages/${stageId}/rooms`, { rooms: [{ id: matchA, ...roomA }] }, admin), 200);
    await gw.app.notifier.runOnce(Date.now()); // the room's own notification, out of the way
  });
  afterAll(() => gw?.stop());

  const announcementsSeen = async (p: TestUser) =>
    expectStatus(await gw.api.get('/notifications', p.token), 200).items.filter((n: any) => n.kind === 'announcement');

  it('to Group B reaches Group B’s players and nobody else, and stays listed on the tournament', async () => {
    const before = expectStatus(await gw.api.get('/generation'), 200).generation;
    const posted = expectStatus(
      await gw.api.post(`/tournaments/${tid}/announcements`, { body: 'Group B delayed 15 minutes', groupId: groups.B.id }, admin),
      201,
    );
    expect(posted).toMatchObject({
      body: 'Group B delayed 15 minutes',
      stageId,
      groupId: groups.B.id,
      audience: 'Qualifiers · Group B',
      author: ADMIN.username,
    });
    await gw.app.notifier.runOnce(Date.now());
    for (const p of groups.B.players) expect((await announcementsSeen(p)).map((n: any) => n.body)).toEqual(['Group B delayed 15 minutes']);
    for (const p of groups.A.players) expect(await announcementsSeen(p)).toEqual([]);
    const listed = expectStatus(await gw.api.get(`/tournaments/${tid}/announcements`), 200);
    expect(listed.map((a: any) => a.body)).toEqual(['Group B delayed 15 minutes']);
    // Logged with its audience and words for the organiser.
    const log = expectStatus(await gw.api.get(`/tournaments/${tid}/activity`, admin), 200);
    expect(log.entries[0]).toMatchObject({
      actor: ADMIN.username,
      action: 'Posted an announcement',
      detail: 'Qualifiers · Group B · “Group B delayed 15 minutes”',
    });
    // The pages that list it are cached by generation: a new announcement must move it.
    expect(expectStatus(await gw.api.get('/generation'), 200).generation).not.toBe(before);
  });

  it('never carries a room ID or password of a group it reaches', async () => {
    const leak = await gw.api.post(
      `/tournaments/${tid}/announcements`,
      { body: `Room ${roomA.matchId}, be quick`, groupId: groups.A.id },
      admin,
    );
    expect(leak.status).toBe(400);
    expect(leak.body.errors.body).toMatch(/room ID or password/);
    const everyone = await gw.api.post(`/tournaments/${tid}/announcements`, { body: `pass is ${roomA.password.toUpperCase()}` }, admin);
    expect(everyone.status).toBe(400);
    // Group B has no room yet: Group A's password is not a secret of B's audience.
    expectStatus(
      await gw.api.post(`/tournaments/${tid}/announcements`, { body: `tango42 is the map callout`, groupId: groups.B.id }, admin),
      201,
    );
    expect((await gw.api.post(`/tournaments/${tid}/announcements`, { body: 'x', groupId: 999_999 }, admin)).status).toBe(400);
  });
});

describe('migration 019 on older data', () => {
  let gw: TestGateway;
  let oldTid: number;

  beforeAll(async () => {
    const storage = await createStorage();
    const db = new Kysely<any>({
      dialect: storage.databaseUrl
        ? new PostgresDialect({ pool: new pg.Pool({ connectionString: storage.databaseUrl, max: 2 }) })
        : new SqliteDialect({ database: new SQLite(path.join(storage.dataDir, 'custom-room.sqlite')) }),
    });
    await migrate(db, storage.databaseUrl ? 'postgres' : 'sqlite', '018-tournament-payee');
    const now = new Date().toISOString();
    const later = new Date(Date.now() + 10 * 86_400_000).toISOString();
    oldTid = (
      await db
        .insertInto('tournaments')
        .values({
          name: `Before Organisers ${unique()}`,
          game: 'BGMI',
          description: 'Older data',
          start_date: later,
          end_date: later,
          registration_open: now,
          registration_close: later,
          max_teams: 16,
          format: 'Squad',
          platform: 'Mobile',
          entry_fee: 0,
          prize_pool: '₹1,000',
          status: 'Registration Ongoing',
          overview: 'Older data',
          points_system: 'bgis-10',
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id as number;
    await db.destroy();
    gw = await startGateway({}, storage); // runs 019, then makes the ADMIN_* account, which claims Site
  });
  afterAll(() => gw?.stop());

  it('gives every older tournament to the Site organiser, owned by the first site admin', async () => {
    const t = expectStatus(await gw.api.get(`/tournaments/${oldTid}`), 200);
    expect(t.organiser).toEqual({ slug: 'site', name: 'Custom Room', logoUrl: null });
    const admin = await adminToken(gw.api);
    const desk = expectStatus(await gw.api.get('/desk', admin), 200);
    expect(desk).toMatchObject({ siteAdmin: true, organiser: { slug: 'site', isSite: true, status: 'approved' } });
    expect(desk.tournaments).toEqual([expect.objectContaining({ id: oldTid, kind: 'owner' })]);
    // The Site organiser is not withdrawn.
    expect((await gw.api.post('/organisers/site/approve', { decision: 'withdraw' }, admin)).status).toBe(409);
  });
});
