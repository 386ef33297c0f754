// What the gateway benchmarks share (scripts/bench-gateway.mjs): a child process with its output
// forwarded and kept, waiting for its /healthz, a JSON call to the API, one PostgreSQL statement.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { killGroup, spawnTracked } from './processes.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export async function pgQuery(databaseUrl, text) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export function startChild(name, args, env) {
  const child = spawnTracked(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.output = '';
  const forward = (chunk) => {
    child.output += chunk;
    for (const l of String(chunk).split('\n')) if (l.trim()) process.stderr.write(`[${name}] ${l}\n`);
  };
  child.stdout.on('data', forward);
  child.stderr.on('data', forward);
  return child;
}

export async function stopChild(child) {
  await killGroup(child.pid, 10_000);
}

export async function waitForHealth(baseUrl, child) {
  const deadline = Date.now() + 60_000;
  let exited = null;
  child.exited.then((e) => (exited = e));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${baseUrl} exited before it was ready (code ${exited.code}, signal ${exited.signal})`);
    try {
      const res = await fetch(`${baseUrl}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${baseUrl} did not become healthy within 60 s`);
}

export async function call(baseUrl, method, urlPath, { token, json, form } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  let body;
  if (json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(json);
  } else if (form) {
    body = form;
  }
  const res = await fetch(baseUrl + urlPath, { method, headers, body });
  const text = await res.text();
  const data = text ? JSON.parse(text) : null;
  if (!res.ok) throw new Error(`${method} ${urlPath} answered ${res.status}: ${text.slice(0, 300)}`);
  return data;
}
