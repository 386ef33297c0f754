import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it, vi } from 'vitest';
import { createRequestTurns } from '~/utils/request-turns.server';
import { requestSlots, slotClient } from '../../server/request-limits';
import { shutdown } from '../../server/shutdown';

describe('request slots (server/request-limits.ts)', () => {
  it('runs at most maxActive at once and gives the slot back however the request ends', async () => {
    const turns = createRequestTurns(1, 1);
    const slots = requestSlots(turns);
    let release!: () => void;
    const first = slots.run('a', new AbortController().signal, () => new Promise<string>((resolve) => (release = () => resolve('first'))));
    const second = slots.run('b', new AbortController().signal, async () => 'second');
    await Promise.resolve();
    expect(turns.stats()).toMatchObject({ active: 1, waiting: 1 });
    release();
    expect(await first).toBe('first');
    expect(await second).toBe('second');
    await expect(slots.run('c', new AbortController().signal, async () => Promise.reject(new Error('broke')))).rejects.toThrow('broke');
    expect(turns.stats()).toMatchObject({ active: 0, waiting: 0 });
  });

  it('gives up the wait of a client that went away, without running it', async () => {
    const turns = createRequestTurns(1, 1);
    const slots = requestSlots(turns);
    let release!: () => void;
    const held = slots.run('a', new AbortController().signal, () => new Promise<void>((resolve) => (release = resolve)));
    const gone = new AbortController();
    const ran = vi.fn(async () => 'ran');
    const waiting = slots.run('b', gone.signal, ran);
    gone.abort();
    expect(await waiting).toBeUndefined();
    expect(ran).not.toHaveBeenCalled();
    release();
    await held;
    expect(turns.stats()).toMatchObject({ active: 0, waiting: 0 });
  });
});

describe('whose share a request takes (decision 086)', () => {
  /** n requests at once, each held until released; how many run at once and how many wait. */
  async function crowd(clients: string[]) {
    const turns = createRequestTurns(8, 2);
    const slots = requestSlots(turns);
    const releases: (() => void)[] = [];
    const runs = clients.map((c) =>
      slots.run(c, new AbortController().signal, () => new Promise<void>((resolve) => releases.push(resolve))),
    );
    await Promise.resolve();
    const stats = turns.stats();
    while (releases.length > 0 || turns.stats().active > 0) {
      releases.splice(0).forEach((release) => release());
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(runs);
    return stats;
  }
  const carrier = '100.64.0.1'; // one carrier-grade NAT address for everyone

  it('signed-in players behind one address are each a client of their own: none waits behind the others', async () => {
    const players = Array.from({ length: 8 }, (_, i) => slotClient({ anonymous: false, user: { id: 100 + i } }, carrier));
    expect(new Set(players).size).toBe(8);
    expect(await crowd(players)).toMatchObject({ active: 8, waiting: 0 });
  });

  it('an anonymous flood from one address, and one account flooding, are each held to one share', async () => {
    const anonymous = Array.from({ length: 8 }, () => slotClient({ anonymous: true }, carrier));
    expect(await crowd(anonymous)).toMatchObject({ active: 2, waiting: 6 });
    const oneAccount = Array.from({ length: 8 }, (_, i) => slotClient({ anonymous: false, user: { id: 7 } }, `10.0.0.${i}`));
    expect(await crowd(oneAccount)).toMatchObject({ active: 2, waiting: 6 });
    // A signed-out visitor's address is not an account's key, whatever the numbers.
    expect(slotClient({ anonymous: true, user: null }, '7')).not.toBe(slotClient({ anonymous: false, user: { id: 7 } }, '7'));
  });
});

describe('shutdown (server/shutdown.ts)', () => {
  it('answers the request in flight, then exits once; answers begun while closing say Connection: close', async () => {
    const exit = vi.fn();
    const stop = shutdown({ graceMs: 5_000, exit });
    let answer!: () => void;
    const server = http.createServer();
    const arrived = new Promise<void>((resolve) => {
      const app = express();
      app.use(stop.closeHeader);
      app.get('/slow', (_req, res) => {
        answer = () => res.end('done');
        resolve();
      });
      server.on('request', app);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const pending = fetch(`${url}/slow`);
    await arrived;
    stop.close(server);
    stop.close(server);
    expect(stop.closing).toBe(true);
    answer();
    const res = await pending;
    expect(await res.text()).toBe('done');
    const headers: Record<string, string> = {};
    const next = vi.fn();
    stop.closeHeader(
      {} as express.Request,
      { setHeader: (name: string, value: string) => (headers[name] = value) } as unknown as express.Response,
      next,
    );
    expect(headers).toEqual({ Connection: 'close' });
    expect(next).toHaveBeenCalled();
    await vi.waitFor(() => expect(exit).toHaveBeenCalledWith(0));
    expect(exit).toHaveBeenCalledTimes(1);
    await expect(fetch(`${url}/slow`)).rejects.toThrow();
  });
});
