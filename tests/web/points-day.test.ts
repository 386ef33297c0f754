import { describe, expect, it } from 'vitest';
import { dayLabel, parseDay, POINTS_DAYS } from '~/utils/points-day';

describe('parseDay', () => {
  it('reads 0 to 5; missing or empty is Overall', () => {
    expect(parseDay(null)).toEqual({ day: 0, valid: true });
    expect(parseDay('')).toEqual({ day: 0, valid: true });
    for (const d of POINTS_DAYS) expect(parseDay(String(d))).toEqual({ day: d, valid: true });
  });

  it('shows Overall, flagged invalid, for anything else', () => {
    for (const raw of ['9', '6', '-1', 'x', '1.5', '01', ' 1', '1e0', 'Infinity']) expect(parseDay(raw)).toEqual({ day: 0, valid: false });
  });

  it('labels days the way the picker shows them', () => {
    expect(POINTS_DAYS.map(dayLabel)).toEqual(['Overall', 'Day 1', 'Day 2', 'Day 3', 'Day 4', 'Day 5']);
  });
});
