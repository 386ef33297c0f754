#!/usr/bin/env node
// `npm run cluster`: several instances on one PostgreSQL, without Docker (decision 026). Starts a
// throw-away PostgreSQL (or uses DATABASE_URL), two gateways, two web servers (build/server/main.js) and nginx
// (Debian's package, installed with apt when missing) as the load balancer on loopback:
//
//   browser ─▶ nginx :PORT ─▶ web 1 | web 2 ─▶ nginx :PORT+1 ─▶ gateway 1 | gateway 2 ─▶ PostgreSQL
//                                                       notification worker (gateway/dist/worker.js) ─┘
//
// The gateways answer requests only (NOTIFY_WORKER=off); the worker, at the lowest CPU priority, delivers
// notifications (decision 044), its /healthz on loopback at PORT+6.
// Everything lives in one directory (--dir, default a new /tmp/custom-room-cluster-*): the JWT key,
// the session secret and the admin password generated once and given to every instance, each
// instance's DATA_DIR and log, nginx's config, pid, logs and temp files. Ctrl-C / SIGTERM stops
// everything it started. Runs the production build (`npm run build` first).
//
//   node scripts/cluster.mjs [--port 8080] [--dir DIR] [--seed-demo 0|1]
// Also imported by the cluster test (scripts/test-cluster.mjs): startCluster() returns a handle that
// can SIGKILL and restart single instances.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import webpush from 'web-push';
import { onCleanup, startCluster as startPgCluster, stopAllOnExit, stopCluster as stopPgCluster, trackGroup } from './lib/processes.mjs';
import { webServerArgs } from './lib/web-process.mjs';

export const ROOT = path.resolve(import.meta.dirname, '..');
const NGINX = '/usr/sbin/nginx';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Debian's nginx, installed when missing (as root), without the package starting a system nginx on :80. */
export function ensureNginx(log = console.log) {
  if (fs.existsSync(NGINX)) return;
  if (process.getuid?.() !== 0) throw new Error('cluster: nginx is missing; install it (apt-get install nginx) or run as root');
  const policy = '/usr/sbin/policy-rc.d';
  const ownPolicy = !fs.existsSync(policy);
  // invoke-rc.d asks policy-rc.d before starting a service; 101 = "not allowed".
  if (ownPolicy) fs.writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  try {
    log('cluster: installing nginx (apt-get)…');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    for (const args of [
      ['update', '-qq'],
      ['install', '-y', '-qq', 'nginx'],
    ]) {
      const r = spawnSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
      if (r.status !== 0) throw new Error(`cluster: apt-get ${args.join(' ')} failed`);
    }
  } finally {
    if (ownPolicy) fs.rmSync(policy, { force: true });
  }
}

function readOrCreate(file, make) {
  if (!fs.existsSync(file)) fs.writeFileSync(file, make(), { mode: 0o600 });
  return fs.readFileSync(file, 'utf8').trim();
}

/** The secrets every instance shares, generated once into the cluster directory. */
function sharedSecrets(dir) {
  const keyFile = path.join(dir, 'jwt-private.pem');
  readOrCreate(keyFile, () =>
    crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  );
  const vapid = JSON.parse(readOrCreate(path.join(dir, 'vapid.json'), () => JSON.stringify(webpush.generateVAPIDKeys())));
  return {
    keyFile,
    vapid,
    sessionSecret: readOrCreate(path.join(dir, 'session-secret'), () => crypto.randomBytes(32).toString('base64url')),
    adminPassword:
      process.env.ADMIN_PASSWORD || readOrCreate(path.join(dir, 'admin-password.txt'), () => crypto.randomBytes(12).toString('base64url')),
  };
}

/** nginx's whole configuration: one listener for the browsers (to the webs), one for the webs (to the gateways). */
export function nginxConfig({ dir, port, gatewayLbPort, webPorts, gatewayPorts }) {
  const upstream = (name, ports, keepalive, idleSeconds) =>
    [
      `  upstream ${name} {`,
      // A refused connection marks the instance down for 2 s; nginx then sends its requests to the other.
      ...ports.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`),
      `    keepalive ${keepalive};`,
      // Below the instance's own idle timeout (the web server: Node's 5 s; Fastify: 72 s), so nginx never
      // sends a request on a connection the instance is closing (a POST there would be a 502).
      `    keepalive_timeout ${idleSeconds}s;`,
      '  }',
    ].join('\n');
  const proxy = (upstreamName, log, readTimeout) =>
    [
      `    access_log ${path.join(dir, log)} upstream;`,
      '    client_max_body_size 21m;', // the web's admin tournament form takes 21 MB (decision 020)
      '    location / {',
      `      proxy_pass http://${upstreamName};`,
      '      proxy_http_version 1.1;',
      '      proxy_set_header Connection "";',
      '      proxy_set_header Host $http_host;',
      '      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
      '      proxy_set_header X-Forwarded-Proto $scheme;',
      // Retry on the other instance only when it is safe: nginx never passes a POST (or another
      // non-idempotent request) to the next server once it was sent to one (no "non_idempotent"
      // here), so a registration is never posted twice. GETs and HEADs are retried on a refused or
      // broken connection or a timeout.
      '      proxy_next_upstream error timeout;',
      '      proxy_next_upstream_tries 2;',
      '      proxy_connect_timeout 2s;',
      `      proxy_send_timeout ${readTimeout};`,
      `      proxy_read_timeout ${readTimeout};`,
      '    }',
    ].join('\n');
  const temp = (name) => path.join(dir, 'nginx-temp', name);
  return `# Generated by scripts/cluster.mjs; runs in the foreground as the cluster's child.
daemon off;
worker_processes 2;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'nginx-error.log')} warn;
events { worker_connections 4096; }
http {
  log_format upstream escape=json '{"time":$msec,"rt":$request_time,"method":"$request_method","uri":"$request_uri","status":$status,"upstream":"$upstream_addr","upstreamStatus":"$upstream_status","upstreamTime":"$upstream_response_time"}';
  access_log off;
  client_body_temp_path ${temp('body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
  keepalive_timeout 65s;
  client_body_timeout 30s;
  client_header_timeout 15s;
  send_timeout 30s;
  server_tokens off;
${upstream('web', webPorts, 32, 4)}
${upstream('gateway', gatewayPorts, 64, 60)}
  server {
    listen 127.0.0.1:${port} backlog=4096;
${proxy('web', 'web-access.log', '30s')}
  }
  server {
    listen 127.0.0.1:${gatewayLbPort} backlog=4096;
${proxy('gateway', 'gateway-access.log', '30s')}
  }
}
`;
}

async function waitHealthy(url, proc, logFile, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null || proc.signalCode !== null) break;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not yet
    }
    await sleep(150);
  }
  const tail = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n') : '';
  throw new Error(`cluster: ${url} did not become healthy (${proc.exitCode ?? proc.signalCode ?? 'timeout'}); log ${logFile}:\n${tail}`);
}

/** What each process of the cluster runs, with its environment and health URL, by name. */
function clusterSpecs({ dir, url, databaseUrl, secrets, admin, options, ports }) {
  const { gatewayLbPort, gatewayPorts, webPorts, workerHealthPort } = ports;
  const baseEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.homedir(), NODE_ENV: 'production' };
  const specs = {};
  gatewayPorts.forEach((p, i) => {
    specs[`gateway-${i + 1}`] = {
      args: ['gateway/dist/server.js'],
      health: `http://127.0.0.1:${p}/healthz`,
      env: {
        ...baseEnv,
        GATEWAY_PORT: String(p),
        GATEWAY_HOST: '127.0.0.1',
        DATA_DIR: path.join(dir, `gateway-${i + 1}`),
        DATABASE_URL: databaseUrl,
        JWT_PRIVATE_KEY_FILE: secrets.keyFile,
        ADMIN_EMAIL: admin.email,
        ADMIN_PASSWORD: admin.password,
        SEED_DEMO: options.seedDemo === false ? '0' : '1',
        // The webs reach the gateways through nginx on loopback: both hops are trusted, so the
        // address the web app worked out is the one the rate limits count.
        TRUST_PROXY: '127.0.0.1,::1',
        WEB_URL: url,
        LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
        // Every process signs pushes with one key pair: a phone subscribed through one gateway gets pushes from the worker.
        VAPID_PUBLIC_KEY: secrets.vapid.publicKey,
        VAPID_PRIVATE_KEY: secrets.vapid.privateKey,
        NOTIFY_WORKER: 'off',
        ...options.gatewayEnv,
      },
    };
  });
  specs['notify-worker'] = {
    args: ['gateway/dist/worker.js'],
    health: `http://127.0.0.1:${workerHealthPort}/healthz`,
    env: {
      ...baseEnv,
      DATA_DIR: path.join(dir, 'notify-worker'),
      DATABASE_URL: databaseUrl,
      ADMIN_EMAIL: admin.email,
      WEB_URL: url,
      LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
      VAPID_PUBLIC_KEY: secrets.vapid.publicKey,
      VAPID_PRIVATE_KEY: secrets.vapid.privateKey,
      NOTIFY_HEALTH_PORT: String(workerHealthPort),
      ...options.workerEnv,
    },
  };
  webPorts.forEach((p, i) => {
    specs[`web-${i + 1}`] = {
      args: webServerArgs(),
      health: `http://127.0.0.1:${p}/healthz`,
      env: {
        ...baseEnv,
        PORT: String(p),
        HOST: '127.0.0.1',
        GATEWAY_URL: `http://127.0.0.1:${gatewayLbPort}`,
        DATA_DIR: path.join(dir, `web-${i + 1}`),
        SESSION_SECRET: secrets.sessionSecret,
        TRUST_PROXY: 'loopback', // nginx
        WEB_CONCURRENCY: '1', // the cluster's web servers are one process each: nginx spreads the load (decision 086)
        ...options.webEnv,
      },
    };
  });
  return specs;
}

/** Writes the cluster's nginx.conf, checks it and starts nginx in front of the instances. */
function spawnNginx({ dir, port, gatewayLbPort, webPorts, gatewayPorts }, procs, log, isStopping) {
  fs.writeFileSync(path.join(dir, 'nginx.conf'), nginxConfig({ dir, port, gatewayLbPort, webPorts, gatewayPorts }));
  for (const t of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) fs.mkdirSync(path.join(dir, 'nginx-temp', t), { recursive: true });
  // nginx's workers run as nobody when the master is root: they write request bodies to the temp dirs.
  if (process.getuid?.() === 0) spawnSync('chown', ['-R', 'nobody', path.join(dir, 'nginx-temp')]);
  const check = spawnSync(NGINX, ['-t', '-q', '-c', path.join(dir, 'nginx.conf'), '-p', dir, '-e', path.join(dir, 'nginx-error.log')], {
    encoding: 'utf8',
  });
  if (check.status !== 0) throw new Error(`cluster: nginx -t failed: ${check.stderr}`);
  const nginxLog = path.join(dir, 'nginx.log');
  const fd = fs.openSync(nginxLog, 'a');
  const nginx = spawn(NGINX, ['-c', path.join(dir, 'nginx.conf'), '-p', dir, '-e', path.join(dir, 'nginx-error.log')], {
    stdio: ['ignore', fd, fd],
    detached: true,
  });
  fs.closeSync(fd);
  if (nginx.pid) trackGroup(nginx.pid, nginx);
  procs.set('nginx', nginx);
  nginx.on(
    'exit',
    (code, signal) => !isStopping() && log(`cluster: nginx exited (${signal ?? code}); see ${path.join(dir, 'nginx-error.log')}`),
  );
  return nginx;
}

/** Stops the webs, then the gateways and the worker, then nginx: each group with SIGTERM (nginx SIGQUIT), SIGKILL after 10 s. */
async function stopInOrder(procs, specs) {
  const order = [
    ...Object.keys(specs).filter((n) => n.startsWith('web')),
    ...Object.keys(specs).filter((n) => n.startsWith('gateway')),
    'notify-worker',
    'nginx',
  ];
  for (const group of [
    order.filter((n) => n.startsWith('web')),
    order.filter((n) => n.startsWith('gateway') || n === 'notify-worker'),
    ['nginx'],
  ]) {
    await Promise.all(
      group.map(async (name) => {
        const child = procs.get(name);
        if (!child || child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((r) => child.once('exit', r));
        child.kill(name === 'nginx' ? 'SIGQUIT' : 'SIGTERM');
        const late = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(late);
      }),
    );
  }
}

/**
 * Starts the whole cluster. Options: port (nginx for browsers; the gateway balancer is port+1, the
 * instances port+2…), dir, databaseUrl, seedDemo, log. Returns a handle; stop() ends what it started.
 */
export async function startCluster(options = {}) {
  const log = options.log ?? console.log;
  ensureNginx(log);
  for (const f of ['build/index.js', 'build/server/main.js', 'gateway/dist/server.js']) {
    if (!fs.existsSync(path.join(ROOT, f))) throw new Error(`cluster: ${f} is missing; run \`npm run build\` first`);
  }
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'custom-room-cluster-'));
  fs.mkdirSync(dir, { recursive: true });
  fs.chmodSync(dir, 0o755);
  const port = options.port ?? 8080;
  const gatewayLbPort = port + 1;
  const gatewayPorts = [port + 2, port + 3];
  const webPorts = [port + 4, port + 5];
  const workerHealthPort = port + 6;
  const url = `http://127.0.0.1:${port}`;
  const secrets = sharedSecrets(dir);
  const procs = new Map(); // name → child
  let pgDir;
  let stopping = false;

  let databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL;
  if (!databaseUrl) {
    pgDir = path.join(dir, 'postgres');
    databaseUrl = startPgCluster(pgDir);
  }

  const admin = { email: process.env.ADMIN_EMAIL || 'admin@example.com', password: secrets.adminPassword };
  const ports = { port, gatewayLbPort, gatewayPorts, webPorts, workerHealthPort };
  const specs = clusterSpecs({ dir, url, databaseUrl, secrets, admin, options, ports });

  function spawnInstance(name) {
    const spec = specs[name];
    const logFile = path.join(dir, `${name}.log`);
    const fd = fs.openSync(logFile, 'a');
    const child = spawn(process.execPath, spec.args, { cwd: ROOT, env: spec.env, stdio: ['ignore', fd, fd], detached: true });
    fs.closeSync(fd);
    if (child.pid) trackGroup(child.pid, child);
    procs.set(name, child);
    child.on('exit', (code, signal) => {
      if (!stopping && procs.get(name) === child && !child.expectedExit) log(`cluster: ${name} exited (${signal ?? code}); see ${logFile}`);
    });
    return { child, logFile };
  }

  async function startInstance(name) {
    const { child, logFile } = spawnInstance(name);
    await waitHealthy(specs[name].health, child, logFile);
    return child;
  }

  const handle = {
    url,
    gatewayUrl: `http://127.0.0.1:${gatewayLbPort}`,
    dir,
    databaseUrl,
    admin,
    ports: { port, gatewayLbPort, gatewayPorts, webPorts, workerHealthPort },
    procs,
    /** SIGKILL one instance (e.g. 'gateway-1', 'web-2'): no goodbye, as a crash or an OOM kill. */
    kill(name) {
      const child = procs.get(name);
      child.expectedExit = true;
      child.kill('SIGKILL');
      return new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', r)));
    },
    /** Starts an instance again on its port and waits for its health. */
    restart: (name) => startInstance(name),
    async stop() {
      stopping = true;
      await stopInOrder(procs, specs);
      if (pgDir) stopPgCluster(pgDir);
    },
  };

  try {
    // One after the other: the first gateway migrates the database (and seeds it), the second finds it done.
    for (const name of Object.keys(specs).filter((n) => n.startsWith('gateway'))) await startInstance(name);
    await startInstance('notify-worker');
    await Promise.all(
      Object.keys(specs)
        .filter((n) => n.startsWith('web'))
        .map(startInstance),
    );

    const nginx = spawnNginx({ dir, port, gatewayLbPort, webPorts, gatewayPorts }, procs, log, () => stopping);
    await waitHealthy(`${url}/healthz`, nginx, path.join(dir, 'nginx-error.log'));
    await waitHealthy(`${handle.gatewayUrl}/healthz`, nginx, path.join(dir, 'nginx-error.log'));
  } catch (err) {
    await handle.stop();
    throw err;
  }
  return handle;
}

// --- `npm run cluster` ---
if (process.argv[1] && import.meta.url === pathToFileURL(fs.realpathSync(process.argv[1])).href) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: process.env.PORT || '8080' },
      dir: { type: 'string' },
      'seed-demo': { type: 'string', default: '1' },
    },
  });
  let cluster;
  // Ctrl-C is how it is meant to end: exit 0 once everything is stopped (webs, gateways, nginx, PostgreSQL).
  stopAllOnExit({ signalExitCode: 0 });
  onCleanup(() => cluster?.stop());
  try {
    cluster = await startCluster({ port: Number(values.port), dir: values.dir, seedDemo: values['seed-demo'] !== '0' });
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
  const p = cluster.ports;
  console.log(
    [
      '',
      `  Custom Room, many instances: ${cluster.url}`,
      `  Admin login: ${cluster.admin.email} / ${cluster.admin.password}`,
      `  nginx ${p.port} → web ${p.webPorts.join(', ')} → nginx ${p.gatewayLbPort} → gateway ${p.gatewayPorts.join(', ')} → ${cluster.databaseUrl}`,
      `  Notification worker: health http://127.0.0.1:${p.workerHealthPort}/healthz`,
      `  Logs, config and secrets: ${cluster.dir}`,
      '  Stop with Ctrl+C.',
      '',
    ].join('\n'),
  );
}
