import { describe, expect, it } from 'vitest';
import {
  canRegister,
  entryFeeLabel,
  listFilterOf,
  listOrder,
  parseTournamentId,
  registrationStateWords,
  statusTone,
} from '~/utils/tournament';
import { paymentDue } from '~/utils/team';
import { placeView, type PlaceFields } from '~/utils/places';
import { publicPageHeaders } from '~/utils/public-cache.server';

describe('parseTournamentId', () => {
  it('accepts positive whole numbers only', () => {
    expect(parseTournamentId('1')).toBe(1);
    expect(parseTournamentId('123456789')).toBe(123456789);
    for (const bad of [undefined, '', '0', '-1', '1.0', '1e3', 'abc', ' 1', '0x10', '1234567890'])
      expect(parseTournamentId(bad)).toBeNull();
  });
});

describe('status rules', () => {
  it('only "Registration Ongoing" allows registering', () => {
    expect(canRegister('Registration Ongoing')).toBe(true);
    for (const s of ['Upcoming', 'Registration Closed', 'Ongoing', 'Completed', 'Cancelled', 'registration ongoing'])
      expect(canRegister(s)).toBe(false);
  });

  it('gives every status a badge colour, unknown ones the neutral one', () => {
    expect(statusTone('Registration Ongoing')).toBe('open');
    expect(statusTone('Upcoming')).toBe('soon');
    expect(statusTone('Ongoing')).toBe('live');
    expect(statusTone('Registration Closed')).toBe('closed');
    expect(statusTone('Completed')).toBe('done');
    expect(statusTone('Cancelled')).toBe('off');
    expect(statusTone('Something new')).toBe('off');
  });

  const list = [
    { id: 1, status: 'Completed' },
    { id: 2, status: 'Ongoing' },
    { id: 3, status: 'Cancelled' },
    { id: 4, status: 'Registration Ongoing' },
    { id: 5, status: 'Upcoming' },
    { id: 6, status: 'Registration Closed' },
    { id: 7, status: 'Something new' },
    { id: 8, status: 'Registration Ongoing' },
    { id: 9, status: 'Upcoming' },
  ];

  it('lists open tournaments first, then upcoming, ongoing, unknown, completed, cancelled; the gateway order within each', () => {
    expect(listOrder(list).map((t) => t.id)).toEqual([4, 8, 5, 6, 9, 2, 7, 1, 3]);
  });

  it('filters by ?show=, "upcoming" taking a tournament whose registration closed before its start; unknown values show all', () => {
    expect(listOrder(list, 'open').map((t) => t.id)).toEqual([4, 8]);
    expect(listOrder(list, 'upcoming').map((t) => t.id)).toEqual([5, 6, 9]);
    expect(listOrder(list, 'ongoing').map((t) => t.id)).toEqual([2]);
    expect(listOrder(list, 'completed').map((t) => t.id)).toEqual([1]);
    expect(listFilterOf('open')).toBe('open');
    for (const raw of [null, '', 'OPEN', 'all', 'cancelled']) expect(listFilterOf(raw)).toBeNull();
  });

  it('says where registration stands for a tournament that is not open', () => {
    expect(registrationStateWords('Upcoming', '5 Mar 2026')).toBe('Registration opens 5 Mar 2026');
    expect(registrationStateWords('Upcoming')).toBe('Registration opens soon');
    expect(registrationStateWords('Registration Closed')).toBe('Registration closed');
    expect(registrationStateWords('Ongoing')).toBe('Registration closed: matches under way');
    expect(registrationStateWords('Completed')).toBe('Completed: see the final points');
    expect(registrationStateWords('Cancelled')).toBe('Cancelled');
    expect(registrationStateWords('Paused')).toBe('Paused');
  });

  it('shows a zero fee as Free and others in rupees', () => {
    expect(entryFeeLabel(0)).toBe('Free');
    expect(entryFeeLabel(100000)).toBe('₹1,00,000');
  });
});

describe('a team’s state in words (placeView, the one function every page uses)', () => {
  const TZ = 'Asia/Kolkata';
  const now = Date.parse('2026-11-26T06:00:00.000Z');
  const view = (over: Partial<PlaceFields>, free = false) =>
    placeView(
      { place: 'placed', paymentStatus: 'pending', payBy: null, waitlistPosition: null, releasedReason: null, ...over },
      { timeZone: TZ, free, nowMs: now },
    );

  it('names each payment state in the player’s words; a free tournament’s team is confirmed', () => {
    const words = (paymentStatus: string, free = false) => view({ paymentStatus }, free).words;
    expect(words('pending')).toBe('pending payment');
    expect(words('submitted')).toBe('payment submitted');
    expect(words('verified')).toBe('confirmed');
    expect(words('rejected')).toBe('payment rejected');
    expect(words('pending', true)).toBe('confirmed');
    expect(view({ paymentStatus: 'verified' }).tone).toBe('ok');
    expect(view({ paymentStatus: 'rejected' }).tone).toBe('due');
  });

  it('asks for a payment only while one is due', () => {
    expect(paymentDue({ paymentStatus: 'pending' }, { free: false })).toBe(true);
    expect(paymentDue({ paymentStatus: 'rejected' }, { free: false })).toBe(true);
    expect(paymentDue({ paymentStatus: 'submitted' }, { free: false })).toBe(false);
    expect(paymentDue({ paymentStatus: 'verified' }, { free: false })).toBe(false);
    expect(paymentDue({ paymentStatus: 'pending' }, { free: true })).toBe(false);
    // Decision 043: a team without a place has nothing to pay.
    expect(paymentDue({ paymentStatus: 'pending', place: 'placed' }, { free: false })).toBe(true);
    expect(paymentDue({ paymentStatus: 'pending', place: 'waitlist' }, { free: false })).toBe(false);
    expect(paymentDue({ paymentStatus: 'rejected', place: 'released' }, { free: false })).toBe(false);
  });

  it('words a place (decision 043) with the contract’s placeWords and the pay-by in the app’s time zone', () => {
    const state = (over: Partial<PlaceFields>) => {
      const v = view(over);
      return { words: v.words, tone: v.tone };
    };
    expect(state({ paymentStatus: 'pending', payBy: '2026-11-26T15:30:00.000Z' })).toEqual({
      words: 'pending payment (pay by 21:00)',
      tone: 'due',
    });
    expect(state({ place: 'waitlist', waitlistPosition: 3 })).toEqual({ words: 'waitlist #3', tone: 'wait' });
    expect(state({ paymentStatus: 'verified', confirmed: true })).toEqual({ words: 'confirmed', tone: 'ok' });
    expect(state({ paymentStatus: 'submitted', confirmed: false })).toEqual({ words: 'payment submitted', tone: 'wait' });
    expect(state({ place: 'released', releasedReason: 'payment-deadline' })).toEqual({
      words: 'released (payment not verified in time)',
      tone: 'gone',
    });
    expect(state({ paymentStatus: 'verified', place: 'withdrawn' })).toEqual({ words: 'withdrawn', tone: 'gone' });
    expect(state({ paymentStatus: 'verified', confirmed: true, checkIns: [{ stageId: 1, state: 'checked-in' }] })).toEqual({
      words: 'checked in',
      tone: 'ok',
    });
    expect(view({ paymentStatus: 'pending' }, true)).toMatchObject({ words: 'confirmed', tone: 'ok' });
  });
});

describe('publicPageHeaders', () => {
  it('lets shared caches keep anonymous pages briefly', () => {
    expect(publicPageHeaders(new Request('http://localhost/'))).toEqual({
      'Cache-Control': 'public, max-age=30, stale-while-revalidate=60',
      Vary: 'Cookie',
    });
    expect(
      publicPageHeaders(new Request('http://localhost/', { headers: { cookie: 'theme=dark; other__session=1' } }))['Cache-Control'],
    ).toMatch(/^public/);
  });

  it('never caches a page for someone with a session cookie', () => {
    for (const cookie of ['__session=abc', 'theme=dark; __session=abc']) {
      expect(publicPageHeaders(new Request('http://localhost/', { headers: { cookie } }))).toEqual({
        'Cache-Control': 'private, no-store',
      });
    }
  });
});
