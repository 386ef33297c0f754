import { describe, expect, it } from 'vitest';
import type { PhaseFacts } from '@custom-room/contract/constants';
import { placeView, type PlaceFields } from '~/utils/places';
import { publicPageHeaders } from '~/utils/public-cache.server';
import { paymentDue } from '~/utils/team';
import {
  canRegister,
  entryFeeLabel,
  listFilterOf,
  listOrder,
  parseTournamentId,
  phaseOf,
  phaseWords,
  registrationStateWords,
  statusTone,
  summaryPhase,
} from '~/utils/tournament';

describe('parseTournamentId', () => {
  it('accepts positive whole numbers only', () => {
    expect(parseTournamentId('1')).toBe(1);
    expect(parseTournamentId('123456789')).toBe(123456789);
    for (const bad of [undefined, '', '0', '-1', '1.0', '1e3', 'abc', ' 1', '0x10', '1234567890'])
      expect(parseTournamentId(bad)).toBeNull();
  });
});

describe('phase rules (decision 051)', () => {
  const now = Date.parse('2026-03-10T12:00:00.000Z');
  const at = (hours: number) => new Date(now + hours * 3_600_000).toISOString();
  /** Registration open since an hour, closing in a day; the start in two days. */
  const facts = (over: Partial<PhaseFacts> = {}): PhaseFacts => ({
    status: 'Registration Ongoing',
    registrationOpen: at(-1),
    registrationClose: at(24),
    startDate: at(48),
    endDate: at(72),
    ...over,
  });

  it('lets players register only while "Registration Ongoing" is between its dates and no stage is published', () => {
    expect(canRegister(facts(), now)).toBe(true);
    expect(canRegister(facts({ registrationOpen: at(1) }), now)).toBe(false);
    expect(canRegister(facts({ registrationClose: at(-0.5) }), now)).toBe(false);
    expect(canRegister(facts({ stageProgress: { stages: 2, started: true, finished: false } }), now)).toBe(false);
    for (const status of ['Upcoming', 'Registration Closed', 'Ongoing', 'Completed', 'Cancelled', 'registration ongoing'])
      expect(canRegister(facts({ status }), now), status).toBe(false);
  });

  it('derives the phase from the facts: stages first, then the status and the dates', () => {
    expect(phaseOf(facts(), now)).toBe('registration-open');
    expect(phaseOf(facts({ registrationOpen: at(2) }), now)).toBe('upcoming');
    expect(phaseOf(facts({ status: 'Upcoming' }), now)).toBe('upcoming');
    expect(phaseOf(facts({ registrationClose: at(-0.5) }), now)).toBe('registration-closed');
    expect(phaseOf(facts({ startDate: at(-1), registrationClose: at(-2), registrationOpen: at(-5) }), now)).toBe('in-progress');
    expect(phaseOf(facts({ status: 'Ongoing' }), now)).toBe('in-progress');
    expect(phaseOf(facts({ endDate: at(-1), startDate: at(-3), registrationClose: at(-4), registrationOpen: at(-5) }), now)).toBe(
      'completed',
    );
    expect(phaseOf(facts({ status: 'Cancelled', stageProgress: { stages: 1, started: true, finished: true } }), now)).toBe('cancelled');
    // The Final: status still "Registration Ongoing", the last stage completed.
    expect(phaseOf(facts({ stageProgress: { stages: 2, started: true, finished: true } }), now)).toBe('completed');
    expect(phaseOf(facts({ status: 'Completed', stageProgress: { stages: 2, started: true, finished: false } }), now)).toBe('in-progress');
    // With stages none published, the dates do not end it: the organiser runs it by its stages.
    expect(
      phaseOf(
        facts({
          endDate: at(-1),
          startDate: at(-3),
          registrationClose: at(-4),
          registrationOpen: at(-5),
          stageProgress: { stages: 2, started: false, finished: false },
        }),
        now,
      ),
    ).toBe('registration-closed');
    expect(summaryPhase({ status: 'Completed' }, now)).toBe('completed');
    expect(summaryPhase({ status: 'Registration Ongoing', phase: 'in-progress' }, now)).toBe('in-progress');
  });

  it('gives every phase a badge colour and words', () => {
    expect(statusTone('registration-open')).toBe('open');
    expect(statusTone('upcoming')).toBe('soon');
    expect(statusTone('in-progress')).toBe('live');
    expect(statusTone('registration-closed')).toBe('closed');
    expect(statusTone('completed')).toBe('done');
    expect(statusTone('cancelled')).toBe('off');
    expect(phaseWords('in-progress')).toBe('In progress');
    expect(phaseWords('completed')).toBe('Completed');
  });

  const list = [
    { id: 1, ...facts({ status: 'Completed' }) },
    { id: 2, ...facts({ status: 'Ongoing' }) },
    { id: 3, ...facts({ status: 'Cancelled' }) },
    { id: 4, ...facts() },
    { id: 5, ...facts({ status: 'Upcoming' }) },
    { id: 6, ...facts({ status: 'Registration Closed' }) },
    { id: 7, ...facts({ stageProgress: { stages: 1, started: true, finished: false } }) },
    { id: 8, ...facts() },
    { id: 9, ...facts({ status: 'Upcoming' }) },
    { id: 10, ...facts({ stageProgress: { stages: 2, started: true, finished: true } }) },
  ];

  it('lists open tournaments first, then upcoming, in progress, completed, cancelled; the gateway order within each', () => {
    expect(listOrder(list, null, now).map((t) => t.id)).toEqual([4, 8, 5, 6, 9, 2, 7, 1, 10, 3]);
  });

  it('filters by ?show=, "upcoming" taking a tournament whose registration closed before its start; unknown values show all', () => {
    expect(listOrder(list, 'open', now).map((t) => t.id)).toEqual([4, 8]);
    expect(listOrder(list, 'upcoming', now).map((t) => t.id)).toEqual([5, 6, 9]);
    expect(listOrder(list, 'ongoing', now).map((t) => t.id)).toEqual([2, 7]);
    expect(listOrder(list, 'completed', now).map((t) => t.id)).toEqual([1, 10]);
    expect(listFilterOf('open')).toBe('open');
    for (const raw of [null, '', 'OPEN', 'all', 'cancelled']) expect(listFilterOf(raw)).toBeNull();
  });

  it('says where registration stands for a tournament that is not open', () => {
    expect(registrationStateWords('upcoming', '5 Mar 2026')).toBe('Registration opens 5 Mar 2026');
    expect(registrationStateWords('upcoming')).toBe('Registration opens soon');
    expect(registrationStateWords('registration-closed')).toBe('Registration closed');
    expect(registrationStateWords('in-progress')).toBe('Registration closed: matches under way');
    expect(registrationStateWords('completed')).toBe('Completed: see the final points');
    expect(registrationStateWords('cancelled')).toBe('Cancelled');
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
