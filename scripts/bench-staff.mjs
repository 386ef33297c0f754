#!/usr/bin/env node
// `npm run bench:staff [-- --json FILE]`: what the crew's access check (decision 065) adds to an organiser's
// write. The compiled gateway on a throw-away SQLite (or BENCH_DATABASE_URL) serves the same write, posting
// the room of a group match that does not change (a transaction, the tournament's lock, no event), to four
// callers in turn: a site admin (no standing query), the owner, a co-organiser (one standing query) and a
// lobby manager of the group (the standing, its scope and the group check). Sequential requests on one
// keep-alive connection, rounds interleaved, medians; target: each crew member's median at most 1 ms over
// the site admin's.
//
// Env: BENCH_REQUESTS (1000) per caller per round, BENCH_ROUNDS (3).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { call, gatewayEnv, startChild, stopChild, tournamentForm, waitForHealth } from './lib/bench-helpers.mjs';
import { freePort } from './lib/ports.mjs';
import { onCleanup, stopAllOnExit } from './lib/processes.mjs';

const TARGET_MS = 1;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const jsonIndex = process.argv.indexOf('--json');
const jsonFile = jsonIndex > 0 ? process.argv[jsonIndex + 1] : null;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function account(base, name) {
  const user = {
    email: `${name}@bench.example`,
    phone: `97${String(10_000_000 + Math.floor(Math.random() * 89_999_999))}`,
    username: name,
    password: 'bench-password-123',
  };
  await call(base, 'POST', '/api/auth/register', { json: user });
  const { token } = await call(base, 'POST', '/api/auth/login', { json: { emailOrPhone: user.email, password: user.password } });
  return { ...user, token };
}

async function seed(base, admin) {
  const { token: adminToken } = await call(base, 'POST', '/api/auth/login', {
    json: { emailOrPhone: admin.email, password: admin.password },
  });
  const [owner, co, lobby] = [await account(base, 'bench_owner'), await account(base, 'bench_co'), await account(base, 'bench_lobby')];
  const org = await call(base, 'POST', '/organisers', { token: owner.token, json: { name: 'Bench Esports', contact: owner.email } });
  await call(base, 'POST', `/organisers/${org.slug}/approve`, { token: adminToken, json: { decision: 'approve' } });
  const t = await call(base, 'POST', '/tournaments/add', {
    token: owner.token,
    form: tournamentForm(16, { name: 'Bench Cup', description: 'Bench', overview: 'Bench' }),
  });
  for (let i = 0; i < 8; i++) {
    const p = await account(base, `bench_p${i}`);
    await call(base, 'POST', `/registrations/${t.id}`, {
      token: p.token,
      json: {
        teamName: `Bench Squad ${i}`,
        player1Username: `p${i}_one`,
        player2Username: `p${i}_two`,
        player3Username: `p${i}_three`,
        player4Username: `p${i}_four`,
      },
    });
  }
  const stage = await call(base, 'POST', `/tournaments/${t.id}/stages`, { token: owner.token, json: { name: 'Qualifiers', lobbySize: 4 } });
  const drawn = await call(base, 'POST', `/tournaments/${t.id}/stages/${stage.id}/groups`, {
    token: owner.token,
    json: { method: 'registration' },
  });
  const groupA = drawn.groups.find((g) => g.name === 'A').id;
  const matches = await call(base, 'POST', `/tournaments/${t.id}/stages/${stage.id}/matches`, {
    token: owner.token,
    json: { matches: [{ day: 1, matchNo: 1, map: 'Erangel', time: '18:00' }] },
  });
  const matchA = matches.find((m) => m.groupId === groupA).id;
  for (const [who, role, scopes] of [
    [co, 'co-organiser', undefined],
    [lobby, 'lobby', [{ stageId: stage.id, groupId: groupA }]],
  ]) {
    const invited = await call(base, 'POST', `/tournaments/${t.id}/staff`, {
      token: owner.token,
      json: { who: who.username, role, scopes },
    });
    await call(base, 'POST', `/staff-invitations/${invited.token}/accept`, { token: who.token, json: {} });
  }
  const url = `/tournaments/${t.id}/stages/${stage.id}/rooms`;
  const body = JSON.stringify({ rooms: [{ id: matchA, matchId: '4455667', password: 'bench1' }] });
  return { url, body, callers: { 'site admin': adminToken, owner: owner.token, 'co-organiser': co.token, 'lobby manager': lobby.token } };
}

/** n sequential writes; the latency of each, ms. */
async function measure(base, url, body, token, n) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const res = await fetch(base + url, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    times.push(performance.now() - started);
  }
  return times;
}

async function main() {
  stopAllOnExit();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-staff-'));
  onCleanup(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const admin = { email: 'bench-admin@example.com', password: 'bench-admin-password-1' };
  const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
  const child = startChild('gateway', ['gateway/dist/server.js'], gatewayEnv({ port, dataDir, admin, databaseUrl }, { LOG_LEVEL: 'warn' }));
  onCleanup(() => stopChild(child));
  const base = `http://127.0.0.1:${port}`;
  await waitForHealth(base, child);
  const { url, body, callers } = await seed(base, admin);
  const names = Object.keys(callers);
  for (const name of names) await measure(base, url, body, callers[name], 100); // warm-up
  const perRound = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of names) perRound[name].push(median(await measure(base, url, body, callers[name], REQUESTS)));
    console.log(`round ${round + 1}/${ROUNDS}: ${names.map((n) => `${n} ${perRound[n][round].toFixed(2)} ms`).join(', ')}`);
  }
  const admin50 = median(perRound['site admin']);
  const rows = names
    .filter((n) => n !== 'site admin')
    .map((n) => {
      const value = median(perRound[n]);
      const added = value - admin50;
      return {
        name: `${n}: a room write, median (site admin ${admin50.toFixed(2)} ms)`,
        value: Number(added.toFixed(3)),
        unit: 'ms added',
        reference: 'site admin, same write',
        referenceValue: Number(admin50.toFixed(3)),
        ratio: null,
        target: `≤ ${TARGET_MS}`,
        pass: added <= TARGET_MS,
      };
    });
  console.log(`\n${databaseUrl ? 'PostgreSQL' : 'SQLite'}, ${REQUESTS} sequential writes per caller x ${ROUNDS} rounds, medians:`);
  for (const r of rows)
    console.log(`  ${r.pass ? 'PASS' : 'FAIL'}  ${r.name}: ${r.value >= 0 ? '+' : ''}${r.value} ms (≤ ${TARGET_MS} ms)`);
  if (jsonFile)
    fs.writeFileSync(
      jsonFile,
      `${JSON.stringify({ suite: 'staff', rows, notes: [`${databaseUrl ? 'PostgreSQL' : 'SQLite'}; ${REQUESTS} sequential PUT …/rooms per caller per round, ${ROUNDS} rounds interleaved; the room does not change (no event).`] }, null, 2)}\n`,
    );
  process.exitCode = rows.every((r) => r.pass) ? 0 : 1;
  // The gateway is this script's child: stop it, or the script never ends (bench.mjs waits for it).
  await stopChild(child);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(`bench-staff: ${err.stack ?? err}`);
  process.exit(1);
});
