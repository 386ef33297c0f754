import { getEnv } from './env.server';
import { formatDateTime } from './format';
import { gateway } from './gateway.server';
import type { AdminRegistration } from '~/utils/gateway.server';
import { PAYMENT_STATUSES, type PaymentStatus } from '@custom-room/contract/constants';
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
