import { describe, expect, it } from 'vitest';
import {
  checkFinishesTotal,
  checkGroupRows,
  checkPlacements,
  checkTeams,
  groupRowErrors,
  scoredResult,
} from '../../gateway/src/services/results/checks.js';

/** The results checks of services/results, shared by one team's result and a whole match (issue 28). */
describe('services/results checks', () => {
  const teams = new Map([
    [1, 'Alpha'],
    [2, 'Bravo'],
    [3, 'Charlie'],
  ]);
  const row = (teamId: number, position: number, extra: { finishes?: number; absent?: boolean } = {}) => ({
    teamId,
    position,
    wins: 0,
    finishes: 0,
    ...extra,
  });
  const refusal = (fn: () => void) => {
    try {
      fn();
    } catch (err) {
      return err as { statusCode: number; message: string; errors?: Record<string, string> };
    }
    throw new Error('expected a refusal');
  };

  it('names unregistered and repeated teams at once, keyed teamId.{teamId}', () => {
    const err = refusal(() => checkTeams([row(1, 1), row(9, 2), row(1, 3)], teams));
    expect(err.statusCode).toBe(400);
    expect(err.message).toBe('Team 9 is not registered in this tournament. Alpha is listed more than once.');
    expect(err.errors).toEqual({
      'teamId.9': 'Team 9 is not registered in this tournament.',
      'teamId.1': 'Alpha is listed more than once.',
    });
  });

  it("answers one row's group refusals by field, a team outside the group first", () => {
    const group = { groupId: 5, members: new Map([[2, 1]]), name: 'A' };
    expect(Object.entries(groupRowErrors(row(1, 2, { absent: true }), 'Alpha', group))).toEqual([
      ['teamId', 'Alpha is not in Group A.'],
      ['absent', 'An absent team has no placement and no finishes.'],
    ]);
    expect(groupRowErrors(row(2, 0, { absent: true }), 'Bravo', group)).toEqual({});
    const err = refusal(() => checkGroupRows([row(1, 1), row(2, 1)], teams, group));
    expect(err.errors).toEqual({ 'teamId.1': 'Alpha is not in Group A.' });
  });

  it('refuses a shared placement naming every team, and too many finishes for the lobby', () => {
    const err = refusal(() => checkPlacements([row(1, 2), row(2, 2), row(3, 2)], teams));
    expect(err.statusCode).toBe(409);
    expect(err.message).toBe('Two teams cannot share a placement. Placement 2 is given to Alpha, Bravo and Charlie.');
    expect(err.errors?.['position.2']).toBe('Placement 2 is also given to Alpha and Charlie.');
    expect(() => checkPlacements([row(1, 0), row(2, 0)], teams)).not.toThrow();
    expect(refusal(() => checkFinishesTotal(12, { teams: 3, maxFinishes: 8 }, 'squad')).errors).toHaveProperty('finishes');
    expect(() => checkFinishesTotal(11, { teams: 3, maxFinishes: 8 }, 'squad')).not.toThrow();
  });

  it("scores a row by the tournament's points system; an absent team scores nothing", () => {
    const key = { tournamentId: 7, day: 1, match: 2, groupId: 0 };
    const first = scoredResult(row(1, 1, { finishes: 4 }), key, 'bmps-15');
    expect(first).toMatchObject({ registrationId: 1, wins: 1, finishes: 4, absent: false });
    expect(first.totalPoints).toBe(first.positionPoints + 4);
    expect(first.positionPoints).toBeGreaterThan(0);
    expect(scoredResult(row(2, 0, { absent: true }), key, 'bmps-15')).toMatchObject({ positionPoints: 0, totalPoints: 0, absent: true });
  });
});
