// Issue 31 (decision 084): a tournament's prize table, an amount per final rank and special prizes, set by
// whoever runs the tournament and read by anyone.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTournament, expectStatus, useGatewayWithPlayers, type TestGateway, type TestUser } from './helpers.js';

describe('prize table', () => {
  const setup = useGatewayWithPlayers(1);
  let gw: TestGateway;
  let admin: string;
  let players: TestUser[];
  beforeAll(() => ({ gw, admin, players } = setup));

  it('is set in rupees, read by anyone in paise, ranks first by rank; a new table replaces the old at once', async () => {
    const tid = (await createTournament(gw.api, admin)).id;
    expect(expectStatus(await gw.api.get(`/tournaments/${tid}/prizes`), 200)).toEqual({
      ranks: [],
      specials: [],
      totalPaise: 0,
      askPan: false,
    });
    const body = {
      ranks: [
        { rank: 2, amount: 3000 },
        { rank: 1, amount: '5000' },
        { rank: 3, amount: 1500.5 },
      ],
      specials: [{ label: '  Top fragger ', amount: 500 }],
    };
    const set = expectStatus(await gw.api.put(`/tournaments/${tid}/prizes`, body, admin), 200);
    const table = {
      ranks: [
        { rank: 1, amountPaise: 500000 },
        { rank: 2, amountPaise: 300000 },
        { rank: 3, amountPaise: 150050 },
      ],
      specials: [{ label: 'Top fragger', amountPaise: 50000, winner: null }],
      totalPaise: 1000050,
      askPan: false,
    };
    expect(set).toEqual(table);
    expect(expectStatus(await gw.api.get(`/tournaments/${tid}/prizes`), 200)).toEqual(table);
    expectStatus(await gw.api.put(`/tournaments/${tid}/prizes`, { ranks: [{ rank: 1, amount: 100 }], specials: [] }, admin), 200);
    expect(expectStatus(await gw.api.get(`/tournaments/${tid}/prizes`), 200)).toEqual({
      ranks: [{ rank: 1, amountPaise: 10000 }],
      specials: [],
      totalPaise: 10000,
      askPan: false,
    });
  });

  it('refuses a rank twice, a nameless or free prize, and too many lines, naming the field; nothing changes', async () => {
    const tid = (await createTournament(gw.api, admin)).id;
    const put = (body: object) => gw.api.put(`/tournaments/${tid}/prizes`, body, admin);
    const twice = await put({
      ranks: [
        { rank: 1, amount: 10 },
        { rank: 1, amount: 5 },
      ],
      specials: [],
    });
    expect(twice.status).toBe(400);
    expect(twice.body.errors['ranks.1.rank']).toBe('Rank 1 is listed twice.');
    const free = await put({ ranks: [{ rank: 1, amount: 0 }], specials: [{ label: '', amount: 10 }] });
    expect(free.body.errors).toMatchObject({
      'ranks.0.amount': 'The amount must be more than ₹0.',
      'specials.0.label': expect.stringMatching(/Name the prize/),
    });
    const many = await put({ ranks: Array.from({ length: 21 }, (_, i) => ({ rank: i + 1, amount: 1 })), specials: [] });
    expect(many.body.errors.ranks).toBe('At most 20 ranks.');
    expect(expectStatus(await gw.api.get(`/tournaments/${tid}/prizes`), 200).totalPaise).toBe(0);
  });

  it('only whoever runs the tournament sets it', async () => {
    const tid = (await createTournament(gw.api, admin)).id;
    const body = { ranks: [{ rank: 1, amount: 10 }], specials: [] };
    expect((await gw.api.put(`/tournaments/${tid}/prizes`, body, players[0]!.token)).status).toBe(403);
    expect((await gw.api.put(`/tournaments/${tid}/prizes`, body)).status).toBe(401);
    expect((await gw.api.get('/tournaments/999999/prizes')).status).toBe(404);
  });
});
