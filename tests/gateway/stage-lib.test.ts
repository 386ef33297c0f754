// The pure stage functions of issue 18 (decision 041): group sizes, the seeded draw, dealing, advancing and cut lines.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareStandings, type TeamStanding } from '../../gateway/src/lib/ranking.js';
import {
  advance,
  dealGroups,
  decidedBy,
  groupSizes,
  newSeed,
  shuffleWithSeed,
  type StageTeam,
} from '../../gateway/src/services/stages/rules.js';

describe('groupSizes', () => {
  it.each([
    [1000, 25, Array(40).fill(25)],
    [160, 25, [23, 23, 23, 23, 23, 23, 22]],
    [16, 25, [16]],
    [25, 25, [25]],
    [26, 25, [13, 13]],
    [51, 25, [17, 17, 17]],
    [8, 3, [3, 3, 2]],
    [1, 1, [1]],
    [0, 25, []],
  ])('%i teams in lobbies of %i → %j', (n, lobby, sizes) => {
    expect(groupSizes(n, lobby)).toEqual(sizes);
  });

  it('always gives ceil(n / lobby) groups that hold everyone, none over the lobby, differing by at most one, larger first', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 1, max: 60 }), (n, lobby) => {
        const sizes = groupSizes(n, lobby);
        expect(sizes).toHaveLength(Math.ceil(n / lobby));
        expect(sizes.reduce((s, x) => s + x, 0)).toBe(n);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
        expect(Math.max(...sizes)).toBeLessThanOrEqual(lobby);
        expect(Math.min(...sizes)).toBeGreaterThanOrEqual(1);
        expect([...sizes].sort((a, b) => b - a)).toEqual(sizes);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses a lobby below 1 or a negative count', () => {
    expect(() => groupSizes(10, 0)).toThrow(RangeError);
    expect(() => groupSizes(-1, 25)).toThrow(RangeError);
    expect(() => groupSizes(2.5, 25)).toThrow(RangeError);
  });
});

describe('newSeed', () => {
  it('is 16 lowercase hex characters, new every time', () => {
    const seeds = new Set(Array.from({ length: 50 }, () => newSeed()));
    for (const s of seeds) expect(s).toMatch(/^[0-9a-f]{16}$/);
    expect(seeds.size).toBe(50);
  });
});

// The decision's words, written again here on their own (hex → BigInt rather than the library's readUIntBE),
// so the test checks the algorithm anyone can repeat, not just the library against itself.
function referenceShuffle<T>(items: readonly T[], seed: string): T[] {
  const a = [...items];
  for (let i = a.length - 1; i >= 1; i--) {
    const first6Bytes = createHash('sha256').update(`${seed}:${i}`).digest('hex').slice(0, 12);
    const j = Number(BigInt(`0x${first6Bytes}`) % BigInt(i + 1));
    [a[i], a[j]] = [a[j] as T, a[i] as T];
  }
  return a;
}

describe('shuffleWithSeed', () => {
  const ten = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

  it('repeats the published draw: fixed vectors', () => {
    expect(shuffleWithSeed(ten, 'decision-041')).toEqual([5, 7, 10, 9, 6, 2, 3, 8, 1, 4]);
    expect(shuffleWithSeed(ten, '9f2c4e1a7b3d5e60')).toEqual([8, 9, 1, 7, 2, 3, 6, 10, 5, 4]);
  });

  it('follows the decision step by step for any list and seed', () => {
    fc.assert(
      fc.property(fc.array(fc.integer(), { maxLength: 60 }), fc.stringMatching(/^[A-Za-z0-9_-]{0,64}$/), (items, seed) => {
        expect(shuffleWithSeed(items, seed)).toEqual(referenceShuffle(items, seed));
      }),
      { numRuns: 300 },
    );
  });

  it('is a permutation and leaves its input alone', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 100_000 }), { maxLength: 200 }), fc.string(), (items, seed) => {
        const before = [...items];
        const out = shuffleWithSeed(items, seed);
        expect(items).toEqual(before);
        expect(out).not.toBe(items);
        expect([...out].sort((a, b) => a - b)).toEqual([...items].sort((a, b) => a - b));
      }),
      { numRuns: 300 },
    );
  });

  it('is the same for the same seed and different for another', () => {
    const ids = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(shuffleWithSeed(ids, 'abc')).toEqual(shuffleWithSeed(ids, 'abc'));
    expect(shuffleWithSeed(ids, 'abc')).not.toEqual(shuffleWithSeed(ids, 'abd'));
    expect(shuffleWithSeed(ids, 'abc')).not.toEqual(ids);
    const outcomes = new Set(Array.from({ length: 20 }, (_, i) => shuffleWithSeed(ids, `seed-${i}`).join(',')));
    expect(outcomes.size).toBe(20);
  });

  it('handles empty and single lists', () => {
    expect(shuffleWithSeed([], 'x')).toEqual([]);
    expect(shuffleWithSeed(['only'], 'x')).toEqual(['only']);
  });
});

describe('dealGroups', () => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

  it('fill: consecutive runs, larger groups first', () => {
    expect(dealGroups(ids(8), 3, 'fill')).toEqual([
      [1, 2, 3],
      [4, 5, 6],
      [7, 8],
    ]);
    expect(dealGroups(ids(26), 25, 'fill')).toEqual([ids(13), ids(26).slice(13)]);
  });

  it('snake: there and back, 8 teams in 3 groups', () => {
    // A B C | C B A | A B: C (2 places) is full after its second team; nothing needs skipping.
    expect(dealGroups(ids(8), 3, 'snake')).toEqual([
      [1, 6, 7],
      [2, 5, 8],
      [3, 4],
    ]);
  });

  it('snake: a full group is skipped', () => {
    // Sizes [2, 2, 1]: A B C, then C again is full → B, A.
    expect(dealGroups(ids(5), 2, 'snake')).toEqual([[1, 5], [2, 4], [3]]);
    // Sizes [4, 3, 3]: A B C C B A A B C, then C and B are full → A.
    expect(dealGroups(ids(10), 4, 'snake')).toEqual([
      [1, 6, 7, 10],
      [2, 5, 8],
      [3, 4, 9],
    ]);
  });

  it('snake: one group is just the list; 1000 teams in 40 groups', () => {
    expect(dealGroups(ids(16), 25, 'snake')).toEqual([ids(16)]);
    const groups = dealGroups(ids(1000), 25, 'snake');
    expect(groups).toHaveLength(40);
    expect(groups[0]?.slice(0, 4)).toEqual([1, 80, 81, 160]);
    expect(groups[39]?.slice(0, 4)).toEqual([40, 41, 120, 121]);
  });

  it('deals every id once, in groups of groupSizes, each group in arrival order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 1_000_000 }), { maxLength: 300 }),
        fc.integer({ min: 1, max: 30 }),
        fc.constantFrom('fill' as const, 'snake' as const),
        (list, lobby, mode) => {
          const groups = dealGroups(list, lobby, mode);
          expect(groups.map((g) => g.length)).toEqual(groupSizes(list.length, lobby));
          expect(groups.flat().sort((a, b) => a - b)).toEqual([...list].sort((a, b) => a - b));
          const at = new Map(list.map((id, i) => [id, i]));
          for (const g of groups)
            for (let i = 1; i < g.length; i++) expect(at.get(g[i] as number)).toBeGreaterThan(at.get(g[i - 1] as number) as number);
          if (mode === 'fill') expect(groups.flat()).toEqual(list);
          // Snake: the first k teams (the top seeds) head the k groups, one each.
          if (mode === 'snake') expect(groups.map((g) => g[0])).toEqual(list.slice(0, groups.length));
        },
      ),
      { numRuns: 500 },
    );
  });
});

const standing = (teamName: string, s: Partial<TeamStanding> = {}): TeamStanding => ({
  teamId: s.teamId ?? 1,
  teamName,
  positionPoints: 0,
  finishes: 0,
  wins: 0,
  totalPoints: 0,
  matchesPlayed: 0,
  ...s,
});

describe('decidedBy', () => {
  it('total points', () => {
    expect(decidedBy(standing('Alpha', { totalPoints: 42 }), standing('Beta', { totalPoints: 40 }))).toBe(
      'Alpha 42 points, Beta 40 points.',
    );
    expect(decidedBy(standing('Alpha', { totalPoints: 1 }), standing('Beta', { totalPoints: 0 }))).toBe('Alpha 1 point, Beta 0 points.');
  });

  it('wins', () => {
    expect(decidedBy(standing('Zeta', { totalPoints: 40, wins: 2 }), standing('Alpha', { totalPoints: 40, wins: 1 }))).toBe(
      'Tied on 40 points; Zeta has more wins (chicken dinners): 2 to 1.',
    );
  });

  it('placement points, with win/wins counted right', () => {
    const p = (name: string, wins: number, positionPoints: number) => standing(name, { totalPoints: 40, wins, positionPoints });
    expect(decidedBy(p('Zeta', 1, 22), p('Alpha', 1, 18))).toBe(
      'Tied on 40 points and 1 win each; Zeta has more placement points: 22 to 18.',
    );
    expect(decidedBy(p('Zeta', 0, 22), p('Alpha', 0, 18))).toBe(
      'Tied on 40 points and 0 wins each; Zeta has more placement points: 22 to 18.',
    );
    expect(decidedBy(p('Zeta', 2, 22), p('Alpha', 2, 18))).toBe(
      'Tied on 40 points and 2 wins each; Zeta has more placement points: 22 to 18.',
    );
  });

  it('finishes', () => {
    const f = (name: string, finishes: number) => standing(name, { totalPoints: 40, wins: 1, positionPoints: 22, finishes });
    expect(decidedBy(f('Zeta', 18), f('Alpha', 16))).toBe(
      'Tied on 40 points, 1 win each and 22 placement points; Zeta has more finishes: 18 to 16.',
    );
  });

  it('team name, then registration', () => {
    const same = { totalPoints: 40, wins: 1, positionPoints: 22, finishes: 18 };
    expect(decidedBy(standing('alpha', same), standing('Beta', same))).toBe(
      'Tied on points, wins, placement points and finishes; alpha comes first by team name (alphabetical).',
    );
    expect(decidedBy(standing('Alpha', { ...same, teamId: 3 }), standing('ALPHA', { ...same, teamId: 9 }))).toBe(
      'Tied on points, wins, placement points, finishes and team name; Alpha registered first.',
    );
  });

  it('refuses a pair in the wrong order', () => {
    expect(() => decidedBy(standing('Beta', { totalPoints: 1 }), standing('Alpha', { totalPoints: 2 }))).toThrow(RangeError);
    expect(() => decidedBy(standing('Alpha'), standing('Alpha'))).toThrow(RangeError);
  });
});

let nextId = 100;
const groupIds: Record<string, { id: number; order: number }> = {
  A: { id: 30, order: 1 },
  B: { id: 20, order: 2 },
  C: { id: 10, order: 3 },
};
/** A team of group `g` (ids chosen so group order differs from group id order). */
const team = (g: 'A' | 'B' | 'C', teamName: string, s: Partial<TeamStanding> = {}): StageTeam => ({
  ...standing(teamName, { teamId: nextId++, matchesPlayed: 3, ...s }),
  groupId: groupIds[g]!.id,
  groupName: g,
  groupOrder: groupIds[g]!.order,
  slot: 1,
});
const names = (rows: { teamName: string }[]) => rows.map((r) => r.teamName);

describe('advance', () => {
  // Stage order: A1 50, B1 45, A2 40, B2 35, B3 33, A3 30, A4 10, B4 5.
  const stage = [
    team('B', 'B4', { totalPoints: 5 }),
    team('A', 'A3', { totalPoints: 30 }),
    team('B', 'B1', { totalPoints: 45 }),
    team('A', 'A1', { totalPoints: 50 }),
    team('B', 'B3', { totalPoints: 33 }),
    team('A', 'A4', { totalPoints: 10 }),
    team('B', 'B2', { totalPoints: 35 }),
    team('A', 'A2', { totalPoints: 40 }),
  ];

  it('top N of each group, then the best M of the rest; cuts per group in group order, then the rest', () => {
    const input = stage.map((t) => ({ ...t }));
    const { ranked, qualifiers, cuts } = advance(input, { perGroup: 2, best: 1 });
    expect(input).toEqual(stage);
    expect(names(ranked)).toEqual(['A1', 'B1', 'A2', 'B2', 'B3', 'A3', 'A4', 'B4']);
    expect(ranked.map((t) => t.stageRank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(ranked.map((t) => t.groupRank)).toEqual([1, 1, 2, 2, 3, 3, 4, 4]);
    expect(ranked.map((t) => t.via)).toEqual(['group', 'group', 'group', 'group', 'best', null, null, null]);
    expect(ranked.map((t) => t.qualified)).toEqual([true, true, true, true, true, false, false, false]);
    expect(names(qualifiers)).toEqual(['A1', 'B1', 'A2', 'B2', 'B3']);
    const id = (name: string) => stage.find((t) => t.teamName === name)!.teamId;
    expect(cuts).toEqual([
      {
        scope: 'Group A',
        lastIn: { teamId: id('A2'), teamName: 'A2', rank: 2 },
        firstOut: { teamId: id('A3'), teamName: 'A3', rank: 3 },
        decidedBy: 'A2 40 points, A3 30 points.',
      },
      {
        scope: 'Group B',
        lastIn: { teamId: id('B2'), teamName: 'B2', rank: 2 },
        firstOut: { teamId: id('B3'), teamName: 'B3', rank: 3 },
        decidedBy: 'B2 35 points, B3 33 points.',
      },
      {
        scope: 'Best of the rest',
        lastIn: { teamId: id('B3'), teamName: 'B3', rank: 1 },
        firstOut: { teamId: id('A3'), teamName: 'A3', rank: 2 },
        decidedBy: 'B3 33 points, A3 30 points.',
      },
    ]);
  });

  it('the best of the rest go by the stage table, not by group rank', () => {
    const teams = [
      team('A', 'A1', { totalPoints: 50 }),
      team('A', 'A2', { totalPoints: 20 }),
      team('B', 'B1', { totalPoints: 45 }),
      team('B', 'B2', { totalPoints: 35 }),
      team('B', 'B3', { totalPoints: 30 }),
    ];
    const { qualifiers, cuts } = advance(teams, { perGroup: 1, best: 2 });
    expect(qualifiers.map((t) => [t.teamName, t.via])).toEqual([
      ['A1', 'group'],
      ['B1', 'group'],
      ['B2', 'best'],
      ['B3', 'best'],
    ]);
    expect(cuts[2]).toMatchObject({
      scope: 'Best of the rest',
      lastIn: { teamName: 'B3', rank: 2 },
      firstOut: { teamName: 'A2', rank: 3 },
    });
  });

  it('a final (nobody advances): every team ranked, no qualifiers, no cuts', () => {
    const { ranked, qualifiers, cuts } = advance(stage, { perGroup: 0, best: 0 });
    expect(names(ranked)).toEqual(['A1', 'B1', 'A2', 'B2', 'B3', 'A3', 'A4', 'B4']);
    expect(ranked.every((t) => !t.qualified && t.via === null)).toBe(true);
    expect(qualifiers).toEqual([]);
    expect(cuts).toEqual([]);
  });

  it('best only: the top of the stage table, one cut', () => {
    const { qualifiers, cuts } = advance(stage, { perGroup: 0, best: 3 });
    expect(qualifiers.map((t) => [t.teamName, t.via])).toEqual([
      ['A1', 'best'],
      ['B1', 'best'],
      ['A2', 'best'],
    ]);
    expect(cuts).toMatchObject([{ scope: 'Best of the rest', lastIn: { teamName: 'A2', rank: 3 }, firstOut: { teamName: 'B2', rank: 4 } }]);
  });

  it('more places than teams left: all of the rest qualify, nobody out', () => {
    const { qualifiers, cuts } = advance(stage, { perGroup: 3, best: 5 });
    expect(qualifiers).toHaveLength(8);
    expect(qualifiers.filter((t) => t.via === 'best').map((t) => t.teamName)).toEqual(['A4', 'B4']);
    expect(cuts[2]).toEqual({
      scope: 'Best of the rest',
      lastIn: { teamId: stage[0]!.teamId, teamName: 'B4', rank: 2 },
      firstOut: null,
      decidedBy: 'Every remaining team qualifies.',
    });
  });

  it('a group no larger than N: all its teams qualify, firstOut null; no best cut when no team is left', () => {
    const teams = [
      team('A', 'A1', { totalPoints: 9 }),
      team('A', 'A2', { totalPoints: 3 }),
      team('B', 'B1'),
      team('B', 'B2'),
      team('B', 'B3'),
    ];
    const { qualifiers, cuts } = advance(teams, { perGroup: 3, best: 2 });
    expect(qualifiers).toHaveLength(5);
    expect(cuts).toEqual([
      {
        scope: 'Group A',
        lastIn: { teamId: teams[1]!.teamId, teamName: 'A2', rank: 2 },
        firstOut: null,
        decidedBy: 'Every team of Group A qualifies.',
      },
      {
        scope: 'Group B',
        lastIn: { teamId: teams[4]!.teamId, teamName: 'B3', rank: 3 },
        firstOut: null,
        decidedBy: 'Every team of Group B qualifies.',
      },
    ]);
  });

  it('teams without results are ranked too (by name, all zeros)', () => {
    const teams = [team('A', 'Zebra'), team('A', 'apple'), team('A', 'Mango', { totalPoints: 1 })];
    const { ranked, cuts } = advance(teams, { perGroup: 2, best: 0 });
    expect(names(ranked)).toEqual(['Mango', 'apple', 'Zebra']);
    expect(cuts[0]!.decidedBy).toBe('Tied on points, wins, placement points and finishes; apple comes first by team name (alphabetical).');
  });

  describe('a tie at the cut is explained by the tie-breaker that decides it', () => {
    const cases: [string, Partial<TeamStanding>, Partial<TeamStanding>, string][] = [
      ['points', { totalPoints: 42 }, { totalPoints: 40 }, 'In 42 points, Out 40 points.'],
      [
        'wins',
        { totalPoints: 40, wins: 2 },
        { totalPoints: 40, wins: 1 },
        'Tied on 40 points; In has more wins (chicken dinners): 2 to 1.',
      ],
      [
        'placement points',
        { totalPoints: 40, wins: 1, positionPoints: 22 },
        { totalPoints: 40, wins: 1, positionPoints: 18 },
        'Tied on 40 points and 1 win each; In has more placement points: 22 to 18.',
      ],
      [
        'finishes',
        { totalPoints: 40, wins: 1, positionPoints: 22, finishes: 18 },
        { totalPoints: 40, wins: 1, positionPoints: 22, finishes: 16 },
        'Tied on 40 points, 1 win each and 22 placement points; In has more finishes: 18 to 16.',
      ],
      [
        'team name',
        { totalPoints: 40, wins: 1, positionPoints: 22, finishes: 18 },
        { totalPoints: 40, wins: 1, positionPoints: 22, finishes: 18 },
        'Tied on points, wins, placement points and finishes; In comes first by team name (alphabetical).',
      ],
    ];

    it.each(cases)('%s, at a group cut', (_, inStats, outStats, words) => {
      const teams = [team('A', 'Out', outStats), team('A', 'Top', { totalPoints: 99 }), team('A', 'In', inStats)];
      const { cuts, qualifiers } = advance(teams, { perGroup: 2, best: 0 });
      expect(names(qualifiers)).toEqual(['Top', 'In']);
      expect(cuts).toMatchObject([
        { scope: 'Group A', lastIn: { teamName: 'In', rank: 2 }, firstOut: { teamName: 'Out', rank: 3 }, decidedBy: words },
      ]);
    });

    it.each(cases)('%s, at the best-of-the-rest cut across groups', (_, inStats, outStats, words) => {
      const teams = [
        team('A', 'Top A', { totalPoints: 99 }),
        team('A', 'Out', outStats),
        team('C', 'In', inStats),
        team('C', 'Top C', { totalPoints: 99 }),
      ];
      const { cuts, qualifiers } = advance(teams, { perGroup: 1, best: 1 });
      expect(qualifiers.find((t) => t.teamName === 'In')?.via).toBe('best');
      expect(cuts.map((c) => c.scope)).toEqual(['Group A', 'Group C', 'Best of the rest']);
      expect(cuts[2]).toMatchObject({ lastIn: { teamName: 'In', rank: 1 }, firstOut: { teamName: 'Out', rank: 2 }, decidedBy: words });
    });
  });

  it('holds its invariants for any stage and rule', () => {
    const teamArb = fc.record({
      g: fc.constantFrom('A' as const, 'B' as const, 'C' as const),
      totalPoints: fc.integer({ min: 0, max: 6 }),
      wins: fc.integer({ min: 0, max: 2 }),
      positionPoints: fc.integer({ min: 0, max: 3 }),
      finishes: fc.integer({ min: 0, max: 3 }),
    });
    fc.assert(
      fc.property(
        fc.array(teamArb, { maxLength: 40 }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 10 }),
        (rows, perGroup, best) => {
          const teams = rows.map(({ g, ...s }, i) => team(g, `Team ${String(i).padStart(2, '0')}`, s));
          const { ranked, qualifiers, cuts } = advance(teams, { perGroup, best });
          expect(ranked.map((t) => t.stageRank)).toEqual(teams.map((_, i) => i + 1));
          for (let i = 1; i < ranked.length; i++) expect(compareStandings(ranked[i - 1]!, ranked[i]!)).toBeLessThan(0);
          const groups = [...new Set(teams.map((t) => t.groupName))].sort();
          let expected = 0;
          for (const g of groups) {
            const members = ranked.filter((t) => t.groupName === g);
            expect(members.map((t) => t.groupRank)).toEqual(members.map((_, i) => i + 1));
            expect(members.filter((t) => t.via === 'group').length).toBe(Math.min(perGroup, members.length));
            expected += Math.min(perGroup, members.length);
          }
          const rest = teams.length - expected;
          expect(qualifiers.filter((t) => t.via === 'best').length).toBe(Math.min(best, rest));
          expect(qualifiers).toEqual(ranked.filter((t) => t.qualified));
          // Every qualifier of the rest ranks above every team left out.
          const bestIn = ranked.filter((t) => t.via === 'best').map((t) => t.stageRank);
          const out = ranked.filter((t) => !t.qualified).map((t) => t.stageRank);
          if (bestIn.length && out.length) expect(Math.max(...bestIn)).toBeLessThan(Math.min(...out));
          const expectedScopes = [
            ...(perGroup > 0 ? groups.map((g) => `Group ${g}`) : []),
            ...(best > 0 && rest > 0 ? ['Best of the rest'] : []),
          ];
          expect(cuts.map((c) => c.scope)).toEqual(expectedScopes);
        },
      ),
      { numRuns: 500 },
    );
  });
});
