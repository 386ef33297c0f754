import { describe, expect, it } from 'vitest';
import { dayLabel, offeredDays, parseDay } from '~/utils/points-day';

describe('parseDay', () => {
  it('reads 0 to 7 (every day a match can be on); missing or empty is Overall', () => {
    expect(parseDay(null)).toEqual({ day: 0, valid: true });
    expect(parseDay('')).toEqual({ day: 0, valid: true });
    for (const d of [0, 1, 2, 3, 4, 5, 6, 7]) expect(parseDay(String(d))).toEqual({ day: d, valid: true });
  });

  it('shows Overall, flagged invalid, for anything else', () => {
    for (const raw of ['9', '8', '-1', 'x', '1.5', '01', ' 1', '1e0', 'Infinity']) expect(parseDay(raw)).toEqual({ day: 0, valid: false });
  });

  it('labels days the way the picker shows them: Overall, then only the days with matches (issue 27)', () => {
    expect(offeredDays([1, 2]).map(dayLabel)).toEqual(['Overall', 'Day 1', 'Day 2']);
    expect(offeredDays([]).map(dayLabel)).toEqual(['Overall']);
    expect(offeredDays([2, 6]).map(dayLabel)).toEqual(['Overall', 'Day 2', 'Day 6']);
  });
});
