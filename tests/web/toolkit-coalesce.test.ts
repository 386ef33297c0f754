import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coalesce } from '@custom-room/toolkit';

// Decision 038: the one "share a read that started after you asked" helper of the gateway (the cache
// generation on PostgreSQL and SQLite, decision 023) and the web app (the page cache's generation, 024).

/** A run the test ends by hand; each run's value is its number. */
function manualRuns() {
  const runs: { n: number; resolve: () => void; reject: (err: Error) => void }[] = [];
  const run = () =>
    new Promise<number>((resolve, reject) => {
      const n = runs.length + 1;
      runs.push({ n, resolve: () => resolve(n), reject });
    });
  return { run, runs };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('coalesce', () => {
  it('never hands a caller a run that started before it called; callers waiting share the next run', async () => {
    const { run, runs } = manualRuns();
    const read = coalesce(run);
    const first = read();
    expect(runs).toHaveLength(1); // nothing under way: the first caller's run starts at once
    const [second, third] = [read(), read()]; // arrived while run 1 was under way
    expect(runs).toHaveLength(1);
    runs[0]!.resolve();
    expect(await first).toBe(1);
    expect(runs).toHaveLength(2); // started as soon as run 1 settled, for both waiting callers
    const fourth = read(); // arrived while run 2 was under way
    runs[1]!.resolve();
    expect([await second, await third]).toEqual([2, 2]);
    expect(runs).toHaveLength(3);
    runs[2]!.resolve();
    expect(await fourth).toBe(3);
    await tick();
    expect(runs).toHaveLength(3); // nobody waiting: no run
  });

  it('a caller resuming from a run finds it over: its next call starts a new run at once', async () => {
    const { run, runs } = manualRuns();
    const read = coalesce(run);
    const first = read();
    runs[0]!.resolve();
    await first;
    const again = read();
    expect(runs).toHaveLength(2);
    runs[1]!.resolve();
    expect(await again).toBe(2);
  });

  it('a failed run rejects each of its callers; those waiting behind it get the next run', async () => {
    const { run, runs } = manualRuns();
    const read = coalesce(run);
    const first = read();
    const second = read();
    const third = read();
    runs[0]!.reject(new Error('connection refused'));
    await expect(first).rejects.toThrow('connection refused');
    runs[1]!.reject(new Error('still refused'));
    await expect(second).rejects.toThrow('still refused');
    await expect(third).rejects.toThrow('still refused');
    const fourth = read();
    runs[2]!.resolve();
    expect(await fourth).toBe(3);
  });

  it('a run that throws at once rejects its caller, and the next call runs again', async () => {
    let calls = 0;
    const read = coalesce((): number => {
      calls++;
      if (calls === 1) throw new Error('no connection');
      return calls;
    });
    await expect(read()).rejects.toThrow('no connection');
    expect(await read()).toBe(2);
  });

  it('with defer, every caller until the scheduled start shares one run (one synchronous read per turn)', async () => {
    let runs = 0;
    const read = coalesce(() => ++runs, { defer: (start) => void setImmediate(start) });
    const turn1 = [read(), read(), read()];
    expect(runs).toBe(0); // not before the turn ends: later callers of this turn join it
    expect(await Promise.all(turn1)).toEqual([1, 1, 1]);
    const turn2 = [read(), read()];
    expect(await Promise.all(turn2)).toEqual([2, 2]);
    expect(runs).toBe(2);
  });

  it('with defer, a caller arriving while an asynchronous run is under way still waits for the next', async () => {
    const { run, runs } = manualRuns();
    const read = coalesce(run, { defer: (start) => void setImmediate(start) });
    const first = read();
    await tick();
    expect(runs).toHaveLength(1);
    const second = read(); // run 1 is under way: it may have read before this caller arrived
    runs[0]!.resolve();
    expect(await first).toBe(1);
    expect(runs).toHaveLength(2);
    runs[1]!.resolve();
    expect(await second).toBe(2);
  });

  it('in any order of calls and settles: each caller gets a run started after it called, one run at a time, none idle', async () => {
    // Steps: 'call' (a caller arrives), 'ok' / 'fail' (the run under way settles), 'turn' (the event loop turns).
    const step = fc.constantFrom('call', 'call', 'ok', 'fail', 'turn');
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 40 }), fc.boolean(), async (steps, deferred) => {
        let clock = 0;
        const started: { at: number; settle: (ok: boolean) => void }[] = [];
        let underWay = 0;
        let maxUnderWay = 0;
        const read = coalesce(
          () => {
            const at = ++clock;
            underWay++;
            maxUnderWay = Math.max(maxUnderWay, underWay);
            return new Promise<number>((resolve, reject) =>
              started.push({
                at,
                settle: (ok) => {
                  underWay--;
                  if (ok) resolve(at);
                  else reject(Object.assign(new Error('failed'), { at }));
                },
              }),
            );
          },
          deferred ? { defer: (start) => void setImmediate(start) } : {},
        );
        const callers: { arrived: number; outcome: Promise<number> }[] = [];
        let settled = 0;
        const settleNext = async (ok: boolean) => {
          await tick();
          if (settled < started.length) started[settled++]!.settle(ok);
        };
        for (const s of steps) {
          if (s === 'call') {
            const arrived = ++clock;
            // A failed run's start is its callers' answer too (caught at once: no unhandled rejection).
            callers.push({ arrived, outcome: read().catch((err: { at: number }) => err.at) });
          } else if (s === 'turn') await tick();
          else await settleNext(s === 'ok');
        }
        // Settle whatever is left, until every caller has its answer.
        for (let i = 0; i < 200; i++) {
          await tick();
          if (settled === started.length) break;
          started[settled++]!.settle(true);
        }
        for (const caller of callers) expect(await caller.outcome).toBeGreaterThan(caller.arrived);
        expect(maxUnderWay).toBeLessThanOrEqual(1);
        // No run without a caller: each run's start is the answer of at least one caller.
        const answered = new Set(await Promise.all(callers.map((c) => c.outcome)));
        expect(started.map((r) => r.at).filter((at) => !answered.has(at))).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});
