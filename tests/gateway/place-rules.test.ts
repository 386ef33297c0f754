// The pure rules of a team's place (services/places/rules.ts): no database, no clock.
import { describe, expect, it } from 'vitest';
import { LATE_PLACEMENT_GRACE_HOURS } from '@custom-room/contract';
import { listOrder, payByFor } from '../../gateway/src/services/places/rules.js';

const HOUR = 3_600_000;
const placedAt = Date.parse('2030-01-01T10:00:00.000Z');

describe('payByFor', () => {
  it('gives no deadline in a free tournament or without a setting', () => {
    expect(payByFor({ entry_fee: 0, payment_deadline_hours: 2, payment_deadline_at: null }, placedAt)).toBeNull();
    expect(payByFor({ entry_fee: 50, payment_deadline_hours: null, payment_deadline_at: null }, placedAt)).toBeNull();
  });

  it('counts hours from the placing', () => {
    expect(payByFor({ entry_fee: 50, payment_deadline_hours: 2, payment_deadline_at: null }, placedAt)).toBe(
      new Date(placedAt + 2 * HOUR).toISOString(),
    );
  });

  it('holds a fixed time for a team registering before it, and gives a late placing its grace', () => {
    const fixed = '2030-01-01T11:00:00.000Z';
    const rules = { entry_fee: 50, payment_deadline_hours: null, payment_deadline_at: fixed };
    expect(payByFor(rules, placedAt, { registering: true })).toBe(fixed);
    expect(payByFor(rules, placedAt)).toBe(new Date(placedAt + LATE_PLACEMENT_GRACE_HOURS * HOUR).toISOString());
  });
});

describe('listOrder', () => {
  it('puts payments to check first and gone teams last', () => {
    expect(listOrder({ place: 'placed', paymentStatus: 'submitted' }, false)).toBe(0);
    expect(listOrder({ place: 'placed', paymentStatus: 'pending' }, false)).toBe(1);
    expect(listOrder({ place: 'placed', paymentStatus: 'verified' }, true)).toBe(2);
    expect(listOrder({ place: 'waitlist', paymentStatus: 'pending' }, false)).toBe(3);
    expect(listOrder({ place: 'withdrawn', paymentStatus: 'verified' }, false)).toBe(4);
  });
});
