import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { describe, expect, it } from 'vitest';

// The compiled server as operators run it (npm test builds before this suite runs).
const SERVER = path.resolve('gateway/dist/server.js');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function run(env: Record<string, string>) {
  const child = spawn(process.execPath, [SERVER], {
    env: { PATH: process.env.PATH, NODE_ENV: 'production', SEED_DEMO: '0', ADMIN_PASSWORD: 'admin-password-123', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, out: () => stdout, err: () => stderr };
}

async function waitUntilUp(url: string, exited: Promise<unknown>) {
  let done = false;
  void exited.then(() => (done = true));
  for (let i = 0; i < 150 && !done; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('gateway did not come up');
}

describe('the gateway process', () => {
  it('is built (npm run build:gateway) before this suite runs', () => {
    expect(fs.existsSync(SERVER)).toBe(true);
  });

  it('fails fast with one clear line naming a bad variable', async () => {
    const p = run({ GATEWAY_PORT: 'eighty', DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'gw-proc-')) });
    expect(await p.exited).toBe(1);
    const lines = p.err().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^gateway: bad configuration: GATEWAY_PORT: /);
  });

  it('announces RATE_LIMIT=off, writes JSON logs with the request id, and shuts down gracefully on SIGTERM', async () => {
    const port = await freePort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-proc-'));
    const p = run({ GATEWAY_PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'info', RATE_LIMIT: 'off' });
    const base = `http://127.0.0.1:${port}`;
    await waitUntilUp(`${base}/healthz`, p.exited);

    const res = await fetch(`${base}/tournaments`, { headers: { 'x-request-id': 'trace-me-42' } });
    expect(res.status).toBe(200);
    const lines = p
      .out()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.some((l) => l.reqId === 'trace-me-42')).toBe(true);
    expect(lines.some((l) => l.level === 40 && String(l.msg).includes('NOT rate-limited'))).toBe(true);

    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    expect(p.out()).toContain('shutting down');
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  });
});
