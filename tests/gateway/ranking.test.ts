import { describe, expect, it } from 'vitest';
import { RANKING_RULE_TEXT, compareStandings, rankStandings, type TeamStanding } from '../../gateway/src/lib/ranking.js';

const team = (teamName: string, s: Partial<TeamStanding>): TeamStanding => ({
  teamId: s.teamId ?? teamName.length,
  teamName,
  positionPoints: 0,
  finishes: 0,
  wins: 0,
  totalPoints: 0,
  matchesPlayed: 1,
  ...s,
});

const names = (rows: { teamName: string }[]) => rows.map((r) => r.teamName);

describe('rankStandings', () => {
  it('ranks by total points first, whatever the other columns say', () => {
    const rows = [
      team('Low', { totalPoints: 9, wins: 3, positionPoints: 9, finishes: 0 }),
      team('High', { totalPoints: 10, wins: 0, positionPoints: 0, finishes: 10 }),
    ];
    expect(names(rankStandings(rows))).toEqual(['High', 'Low']);
  });

  it('breaks a points tie by wins', () => {
    const rows = [
      team('No Dinner', { totalPoints: 20, wins: 0, positionPoints: 15, finishes: 5 }),
      team('Dinner', { totalPoints: 20, wins: 1, positionPoints: 10, finishes: 10 }),
    ];
    expect(names(rankStandings(rows))).toEqual(['Dinner', 'No Dinner']);
  });

  it('then by placement points', () => {
    const rows = [
      team('Fragger', { totalPoints: 20, wins: 1, positionPoints: 10, finishes: 10 }),
      team('Survivor', { totalPoints: 20, wins: 1, positionPoints: 16, finishes: 4 }),
    ];
    expect(names(rankStandings(rows))).toEqual(['Survivor', 'Fragger']);
  });

  it('then by finishes (possible when matches carry no placement)', () => {
    // Equal totals, wins and placement points force equal finishes for honest data; rows from
    // elsewhere may still disagree, and the rule must then look at finishes before the name.
    const rows = [
      team('Alpha', { totalPoints: 20, wins: 1, positionPoints: 10, finishes: 9 }),
      team('Zulu', { totalPoints: 20, wins: 1, positionPoints: 10, finishes: 10 }),
    ];
    expect(names(rankStandings(rows))).toEqual(['Zulu', 'Alpha']);
  });

  it('then by team name, ignoring case', () => {
    const rows = [
      team('Charlie Squad', { teamId: 1, totalPoints: 12, wins: 0, positionPoints: 6, finishes: 6 }),
      team('bravo Squad', { teamId: 2, totalPoints: 12, wins: 0, positionPoints: 6, finishes: 6 }),
      team('Alpha Squad', { teamId: 3, totalPoints: 12, wins: 0, positionPoints: 6, finishes: 6 }),
    ];
    // Case-sensitive order would put "Charlie" before "bravo"; id order would reverse the list.
    expect(names(rankStandings(rows))).toEqual(['Alpha Squad', 'bravo Squad', 'Charlie Squad']);
  });

  it('numbers ranks 1..n with no shared rank, keeps the columns and leaves the input alone', () => {
    const rows = [
      team('B', { teamId: 2, totalPoints: 5, matchesPlayed: 3 }),
      team('A', { teamId: 1, totalPoints: 5, matchesPlayed: 2 }),
      team('C', { teamId: 3, totalPoints: 7, matchesPlayed: 4 }),
    ];
    const ranked = rankStandings(rows);
    expect(ranked.map((r) => [r.rank, r.teamName, r.teamId, r.matchesPlayed])).toEqual([
      [1, 'C', 3, 4],
      [2, 'A', 1, 2],
      [3, 'B', 2, 3],
    ]);
    expect(names(rows)).toEqual(['B', 'A', 'C']);
  });

  it('is a total order: the same names fall back to the id', () => {
    const a = team('Same', { teamId: 1 });
    const b = team('SAME', { teamId: 2 });
    expect(compareStandings(a, b)).toBeLessThan(0);
    expect(compareStandings(b, a)).toBeGreaterThan(0);
    expect(compareStandings(a, a)).toBe(0);
  });

  it('describes the rule in one sentence, naming every tie-breaker in order', () => {
    expect(RANKING_RULE_TEXT.split(/[.!?](\s|$)/).filter((s) => s.trim()).length).toBe(1);
    const order = ['total points', 'wins', 'placement points', 'finishes', 'team name'].map((w) => RANKING_RULE_TEXT.indexOf(w));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((x, y) => x - y)).toEqual(order);
  });
});
