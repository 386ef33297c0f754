import { describe, expect, it } from 'vitest';
import { InFlight } from '@custom-room/toolkit';

// Decision 038: loads shared by key while under way (the gateway's cover JPEGs, its cached answers' builds).

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('InFlight', () => {
  it('callers of one key share the load under way; other keys load on their own', async () => {
    const loads = new InFlight<string, string>();
    const a = deferred<string>();
    const b = deferred<string>();
    let started = 0;
    const loadA = () => (started++, a.promise);
    const first = loads.run('a', loadA);
    const second = loads.run('a', loadA);
    const other = loads.run('b', () => (started++, b.promise));
    expect(started).toBe(2);
    expect(loads.size).toBe(2);
    expect(loads.has('a')).toBe(true);
    a.resolve('A');
    b.resolve('B');
    expect(await Promise.all([first, second, other])).toEqual(['A', 'A', 'B']);
    expect(loads.size).toBe(0);
  });

  it('keeps nothing: once a load has settled, the next caller starts a new one', async () => {
    const loads = new InFlight<string, number>();
    let started = 0;
    expect(await loads.run('k', async () => ++started)).toBe(1);
    expect(loads.has('k')).toBe(false); // forgotten before the caller resumed
    expect(await loads.run('k', async () => ++started)).toBe(2);
  });

  it('a failed load rejects everyone who joined it and is forgotten', async () => {
    const loads = new InFlight<string, number>();
    const d = deferred<number>();
    const one = loads.run('k', () => d.promise);
    const two = loads.run('k', () => Promise.resolve(99));
    d.reject(new Error('disk full'));
    await expect(one).rejects.toThrow('disk full');
    await expect(two).rejects.toThrow('disk full');
    expect(loads.size).toBe(0);
    expect(await loads.run('k', () => 7)).toBe(7);
  });

  it('a load that throws at once rejects its caller and is forgotten', async () => {
    const loads = new InFlight<number, number>();
    await expect(
      loads.run(1, () => {
        throw new Error('bad id');
      }),
    ).rejects.toThrow('bad id');
    expect(loads.has(1)).toBe(false);
  });
});
