import { describe, expect, it } from 'vitest';
import { createRequestTurns, defaultPerClient } from '~/utils/request-turns.server';

// Decision 031: the web server's request slots, shared between client addresses. Checked by who holds a
// slot after each step, never by timing.

/** Enters n requests of a client; the list of those that got a slot so far (by label). */
function enterMany(turns: ReturnType<typeof createRequestTurns>, client: string, n: number, served: string[], abandoned?: AbortSignal) {
  return Array.from({ length: n }, (_, i) => {
    const label = `${client}${i + 1}`;
    const entered = turns.enter(client, abandoned);
    if (entered === true) served.push(label);
    else void entered.then((ok) => ok && served.push(label));
    return label;
  });
}
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('request slots shared between clients', () => {
  it('one client holds at most its share; another client gets a free slot at once', async () => {
    const turns = createRequestTurns(8, 2);
    const served: string[] = [];
    enterMany(turns, 'flood', 300, served);
    await settle();
    expect(served).toEqual(['flood1', 'flood2']);
    expect(turns.stats()).toEqual({ active: 2, waiting: 298, clients: 1 });
    enterMany(turns, 'player', 1, served);
    expect(served).toEqual(['flood1', 'flood2', 'player1']);
  });

  it('the queue keeps moving: a slot given back goes to the waiting client holding fewest, in turn among equals, each in arrival order', async () => {
    const turns = createRequestTurns(4, 2);
    const served: string[] = [];
    enterMany(turns, 'a', 5, served);
    enterMany(turns, 'b', 5, served);
    await settle();
    expect(served).toEqual(['a1', 'a2', 'b1', 'b2']);
    // c arrives while every slot is taken: holding none, it gets the first slot given back (before a
    // gets its third); then whoever holds fewest, the clients taking turns among equals.
    enterMany(turns, 'c', 3, served);
    for (const client of ['a', 'b', 'a', 'c', 'b', 'c']) {
      turns.leave(client);
      await settle();
    }
    expect(served).toEqual(['a1', 'a2', 'b1', 'b2', 'c1', 'a3', 'b3', 'c2', 'a4', 'c3']);
    expect(turns.stats()).toEqual({ active: 4, waiting: 3, clients: 3 });
  });

  it('a waiting request whose client went away gives its place up and never holds a slot', async () => {
    const turns = createRequestTurns(2, 1);
    const served: string[] = [];
    const gone = new AbortController();
    enterMany(turns, 'flood', 3, served, gone.signal);
    enterMany(turns, 'player', 2, served);
    await settle();
    expect(served).toEqual(['flood1', 'player1']);
    gone.abort();
    await settle();
    expect(turns.stats()).toEqual({ active: 2, waiting: 1, clients: 2 });
    turns.leave('player');
    await settle();
    expect(served).toEqual(['flood1', 'player1', 'player2']);
  });

  it('the default share is a quarter of the slots, at least one', () => {
    expect([1, 3, 4, 32, 100].map(defaultPerClient)).toEqual([1, 1, 1, 8, 25]);
  });
});
