import { CHARACTER_ID_OF, characterIdName, IGN_FIELDS, PAYMENT_STATUSES, type PaymentStatus } from '@custom-room/contract/constants';
import type { AdminRegistration } from '~/utils/gateway.server';
import { captainMessage, whatsAppLink } from './contact';
import { getEnv } from './env.server';
import { formatDateTime } from './format';
import { gateway } from './gateway.server';
import { isPaymentStatus } from './payments-form.server';

/** What the admin registrations page and its CSV share: the filter and the rows. */

/** ?payment= of the URL: a payment status, null for all, or "invalid" for anything else. */
export function paymentFilterOf(request: Request): PaymentStatus | null | 'invalid' {
  const raw = new URL(request.url).searchParams.get('payment');
  if (raw === null || raw === '' || raw === 'all') return null;
  return isPaymentStatus(raw) ? raw : 'invalid';
}

export const paymentFilterQuery = (filter: PaymentStatus | null | 'invalid') =>
  filter && filter !== 'invalid' ? `?payment=${filter}` : '';

export async function loadRegistrations(request: Request, tid: number) {
  const registrations = await gateway.tournamentRegistrations(request, tid);
  const counts = Object.fromEntries(PAYMENT_STATUSES.map((s) => [s, 0])) as Record<PaymentStatus, number>;
  for (const r of registrations) if (isPaymentStatus(r.paymentStatus)) counts[r.paymentStatus] += 1;
  return { registrations, counts };
}

export const byPayment = (registrations: AdminRegistration[], filter: PaymentStatus | null | 'invalid') =>
  filter && filter !== 'invalid' ? registrations.filter((r) => r.paymentStatus === filter) : registrations;

/** Registration time in APP_TIME_ZONE, as people read it. */
export const registeredAt = (r: AdminRegistration) => formatDateTime(r.createdAt, getEnv().APP_TIME_ZONE);

/** The team's players and substitutes as the organiser reads them ("Mortal (BGMI character ID 5123456789)"), and how many named players lack an ID. */
export function teamPlayers(r: AdminRegistration, game: string) {
  const idName = characterIdName(game);
  const named = IGN_FIELDS.filter((f) => r[f] !== '');
  const shown = (f: (typeof IGN_FIELDS)[number]) => {
    const id = r[CHARACTER_ID_OF[f]];
    return id ? `${r[f]} (${idName} ${id})` : r[f];
  };
  return {
    players: named.filter((f) => f.startsWith('player')).map(shown),
    substitutes: named.filter((f) => f.startsWith('substitute')).map(shown),
    missingIds: named.filter((f) => r[CHARACTER_ID_OF[f]] === '').length,
  };
}

/** The four players' IGNs, as the game's result screen lists them (issue 27: shown under the team's name). */
export function playerIgns(r: AdminRegistration): string[] {
  return IGN_FIELDS.filter((f) => f.startsWith('player'))
    .map((f) => r[f])
    .filter((ign) => ign !== '');
}

/** The captain's phone and email, and a wa.me link with a short text naming the tournament (decision 046). */
export function captainWords(r: AdminRegistration, tournamentName: string) {
  return {
    phone: r.captainPhone,
    email: r.captainEmail,
    whatsApp: r.captainPhone ? whatsAppLink(r.captainPhone, captainMessage(tournamentName, r.teamName)) : null,
  };
}
