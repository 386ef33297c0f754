// Decision 023: the public reads are answered from cached bytes. Each test warms the caches of the
// reading gateway, writes through the writing gateway, and reads again at once: the answer must be new.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Api,
  adminToken,
  createStorage,
  createTournament,
  createTournamentWithTeams,
  createUser,
  matchFields,
  freePort,
  spawnGateway,
  startGateway,
  teamFields,
  toForm,
  tournamentFields,
  unique,
  type TestGateway,
  type TestUser,
} from './helpers.js';

/** Reads a public answer twice, so it is served from the reader's cache (same ETag both times). */
async function warm(api: Api, path: string) {
  const first = await api.get(path);
  const second = await api.get(path);
  expect(second.status).toBe(first.status);
  if (first.status === 200) expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
  return second;
}

const generationOf = async (api: Api) => (await api.get('/generation')).body.generation as string;

function freshnessSuite(topology: string, start: () => Promise<{ writer: Api; reader: Api; stop: () => Promise<void> }>) {
  describe(`cached public reads are never stale: ${topology}`, () => {
    let writer: Api;
    let reader: Api;
    let stop: () => Promise<void>;
    let admin: string;
    let players: TestUser[];

    beforeAll(async () => {
      ({ writer, reader, stop } = await start());
      admin = await adminToken(writer);
      players = [];
      for (let i = 0; i < 3; i++) players.push(await createUser(writer));
    });
    afterAll(() => stop());

    /** Warms every cached answer about tid on the reader and returns the generation before the write. */
    const warmAll = async (tid: number) => {
      for (const path of [
        '/tournaments',
        `/tournaments/${tid}`,
        `/tournaments/${tid}/points-table/overall`,
        `/tournaments/${tid}/points-table/day?day=1`,
        `/tournaments/${tid}/points-table/history`,
        `/tournaments/${tid}/points-table/breakdown?day=1`,
      ]) {
        await warm(reader, path);
      }
      return generationOf(reader);
    };
    const expectNewGeneration = async (before: string) => expect(await generationOf(reader)).not.toBe(before);

    it('tournament created', async () => {
      await warm(reader, '/tournaments');
      const before = await generationOf(reader);
      const t = await createTournament(writer, admin);
      expect((await reader.get('/tournaments')).body.map((x: any) => x.id)).toContain(t.id);
      expect((await reader.get(`/tournaments/${t.id}`)).status).toBe(200);
      await expectNewGeneration(before);
    });

    it('tournament edited, status included', async () => {
      const t = await createTournament(writer, admin);
      const before = await warmAll(t.id);
      const name = `Renamed ${unique()}`;
      const res = await writer.request('PUT', `/tournaments/admin/update/${t.id}`, {
        token: admin,
        form: toForm(tournamentFields({ name, status: 'Registration Closed' })),
      });
      expect(res.status).toBe(200);
      const detail = (await reader.get(`/tournaments/${t.id}`)).body;
      expect([detail.name, detail.status]).toEqual([name, 'Registration Closed']);
      const listed = (await reader.get('/tournaments')).body.find((x: any) => x.id === t.id);
      expect([listed.name, listed.status]).toEqual([name, 'Registration Closed']);
      await expectNewGeneration(before);
    });

    it('tournament deleted', async () => {
      const t = await createTournament(writer, admin);
      const before = await warmAll(t.id);
      expect((await writer.delete(`/tournaments/admin/delete${t.id}`, admin)).status).toBe(200);
      expect((await reader.get('/tournaments')).body.map((x: any) => x.id)).not.toContain(t.id);
      expect((await reader.get(`/tournaments/${t.id}`)).status).toBe(404);
      expect((await reader.get(`/tournaments/${t.id}/points-table/overall`)).status).toBe(404);
      expect((await reader.get(`/tournaments/${t.id}/points-table/day?day=1`)).status).toBe(404);
      // The admin is refused too: soft-deleted tournaments are hidden from everyone.
      expect((await reader.get(`/tournaments/${t.id}`, admin)).status).toBe(404);
      await expectNewGeneration(before);
    });

    it('team registered: registeredTeams', async () => {
      const t = await createTournament(writer, admin);
      const before = await warmAll(t.id);
      expect((await writer.post(`/registrations/${t.id}`, teamFields(), players[0]!.token)).status).toBe(201);
      expect((await reader.get(`/tournaments/${t.id}`)).body.registeredTeams).toBe(1);
      expect((await reader.get('/tournaments')).body.find((x: any) => x.id === t.id).registeredTeams).toBe(1);
      await expectNewGeneration(before);
    });

    it('team renamed: the points tables show the new name', async () => {
      const { tid, teams } = await createTournamentWithTeams(writer, admin, players, [`Old ${unique()}`]);
      expect(
        (
          await writer.post(
            `/tournaments/${tid}/points-table`,
            { day: 1, match: 1, teamId: teams[0]!.rid, position: 1, wins: 1, finishes: 0, teamName: '', totalPoints: 0 },
            admin,
          )
        ).status,
      ).toBe(200);
      const before = await warmAll(tid);
      const teamName = `New ${unique()}`;
      expect((await writer.put(`/registrations/${tid}`, teamFields({ teamName }), players[0]!.token)).status).toBe(200);
      expect((await reader.get(`/tournaments/${tid}/points-table/overall`)).body[0].teamName).toBe(teamName);
      expect((await reader.get(`/tournaments/${tid}/points-table/day?day=1`)).body[0].teamName).toBe(teamName);
      await expectNewGeneration(before);
    });

    it('one result recorded (POST .../points-table)', async () => {
      const { tid, teams } = await createTournamentWithTeams(writer, admin, players, [`A ${unique()}`, `B ${unique()}`]);
      const before = await warmAll(tid);
      expect((await reader.get(`/tournaments/${tid}/points-table/overall`)).body).toEqual([]);
      const res = await writer.post(
        `/tournaments/${tid}/points-table`,
        { day: 1, match: 1, teamId: teams[1]!.rid, position: 1, wins: 1, finishes: 4, teamName: '', totalPoints: 0 },
        admin,
      );
      expect(res.status).toBe(200);
      const overall = (await reader.get(`/tournaments/${tid}/points-table/overall`)).body;
      expect(overall.map((r: any) => [r.teamId, r.totalPoints])).toEqual([[teams[1]!.rid, 14]]);
      expect((await reader.get(`/tournaments/${tid}/points-table/day?day=1`)).body).toEqual(overall);
      expect((await reader.get(`/tournaments/${tid}/points-table/day?day=0`)).body).toEqual(overall);
      await expectNewGeneration(before);
    });

    it('one match replaced (PUT .../points-table/matches/{day}/{match})', async () => {
      const { tid, teams } = await createTournamentWithTeams(writer, admin, players, [`A ${unique()}`, `B ${unique()}`]);
      const [a, b] = [teams[0]!.rid, teams[1]!.rid];
      const put = (results: unknown) => writer.put(`/tournaments/${tid}/points-table/matches/1/1`, { results }, admin);
      expect(
        (
          await put([
            { teamId: a, position: 1, wins: 1, finishes: 2 },
            { teamId: b, position: 2, wins: 0, finishes: 0 },
          ])
        ).status,
      ).toBe(200);
      const before = await warmAll(tid);
      expect((await reader.get(`/tournaments/${tid}/points-table/overall`)).body[0].teamId).toBe(a);
      expect(
        (
          await put([
            { teamId: a, position: 2, wins: 0, finishes: 0 },
            { teamId: b, position: 1, wins: 1, finishes: 2 },
          ])
        ).status,
      ).toBe(200);
      expect((await reader.get(`/tournaments/${tid}/points-table/overall`)).body[0].teamId).toBe(b);
      expect((await reader.get(`/tournaments/${tid}/points-table/day?day=1`)).body[0].teamId).toBe(b);
      // The swap is one correction in the result history (decision 048), in the corrected table's order.
      const history = (await reader.get(`/tournaments/${tid}/points-table/history`)).body;
      expect(history.changes.map((c: any) => c.teams.map((t: any) => [t.teamId, t.before.position, t.after.position]))).toEqual([
        [
          [b, 2, 1],
          [a, 1, 2],
        ],
      ]);
      // The per-match breakdown (issue 20) has the swapped team first, placed 1st.
      const breakdown = (await reader.get(`/tournaments/${tid}/points-table/breakdown?day=1`)).body;
      expect([breakdown.rows[0].teamId, breakdown.rows[0].results[0]?.position]).toEqual([b, 1]);
      await expectNewGeneration(before);
    });

    it('matches created and edited change the generation; players see the new room at once', async () => {
      // A free tournament: its registered teams are confirmed and see the room (decision 029).
      const { tid } = await createTournamentWithTeams(writer, admin, players, [`A ${unique()}`], { entryFee: '0' });
      const before = await warmAll(tid);
      const created = await writer.post('/matches', matchFields(tid), admin);
      expect(created.status).toBe(201);
      const afterCreate = await generationOf(reader);
      expect(afterCreate).not.toBe(before);
      expect((await reader.get(`/matches/tournament/${tid}`, players[0]!.token)).body[0].password).toBe('sq9x');
      expect((await writer.put(`/matches/${created.body.id}`, matchFields(tid, { password: 'moved1' }), admin)).status).toBe(200);
      expect((await reader.get(`/matches/tournament/${tid}`, players[0]!.token)).body[0].password).toBe('moved1');
      expect(await generationOf(reader)).not.toBe(afterCreate);
    });

    it('payment verified: no public answer shows payments, and the caller sees the new status at once', async () => {
      const t = await createTournament(writer, admin);
      const reg = await writer.post(`/registrations/${t.id}`, teamFields(), players[1]!.token);
      const publicBefore = (await warm(reader, `/tournaments/${t.id}`)).body;
      expect((await writer.put(`/registrations/admin/${reg.body.rid}/payment`, { paymentStatus: 'verified' }, admin)).status).toBe(200);
      expect((await reader.get(`/registrations/${t.id}`, players[1]!.token)).body.paymentStatus).toBe('verified');
      expect((await reader.get(`/tournaments/${t.id}`)).body).toEqual(publicBefore);
    });

    it('stage writes (decision 041): the stage list, the stage and group tables and the current-stage table are new at once', async () => {
      const { tid, teams } = await createTournamentWithTeams(writer, admin, players, [`A ${unique()}`, `B ${unique()}`, `C ${unique()}`], {
        entryFee: '0',
      });
      const stagesPath = `/tournaments/${tid}/stages`;
      const stagesNow = async () => (await warm(reader, stagesPath)).body;
      await stagesNow();
      const created = await writer.post(stagesPath, { name: 'Qualifiers', lobbySize: 2, advancePerGroup: 1 }, admin);
      expect(created.status).toBe(201);
      const sid = created.body.id;
      expect((await stagesNow()).map((s: any) => [s.name, s.state])).toEqual([['Qualifiers', 'draft']]);

      expect((await writer.post(`${stagesPath}/${sid}/groups`, { method: 'registration' }, admin)).status).toBe(200);
      const draft = await stagesNow();
      expect([draft[0].groups, draft[0].draw.method]).toEqual([[], 'registration']);
      // The admin's token skips the cached public answer: drafts are shown to admins only.
      expect((await reader.get(stagesPath, admin)).body[0].groups.map((g: any) => g.slots.length)).toEqual([2, 1]);

      expect((await writer.post(`${stagesPath}/${sid}/publish`, {}, admin)).status).toBe(200);
      const published = await stagesNow();
      expect(published[0].groups.map((g: any) => g.slots.map((x: any) => x.teamId))).toEqual([
        [teams[0]!.rid, teams[1]!.rid],
        [teams[2]!.rid],
      ]);
      const [groupA, groupB] = published[0].groups.map((g: any) => g.id);

      const moved = await writer.post(
        `${stagesPath}/${sid}/slots`,
        { from: { groupId: groupA, slot: 2 }, to: { groupId: groupB, slot: 2 } },
        admin,
      );
      expect(moved.status).toBe(200);
      expect((await stagesNow())[0].groups.map((g: any) => g.slots.map((x: any) => x.teamId))).toEqual([
        [teams[0]!.rid],
        [teams[2]!.rid, teams[1]!.rid],
      ]);

      const scheduled = await writer.post(
        `${stagesPath}/${sid}/matches`,
        { matches: [{ day: 1, matchNo: 1, map: 'Erangel', time: '18:30' }] },
        admin,
      );
      expect(scheduled.status).toBe(200);
      const tables = [
        `/tournaments/${tid}/points-table/overall`,
        `/tournaments/${tid}/points-table/overall?stage=${sid}`,
        `/tournaments/${tid}/points-table/day?day=1&group=${groupB}`,
      ];
      for (const path of tables) expect((await warm(reader, path)).body.map((r: any) => r.totalPoints)).not.toContain(14);
      const before = await generationOf(reader);
      const results = [
        { teamId: teams[1]!.rid, position: 1, finishes: 4 },
        { teamId: teams[2]!.rid, position: 2, finishes: 0 },
      ];
      expect((await writer.put(`/tournaments/${tid}/points-table/matches/1/1`, { groupId: groupB, results }, admin)).status).toBe(200);
      for (const path of tables) expect((await reader.get(path)).body[0]).toMatchObject({ teamId: teams[1]!.rid, totalPoints: 14 });
      await expectNewGeneration(before);

      // Group A's match was not played (issue 27: completing needs results or the mark).
      const unplayed = (scheduled.body as any[]).filter((m) => m.groupId !== groupB).map((m) => m.id);
      expect((await writer.post(`${stagesPath}/${sid}/complete`, { notPlayed: unplayed }, admin)).status).toBe(200);
      expect((await stagesNow())[0].state).toBe('completed');
      expect((await writer.put(`${stagesPath}/${sid}`, { name: 'Group stage' }, admin)).status).toBe(200);
      expect((await stagesNow())[0].name).toBe('Group stage');
    });

    it('a refused write changes nothing, not even the generation', async () => {
      const t = await createTournament(writer, admin, { maxTeams: '2' });
      await writer.post(`/registrations/${t.id}`, teamFields(), players[0]!.token);
      await writer.post(`/registrations/${t.id}`, teamFields(), players[1]!.token);
      const before = await warmAll(t.id);
      const full = await writer.post(`/registrations/${t.id}`, teamFields(), players[2]!.token);
      expect(full.status).toBe(409);
      expect(await generationOf(reader)).toBe(before);
    });
  });
}

freshnessSuite('one gateway', async () => {
  const gw = await startGateway();
  return { writer: gw.api, reader: gw.api, stop: () => gw.stop() };
});

// Process B is the compiled server (npm run build:gateway), on the same database as A.
freshnessSuite('written through process A, read through process B', async () => {
  const storage = await createStorage();
  const a = await startGateway({}, storage);
  const b = spawnGateway({
    DATA_DIR: storage.dataDir,
    ...(storage.databaseUrl ? { DATABASE_URL: storage.databaseUrl } : {}),
    GATEWAY_PORT: String(await freePort()),
  });
  await b.ready();
  return {
    writer: a.api,
    reader: new Api(b.url),
    stop: async () => {
      await b.stop();
      await a.stop();
    },
  };
});

describe('room details never leave through a cache', () => {
  let gw: TestGateway;
  let admin: string;
  beforeAll(async () => {
    gw = await startGateway();
    admin = await adminToken(gw.api);
  });
  afterAll(() => gw.stop());

  it('after admins and registered teams read everything, strangers and anonymous callers still get no room ID or password', async () => {
    const [member, stranger] = [await createUser(gw.api), await createUser(gw.api)];
    const { tid, teams } = await createTournamentWithTeams(gw.api, admin, [member], [`Room ${unique()}`], { entryFee: '0' });
    const roomId = `R${unique()}`;
    const password = `pw${unique()}`;
    expect((await gw.api.post('/matches', matchFields(tid, { matchId: roomId, password }), admin)).status).toBe(201);
    expect(
      (
        await gw.api.post(
          `/tournaments/${tid}/points-table`,
          { day: 1, match: 1, teamId: teams[0]!.rid, position: 1, wins: 1, finishes: 0, teamName: '', totalPoints: 0 },
          admin,
        )
      ).status,
    ).toBe(200);

    const publicPaths = [
      '/tournaments',
      `/tournaments/${tid}`,
      `/tournaments/${tid}/points-table/overall`,
      `/tournaments/${tid}/points-table/day?day=1`,
    ];
    const everything = [...publicPaths, `/matches/tournament/${tid}`];
    // Privileged callers first, so whatever they were answered is in the caches.
    for (const token of [admin, member.token]) {
      for (const path of everything) await gw.api.get(path, token);
    }
    expect(JSON.stringify((await gw.api.get(`/matches/tournament/${tid}`, member.token)).body)).toContain(password);

    for (const token of [undefined, stranger.token]) {
      for (const path of everything) {
        const res = await gw.api.get(path, token);
        const text = JSON.stringify(res.body);
        expect(text, path).not.toContain(password);
        expect(text, path).not.toContain(roomId);
      }
    }
    const strangerView = (await gw.api.get(`/matches/tournament/${tid}`, stranger.token)).body;
    expect(strangerView).toEqual([expect.objectContaining({ matchId: null, password: null })]);
    expect((await gw.api.get(`/matches/tournament/${tid}`)).status).toBe(401);
    // Admins and anonymous callers are given the same public bytes: nothing in them depends on the caller.
    for (const path of publicPaths) {
      const [anonymous, asAdmin] = [await gw.api.get(path), await gw.api.get(path, admin)];
      expect(asAdmin.headers.get('etag')).toBe(anonymous.headers.get('etag'));
    }
  });

  it('answers 304 to a matching If-None-Match, and the full answer once it changed', async () => {
    const t = await createTournament(gw.api, admin);
    const first = await gw.api.get(`/tournaments/${t.id}`);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await gw.api.request('GET', `/tournaments/${t.id}`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect((await gw.api.post(`/registrations/${t.id}`, teamFields(), (await createUser(gw.api)).token)).status).toBe(201);
    const changed = await gw.api.request('GET', `/tournaments/${t.id}`, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.body.registeredTeams).toBe(1);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('a repeated URL is answered before validation only after it once passed it: bad and unknown ones keep their 400 and 404', async () => {
    const t = await createTournament(gw.api, admin);
    const good = `/tournaments/${t.id}/points-table/day?day=1`;
    const first = await gw.api.get(good);
    expect(first.status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const again = await gw.api.get(good);
      expect(again.status).toBe(200);
      expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(again.headers.get('x-request-id')).toBeTruthy();
    }
    for (const [path, status] of [
      [`/tournaments/${t.id}/points-table/day?day=abc`, 400],
      [`/tournaments/${t.id}/points-table/day?day=1&day=2`, 400],
      ['/tournaments/999999999', 404],
      [`/tournaments/${t.id}x`, 400],
    ] as const) {
      for (let i = 0; i < 3; i++) expect((await gw.api.get(path)).status, path).toBe(status);
    }
    // The tournament deleted: its repeated URL goes back to the route, which says it is gone.
    expect((await gw.api.get(`/tournaments/${t.id}`)).status).toBe(200);
    expect((await gw.api.get(`/tournaments/${t.id}`)).status).toBe(200);
    expect((await gw.api.delete(`/tournaments/admin/delete${t.id}`, admin)).status).toBe(200);
    expect((await gw.api.get(`/tournaments/${t.id}`)).status).toBe(404);
    expect((await gw.api.get(`/tournaments/${t.id}`)).status).toBe(404);
  });
});
