import { describe, expect, it } from 'vitest';
import {
  formatDateTime,
  formatLongDate,
  formatMatchTime,
  formatRupees,
  formatShortDate,
  fromDateTimeLocal,
  toDateTimeLocal,
} from '~/utils/format';

const IST = 'Asia/Kolkata';

describe('formatting (spec §9)', () => {
  it('home dates: two-digit day, long month, year', () => {
    expect(formatLongDate('2026-03-05T06:00:00.000Z', IST)).toBe('05 March 2026');
  });

  it('elsewhere: day, short month, year', () => {
    expect(formatShortDate('2026-03-05T06:00:00.000Z', IST)).toBe('5 Mar 2026');
    expect(formatShortDate('2026-09-15T06:00:00.000Z', IST)).toBe('15 Sep 2026');
  });

  it('uses the app time zone, not UTC: 20:00 UTC is already the next day in India', () => {
    expect(formatShortDate('2026-03-05T20:00:00.000Z', IST)).toBe('6 Mar 2026');
    expect(formatShortDate('2026-03-05T20:00:00.000Z', 'UTC')).toBe('5 Mar 2026');
  });

  it('date and time in 12-hour form', () => {
    expect(formatDateTime('2026-03-05T13:00:00.000Z', IST)).toBe('5 Mar 2026, 6:30 pm');
  });

  it('empty for missing or invalid dates', () => {
    expect(formatShortDate(null, IST)).toBe('');
    expect(formatLongDate('garbage', IST)).toBe('');
  });

  it('rupees with Indian grouping', () => {
    expect(formatRupees(100000)).toBe('₹1,00,000');
    expect(formatRupees(2500)).toBe('₹2,500');
    expect(formatRupees(0)).toBe('₹0');
    expect(formatRupees(12345678)).toBe('₹1,23,45,678');
  });

  it('match time as HH:MM', () => {
    expect(formatMatchTime('18:30:00')).toBe('18:30');
    expect(formatMatchTime('09:05')).toBe('09:05');
  });

  it('converts datetime-local values in the app time zone both ways', () => {
    expect(fromDateTimeLocal('2026-03-05T18:30', IST)).toBe('2026-03-05T13:00:00.000Z');
    expect(toDateTimeLocal('2026-03-05T13:00:00.000Z', IST)).toBe('2026-03-05T18:30');
    expect(fromDateTimeLocal('2026-13-05T18:30', IST)).toBeNull();
    expect(fromDateTimeLocal('yesterday', IST)).toBeNull();
  });
});
