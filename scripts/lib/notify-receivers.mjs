// The receiving ends of the notification benchmarks (decision 044): a local SMTP server and a local web push
// service, in a child process of their own (they stand for other machines: their work must not take the
// measured processes' CPU from the script). Run as `node scripts/lib/notify-receivers.mjs` by startReceivers().
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';
import { killGroup, spawnTracked } from './processes.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Milliseconds since the epoch, to the microsecond, comparable across processes. */
export const nowMs = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * In the child: count what arrives and when the last one did; answer 'count' with { got }. At the lowest CPU
 * priority: they stand for other machines, and their parsing of 20,000 messages must not take the CPU of the
 * processes measured (the worker beside them runs at the lowest priority too).
 */
async function serveReceivers() {
  os.setPriority(0, 19);
  // Spawned in a session of its own (spawnTracked): Linux ranks its autogroup as an equal of the measured
  // processes' whatever its niceness, so the group is lowered too (decision 088).
  try {
    fs.writeFileSync('/proc/self/autogroup', '19');
  } catch {
    // no autogroups here: the niceness is enough
  }
  const got = { mails: 0, pushes: 0, last: 0 };
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        got.mails += 1;
        got.last = nowMs();
        callback();
      });
    },
  });
  await new Promise((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const push = http.createServer((req, res) => {
    req.on('data', () => {});
    req.on('end', () => {
      got.pushes += 1;
      got.last = nowMs();
      res.writeHead(201).end();
    });
  });
  await new Promise((resolve) => push.listen(0, '127.0.0.1', resolve));
  process.on('message', (msg) => {
    if (msg === 'count') process.send({ got });
  });
  process.on('disconnect', () => process.exit(0));
  process.send({ smtpUrl: `smtp://127.0.0.1:${smtp.server.address().port}`, pushUrl: `http://127.0.0.1:${push.address().port}` });
}

/** Starts the receivers' child process: { smtpUrl, pushUrl, count(), close() }; count() asks it what arrived. */
export async function startReceivers() {
  const child = spawnTracked(process.execPath, [fileURLToPath(import.meta.url)], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const urls = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', () => reject(new Error('the receivers did not start')));
  });
  const count = () =>
    new Promise((resolve) => {
      child.once('message', (msg) => resolve(msg.got));
      child.send('count');
    });
  return { ...urls, count, close: () => killGroup(child.pid, 5000) };
}

/** Waits (up to 120 s) until `messages` more have arrived than `base` counted, and a moment more. */
export async function receivedAtLeast(receivers, messages, base = { mails: 0, pushes: 0 }) {
  const deadline = Date.now() + 120_000;
  const arrived = (got) => got.mails + got.pushes - base.mails - base.pushes;
  for (let got = await receivers.count(); arrived(got) < messages && Date.now() < deadline; got = await receivers.count()) await sleep(200);
  await sleep(1500);
}

/** One web push subscription a captain (one key pair for every bench phone: the push service here only counts). */
export function benchPushKeys() {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: () => crypto.randomBytes(16).toString('base64url') };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await serveReceivers();
