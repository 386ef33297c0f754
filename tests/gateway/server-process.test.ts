import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { COMPILED_SERVER, freePort, spawnGateway as spawn, type GatewayProcess } from './helpers.js';

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'gw-proc-'));

describe('the gateway process', () => {
  // Stopped even when an assertion fails, so no gateway outlives its test.
  const started: GatewayProcess[] = [];
  const spawnGateway = (...args: Parameters<typeof spawn>) => {
    const p = spawn(...args);
    started.push(p);
    return p;
  };
  afterEach(async () => {
    await Promise.all(started.splice(0).map((p) => p.stop()));
  });

  it('is built (npm run build:gateway) before this suite runs', () => {
    expect(fs.existsSync(COMPILED_SERVER)).toBe(true);
  });

  it('fails fast with one clear line naming a bad variable', async () => {
    const p = spawnGateway({ GATEWAY_PORT: 'eighty', DATA_DIR: tempDir() });
    expect(await p.exited).toBe(1);
    const lines = p.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^gateway: bad configuration: GATEWAY_PORT: /);
  });

  it('announces RATE_LIMIT=off, logs refused requests (not quick successes) as JSON with the request id, and shuts down gracefully on SIGTERM', async () => {
    const port = await freePort();
    const p = spawnGateway({ GATEWAY_PORT: String(port), DATA_DIR: tempDir(), LOG_LEVEL: 'info', RATE_LIMIT: 'off' });
    await p.ready();

    // Decision 023: a quick successful answer writes no line at info; a refusal (or error, or slow answer) does.
    const ok = await fetch(`${p.url}/tournaments`, { headers: { 'x-request-id': 'quiet-ok-41' } });
    expect(ok.status).toBe(200);
    const res = await fetch(`${p.url}/tournaments/999999`, { headers: { 'x-request-id': 'trace-me-42' } });
    expect(res.status).toBe(404);
    // The log line of a request is written as its response finishes: give the pipe a moment.
    const logLines = () =>
      p
        .stdout()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    await expect.poll(() => logLines().some((l) => l.reqId === 'trace-me-42'), { timeout: 3000 }).toBe(true);
    const lines = logLines();
    expect(lines.find((l) => l.reqId === 'trace-me-42')).toMatchObject({ level: 30, msg: 'request refused', res: { statusCode: 404 } });
    expect(lines.some((l) => l.reqId === 'quiet-ok-41')).toBe(false);
    expect(lines.some((l) => l.level === 40 && String(l.msg).includes('NOT rate-limited'))).toBe(true);

    expect(await p.stop()).toBe(0);
    expect(p.stdout()).toContain('shutting down');
    await expect(fetch(`${p.url}/healthz`)).rejects.toThrow();
  });
});
