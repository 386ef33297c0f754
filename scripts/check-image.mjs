#!/usr/bin/env node
// `npm run check:image`: does the Dockerfile's runtime stage get every file it needs? No container engine
// runs here, so this replays the Dockerfile on the host (decision 027):
//   1. parses the Dockerfile: its stages, COPY, RUN, ENV, WORKDIR, USER, HEALTHCHECK and CMD (nothing listed here);
//   2. the build stage from the working tree in a temp dir: COPY as .dockerignore allows, then its RUN lines,
//      except that `npm install` is replaced by a copy of the local node_modules (no download; they were built
//      for this machine's Node, the image builds its own) and `apt-get` (the toolchain) is skipped;
//   3. the runtime stage in an EMPTY directory: exactly its `COPY --from=build` lines, its `mkdir`/`chown` RUN lines;
//   4. each "container" (role both; then gateway and web apart, as docker-compose.yml runs them) started with the
//      Dockerfile's CMD, WORKDIR and ENV (absolute paths such as DATA_DIR=/data mapped into the temp dir, ports
//      moved to 5500-5599 as `docker run -p` would, no host environment) as `nobody` (playing the image's USER)
//      with this machine's Node; the HEALTHCHECK command is run until healthy; then a smoke test over HTTP.
// Exits 1 if any step fails; removes everything it made (unless --keep). --json FILE writes the counts;
// --dockerfile FILE checks another Dockerfile (e.g. one with a COPY dropped, to see this check fail).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  copyContext,
  duration,
  flags,
  ignoreRules,
  ignored,
  parseDockerfile,
  parseEnv,
  Unsupported,
  words,
} from './lib/docker-context.mjs';
import { freePort } from './lib/ports.mjs';
import { onCleanup, stopAllOnExit, trackGroup } from './lib/processes.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name) => (args.includes(name) ? (args[args.indexOf(name) + 1] ?? '') : undefined);
const DOCKERFILE = path.resolve(flag('--dockerfile') ?? path.join(ROOT, 'Dockerfile'));
const KEEP = args.includes('--keep');
const JSON_OUT = flag('--json');
// As root, `nobody` plays the image's USER: it can write only where the Dockerfile chowns to that USER.
// Otherwise the check runs as the caller, who owns every copy (so those write limits go unchecked).
const IS_ROOT = process.getuid?.() === 0;
const PLAYER = IS_ROOT ? { uid: 65534, gid: 65534 } : { uid: process.getuid(), gid: process.getgid() };
const started = Date.now();
const counts = { passed: 0, failed: 0, skipped: 0 };
const processes = [];
let tmp;

const log = (msg) => console.log(`check-image: ${msg}`);
function check(name, ok, detail = '') {
  counts[ok ? 'passed' : 'failed'] += 1;
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${name}${!ok && detail ? `: ${detail}` : ''}`);
  return ok;
}
function run(cmd, argv, options = {}) {
  const r = spawnSync(cmd, argv, { encoding: 'utf8', ...options });
  if (r.status !== 0)
    throw new Error(`${cmd} ${argv.join(' ')} failed (${r.status ?? r.signal}): ${(r.stderr || r.stdout || '').trim().slice(-2000)}`);
  return r.stdout;
}

// ---------- filesystem emulation ----------

/** An image's or container's root directory: absolute image paths live under it. */
const inRoot = (root, p) => path.join(root, path.posix.resolve('/', p));
const target = (root, workdir, dest) => inRoot(root, path.posix.resolve(workdir, dest));

/** Docker COPY: a directory's contents into dest; a file to dest, or into it when dest ends with / or is a dir. */
function dockerCopy(srcs, dest, destPath, link) {
  if (srcs.length > 1 && !dest.endsWith('/')) throw new Unsupported(`COPY of several sources needs a destination ending in /: ${dest}`);
  for (const src of srcs) {
    if (/[*?[]/.test(src)) throw new Unsupported(`wildcards in COPY are not replayed: ${src}`);
    if (!fs.existsSync(src)) throw new Error(`COPY source does not exist: ${src}`);
    if (fs.statSync(src).isDirectory()) {
      fs.mkdirSync(destPath, { recursive: true });
      run('cp', [link ? '-al' : '-a', `${src}/.`, `${destPath}/`]);
    } else {
      const file =
        dest.endsWith('/') || (fs.existsSync(destPath) && fs.statSync(destPath).isDirectory())
          ? path.join(destPath, path.basename(src))
          : destPath;
      fs.mkdirSync(path.dirname(file), { recursive: true });
      run('cp', [link ? '-al' : '-a', src, file]);
    }
  }
}

function chownPlayer(spec, file, user) {
  const [u, g = u] = spec.split(':');
  if (u !== user || g !== user) throw new Unsupported(`chown to ${spec}: only to the image's USER (${user}) is replayed`);
  if (IS_ROOT) run('chown', ['-R', `${PLAYER.uid}:${PLAYER.gid}`, file]);
}

// ---------- 3. stages ----------

function replayBuild(stage, root) {
  let workdir = '/';
  let env = {};
  const rules = ignoreRules();
  for (const { op, rest } of stage.steps) {
    if (op === 'WORKDIR') {
      workdir = path.posix.resolve(workdir, rest);
      fs.mkdirSync(inRoot(root, workdir), { recursive: true });
    } else if (op === 'ENV') env = { ...env, ...parseEnv(rest) };
    else if (op === 'COPY') {
      const { options, rest: spec } = flags(rest);
      if (options.from) throw new Unsupported('COPY --from in the build stage');
      const parts = words(spec);
      const dest = parts.pop();
      for (const src of parts) {
        const rel = path.posix.normalize(src);
        const destPath = target(root, workdir, dest);
        if (rel === '.') copyContext(rules, '.', destPath);
        else if (ignored(rules, rel)) throw new Error(`COPY ${src}: excluded by .dockerignore`);
        else copyContext(rules, rel, parts.length > 1 || dest.endsWith('/') ? path.join(destPath, path.basename(rel)) : destPath);
      }
    } else if (op === 'RUN') {
      const cmd = rest.startsWith('[') ? JSON.parse(rest).join(' ') : rest;
      if (/^apt-get\b/.test(cmd)) log(`build: skipped (the host has the toolchain): RUN ${cmd.slice(0, 60)}…`);
      else if (/^npm (install|ci)\b[^&|;]*$/.test(cmd)) {
        log('build: RUN npm install → a copy of the local node_modules (no download)');
        if (!fs.existsSync(path.join(ROOT, 'node_modules'))) throw new Error('no local node_modules: run `npm install` first');
        run('cp', ['-a', path.join(ROOT, 'node_modules'), inRoot(root, path.posix.join(workdir, 'node_modules'))]);
      } else {
        log(`build: RUN ${cmd}`);
        const r = spawnSync('sh', ['-c', cmd], { cwd: inRoot(root, workdir), env: { ...process.env, ...env }, encoding: 'utf8' });
        if (r.status !== 0) throw new Error(`build stage: RUN ${cmd} failed:\n${(r.stdout + r.stderr).slice(-3000)}`);
      }
    } else if (!['ARG', 'LABEL'].includes(op)) throw new Unsupported(`build stage: ${op} is not replayed`);
  }
  return { workdir };
}

function readRuntime(stage, stagesByName) {
  const image = { workdir: '/', env: {}, user: 'root', copies: [], runs: [], healthcheck: null, cmd: null };
  for (const { op, rest } of stage.steps) {
    if (op === 'WORKDIR') image.workdir = path.posix.resolve(image.workdir, rest);
    else if (op === 'ENV') image.env = { ...image.env, ...parseEnv(rest) };
    else if (op === 'USER') image.user = rest;
    else if (op === 'COPY') {
      const { options, rest: spec } = flags(rest);
      if (!options.from || !stagesByName.has(options.from)) throw new Unsupported(`runtime COPY not from a build stage: ${rest}`);
      if (options.chmod) throw new Unsupported('COPY --chmod');
      const parts = words(spec);
      image.copies.push({ from: options.from, srcs: parts.slice(0, -1), dest: parts.at(-1), chown: options.chown, workdir: image.workdir });
    } else if (op === 'RUN') image.runs.push({ cmd: rest, workdir: image.workdir });
    else if (op === 'HEALTHCHECK') {
      const { options, rest: spec } = flags(rest);
      const m = /^CMD\s+(\[[\s\S]*\])$/.exec(spec);
      if (!m) throw new Unsupported(`HEALTHCHECK must be CMD ["exec", "form"]: ${rest}`);
      image.healthcheck = {
        argv: JSON.parse(m[1]),
        timeout: duration(options.timeout) ?? 30_000,
        startPeriod: duration(options['start-period']) ?? 0,
      };
    } else if (op === 'CMD') {
      if (!rest.startsWith('[')) throw new Unsupported('CMD must be in exec form (JSON): the container must run node as PID 1 for SIGTERM');
      image.cmd = JSON.parse(rest);
    } else if (op === 'ENTRYPOINT' || op === 'ADD' || op === 'SHELL') throw new Unsupported(`runtime ${op} is not replayed`);
    // EXPOSE, VOLUME, LABEL, STOPSIGNAL, ARG: nothing to replay on the files.
  }
  return image;
}

/** The runtime stage's own RUN lines: only `mkdir -p` and `chown USER:USER` joined by &&. */
function replayRuntimeRun({ cmd }, root, user) {
  for (const part of cmd.split('&&').map((s) => s.trim())) {
    const [bin, ...rest] = part.split(/\s+/);
    if (bin === 'mkdir')
      for (const p of rest.filter((a) => !a.startsWith('-'))) fs.mkdirSync(inRoot(root, p), { recursive: true, mode: 0o755 });
    else if (bin === 'chown') {
      const [spec, ...paths] = rest.filter((a) => a !== '-R');
      for (const p of paths) chownPlayer(spec, inRoot(root, p), user);
    } else throw new Unsupported(`runtime RUN: only mkdir and chown are replayed, not: ${part}`);
  }
}

// ---------- 4. containers ----------

/** Like `docker run`: the image's ENV (absolute paths mapped into this container's root), then -e overrides. */
function containerEnv(image, root, overrides) {
  const env = { PATH: process.env.PATH, HOME: inRoot(root, '/home/node') };
  for (const [k, v] of Object.entries(image.env)) env[k] = v.startsWith('/') && !v.includes(':') ? inRoot(root, v) : v;
  return { ...env, ...overrides };
}
const asPlayer = (argv) =>
  IS_ROOT ? ['setpriv', `--reuid=${PLAYER.uid}`, `--regid=${PLAYER.gid}`, '--clear-groups', '--', ...argv] : argv;

function startContainer(name, image, imageRoot, env) {
  const out = path.join(tmp, `${name}.log`);
  const fd = fs.openSync(out, 'w');
  const [cmd, ...argv] = asPlayer(image.cmd);
  const child = spawn(cmd, argv, { cwd: inRoot(imageRoot, image.workdir), env, stdio: ['ignore', fd, fd], detached: true });
  fs.closeSync(fd);
  processes.push(child);
  if (child.pid) trackGroup(child.pid, child);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  return { name, child, env, exited, output: () => fs.readFileSync(out, 'utf8') };
}

async function healthy(container, image, imageRoot) {
  const { argv, timeout, startPeriod } = image.healthcheck;
  const deadline = Date.now() + Math.max(startPeriod, 30_000);
  let last = '';
  while (Date.now() < deadline && container.child.exitCode === null) {
    const [cmd, ...rest] = asPlayer(argv);
    const r = spawnSync(cmd, rest, { cwd: inRoot(imageRoot, image.workdir), env: container.env, encoding: 'utf8', timeout });
    if (r.status === 0) return { ok: true };
    last = (r.stdout + r.stderr).trim();
    await new Promise((res) => setTimeout(res, 1000));
  }
  return { ok: false, detail: `${last}\n--- ${container.name} output ---\n${container.output().slice(-3000)}` };
}

async function stopContainer(container) {
  container.child.kill('SIGTERM');
  const code = await Promise.race([container.exited, new Promise((r) => setTimeout(() => r('timeout'), 15_000))]);
  return check(`${container.name}: SIGTERM stops it cleanly (exit 0)`, code === 0, `exit ${code}`);
}

async function get(url, options = {}) {
  try {
    const res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(15_000), ...options });
    return { status: res.status, headers: res.headers, body: await res.text() };
  } catch (err) {
    return { status: 0, headers: new Headers(), body: String(err.cause?.code ?? err.message) };
  }
}
const outsideAddress = () =>
  Object.values(os.networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

async function smokeWeb(label, web) {
  const home = await get(`${web}/`);
  check(`${label}: GET / is 200 with the site name`, home.status === 200 && home.body.includes('Custom Room'), `${home.status}`);
  const list = await get(`${web}/tournaments`);
  check(`${label}: GET /tournaments is 200`, list.status === 200, `${list.status}`);
  const asset = /["'](\/build\/[^"']+\.js)["']/.exec(home.body)?.[1];
  const js = asset ? await get(web + asset) : { status: 0, headers: new Headers() };
  check(
    `${label}: a static asset from /build is served, immutable`,
    js.status === 200 && /immutable/.test(js.headers.get('cache-control') ?? ''),
    `${asset} → ${js.status}`,
  );
  const cover = /(\/images\/[0-9a-f]+(?:-\d+)?\.webp)/.exec(list.body)?.[1];
  const image = cover ? await get(web + cover) : { status: 0, headers: new Headers() };
  check(
    `${label}: a demo cover (made with sharp) comes through the web app`,
    image.status === 200 && image.headers.get('content-type') === 'image/webp',
    `${cover} → ${image.status}`,
  );

  const n = Date.now().toString().slice(-8);
  const account = { email: `image-check-${n}@example.com`, phone: `98${n}`, username: `imgchk${n}`, password: 'image-check-password' };
  const form = (fields) => ({
    method: 'POST',
    headers: { origin: web, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  const signUp = await get(`${web}/register`, form({ ...account, redirectTo: '' }));
  // Sign-up logs the player in and goes home (decision 045); '/login' when only that automatic login failed.
  check(
    `${label}: sign-up through the web form`,
    signUp.status === 302 &&
      (signUp.headers.get('location') === '/'
        ? (signUp.headers.get('set-cookie') ?? '').includes('__session=')
        : (signUp.headers.get('location') ?? '').startsWith('/login')),
    `${signUp.status} ${signUp.headers.get('location')} ${signUp.body.slice(0, 200)}`,
  );
  const login = await get(`${web}/login`, form({ emailOrPhone: account.email, password: account.password, redirectTo: '/my-tournaments' }));
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  check(
    `${label}: login through the web form sets the session`,
    login.status === 302 && cookie.startsWith('__session='),
    `${login.status} ${login.body.slice(0, 200)}`,
  );
  const mine = await get(`${web}/my-tournaments`, { headers: { cookie } });
  check(`${label}: a signed-in page answers 200`, mine.status === 200, `${mine.status} ${mine.headers.get('location')}`);
}

async function smokeGateway(label, gatewayUrl, shouldBeOutside) {
  const health = await get(`${gatewayUrl}/healthz`);
  check(`${label}: gateway /healthz is 200 ok`, health.status === 200 && health.body.includes('"ok"'), `${health.status} ${health.body}`);
  const address = outsideAddress();
  if (!address) {
    counts.skipped += 1;
    return console.log(`  skip ${label}: no non-loopback address to test where the gateway listens`);
  }
  const outside = await get(`http://${address}:${new URL(gatewayUrl).port}/healthz`);
  check(
    `${label}: the gateway ${shouldBeOutside ? 'listens beyond loopback (GATEWAY_HOST)' : 'is not reachable beyond loopback'}`,
    shouldBeOutside ? outside.status === 200 : outside.status === 0,
    `${address}: ${outside.status}`,
  );
}

function dataWritten(label, dataDir, files) {
  const have = fs.existsSync(dataDir) ? fs.readdirSync(dataDir) : [];
  check(
    `${label}: state written to DATA_DIR (${files.join(', ')})`,
    files.every((f) => have.includes(f)),
    `has ${have.join(', ')}`,
  );
}

// ---------- main ----------

async function main() {
  const stages = parseDockerfile(fs.readFileSync(DOCKERFILE, 'utf8'));
  const stagesByName = new Map(stages.map((s) => [s.name, s]));
  const runtimeStage = stages.at(-1);
  const image = readRuntime(runtimeStage, stagesByName);
  log(
    `${path.relative(ROOT, DOCKERFILE)}: ${stages.length} stages; runtime ${runtimeStage.image}, USER ${image.user}, WORKDIR ${image.workdir}, ${image.copies.length} COPY --from, CMD ${JSON.stringify(image.cmd)}`,
  );
  check('the runtime stage runs as a non-root USER', !['root', '0', ''].includes(image.user.split(':')[0]), image.user);
  check('the runtime stage has an exec-form CMD and HEALTHCHECK', Boolean(image.cmd && image.healthcheck));
  if (!image.cmd || !image.healthcheck) return;

  if (!IS_ROOT) {
    counts.skipped += 1;
    console.log(`  skip not root: runs as uid ${PLAYER.uid}, so the USER's write limits (only chowned dirs) are not checked`);
  }
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'h-docker-check-image-'));
  fs.chmodSync(tmp, 0o755);
  const buildRoots = new Map();
  for (const from of new Set(image.copies.map((c) => c.from))) {
    const root = path.join(tmp, `stage-${from}`);
    const t = Date.now();
    const { workdir } = replayBuild(stagesByName.get(from), root);
    log(`build stage "${from}" replayed in ${((Date.now() - t) / 1000).toFixed(0)} s (WORKDIR ${workdir})`);
    buildRoots.set(from, root);
  }

  const imageRoot = path.join(tmp, 'image');
  fs.mkdirSync(imageRoot, { mode: 0o755 });
  for (const c of image.copies) {
    const destPath = target(imageRoot, c.workdir, c.dest);
    dockerCopy(
      c.srcs.map((s) => inRoot(buildRoots.get(c.from), s)),
      c.dest,
      destPath,
      true,
    );
    if (c.chown) chownPlayer(c.chown, destPath, image.user);
  }
  check(`the runtime stage's ${image.copies.length} COPY --from lines copied into an empty root`, true);

  // Each container gets the image (read-only to the USER: root-owned files) and its own writable dirs from RUN.
  const container = (name) => {
    const root = path.join(tmp, `container-${name}`);
    fs.mkdirSync(root, { mode: 0o755 });
    for (const r of image.runs) replayRuntimeRun(r, root, image.user);
    // The image's own files come from the image root; only what RUN made lives in the container root.
    return root;
  };
  const imagePaths = (root, env) => {
    // Absolute ENV paths under a RUN-made directory stay in the container root; others point into the image.
    for (const [k, v] of Object.entries(image.env))
      if (v.startsWith('/') && !v.includes(':') && !fs.existsSync(inRoot(root, v))) env[k] = inRoot(imageRoot, v);
    return env;
  };

  const ports = new Set();
  const dataFiles = (role) =>
    role === 'web'
      ? ['session-secret']
      : role === 'gateway'
        ? ['custom-room.sqlite', 'jwt-private.pem', 'admin-password.txt']
        : ['custom-room.sqlite', 'jwt-private.pem', 'admin-password.txt', 'session-secret'];

  // Role both (the image's default).
  {
    const root = container('both');
    const web = await freePort(ports, '0.0.0.0');
    const gw = await freePort(ports, '0.0.0.0');
    const env = imagePaths(root, containerEnv(image, root, { PORT: String(web), GATEWAY_PORT: String(gw) }));
    const c = startContainer(`role ${env.ROLE ?? '(unset)'}`, image, imageRoot, env);
    const h = await healthy(c, image, imageRoot);
    if (check(`${c.name}: HEALTHCHECK reports healthy`, h.ok, h.detail)) {
      await smokeWeb(c.name, `http://127.0.0.1:${web}`);
      await smokeGateway(c.name, `http://127.0.0.1:${gw}`, false);
      dataWritten(c.name, env.DATA_DIR, dataFiles('both'));
      const [cmd, ...rest] = asPlayer(['node', 'scripts/backup-sqlite.mjs']);
      const b = spawnSync(cmd, rest, { cwd: inRoot(imageRoot, image.workdir), env, encoding: 'utf8' });
      check(
        `${c.name}: an online SQLite backup as the USER (docker exec … node scripts/backup-sqlite.mjs)`,
        b.status === 0,
        (b.stdout + b.stderr).trim(),
      );
    }
    await stopContainer(c);
  }

  // Gateway, notification worker and web apart, as docker-compose.yml runs them (the web with its own /data;
  // the worker on the gateway's, for the database file here and the VAPID keys it generated).
  {
    const gwPort = await freePort(ports, '0.0.0.0');
    const webPort = await freePort(ports, '0.0.0.0');
    const gwRoot = container('gateway');
    const gwEnv = imagePaths(gwRoot, containerEnv(image, gwRoot, { ROLE: 'gateway', GATEWAY_PORT: String(gwPort), NOTIFY_WORKER: 'off' }));
    const g = startContainer('role gateway', image, imageRoot, gwEnv);
    const webRoot = container('web');
    const webEnv = imagePaths(
      webRoot,
      containerEnv(image, webRoot, { ROLE: 'web', PORT: String(webPort), GATEWAY_URL: `http://127.0.0.1:${gwPort}` }),
    );
    const gh = await healthy(g, image, imageRoot);
    if (check(`${g.name}: HEALTHCHECK reports healthy`, gh.ok, gh.detail)) {
      await smokeGateway(g.name, `http://127.0.0.1:${gwPort}`, true);
      const workerPort = await freePort(ports, '0.0.0.0');
      const workerRoot = container('worker');
      const workerEnv = imagePaths(
        workerRoot,
        containerEnv(image, workerRoot, { ROLE: 'worker', GATEWAY_PORT: String(workerPort), DATA_DIR: gwEnv.DATA_DIR }),
      );
      const k = startContainer('role worker', image, imageRoot, workerEnv);
      const kh = await healthy(k, image, imageRoot);
      check(`${k.name}: HEALTHCHECK reports healthy`, kh.ok, kh.detail);
      const outside = outsideAddress();
      if (outside) {
        const probe = await get(`http://${outside}:${workerPort}/healthz`);
        check(`${k.name}: its /healthz is on loopback only`, probe.status === 0, `${outside}: ${probe.status}`);
      }
      await stopContainer(k);
      const w = startContainer('role web', image, imageRoot, webEnv);
      const wh = await healthy(w, image, imageRoot);
      if (check(`${w.name}: HEALTHCHECK reports healthy`, wh.ok, wh.detail)) {
        await smokeWeb(w.name, `http://127.0.0.1:${webPort}`);
        dataWritten(w.name, webEnv.DATA_DIR, dataFiles('web'));
      }
      await stopContainer(w);
      dataWritten(g.name, gwEnv.DATA_DIR, dataFiles('gateway'));
    }
    await stopContainer(g);
  }
}

function cleanUp() {
  for (const child of processes) {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  if (tmp && !KEEP) fs.rmSync(tmp, { recursive: true, force: true });
  else if (tmp) log(`kept ${tmp}`);
}
stopAllOnExit(); // SIGINT, SIGTERM, a crash: containers and tmp go too
onCleanup(cleanUp);

try {
  await main();
} catch (err) {
  check(err instanceof Unsupported ? 'the Dockerfile uses only what this check replays' : 'the image replay', false, err.message);
} finally {
  cleanUp();
}
const seconds = Math.round((Date.now() - started) / 1000);
log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped in ${seconds} s`);
if (JSON_OUT) fs.writeFileSync(JSON_OUT, JSON.stringify({ ...counts, seconds }));
process.exitCode = counts.failed ? 1 : 0;
