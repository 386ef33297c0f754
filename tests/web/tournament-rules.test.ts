import { describe, expect, it } from 'vitest';
import { canRegister, entryFeeLabel, liveFirst, parseTournamentId, statusTone } from '~/utils/tournament';
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

  it('lists finished tournaments last, keeping the gateway order otherwise', () => {
    const list = [
      { id: 1, status: 'Completed' },
      { id: 2, status: 'Ongoing' },
      { id: 3, status: 'Cancelled' },
      { id: 4, status: 'Registration Ongoing' },
      { id: 5, status: 'Upcoming' },
    ];
    expect(liveFirst(list).map((t) => t.id)).toEqual([2, 4, 5, 1, 3]);
  });

  it('shows a zero fee as Free and others in rupees', () => {
    expect(entryFeeLabel(0)).toBe('Free');
    expect(entryFeeLabel(100000)).toBe('₹1,00,000');
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
