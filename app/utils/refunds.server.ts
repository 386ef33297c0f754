import { type Refund, type RefundReason } from '@custom-room/contract';
import { TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { getEnv } from './env.server';
import { pageError } from './errors.server';
import { formatDateTime, formatPaise, formatShortDate } from './format';
import { formEntries, formFailure, submitToGateway, typedRupees } from './forms.server';
import { call, gateway } from './gateway.server';
import { flash } from './session.server';

/**
 * Decision 082: the paid teams owed their fee (withdrew, removed, released, or the tournament cancelled), with
 * the payer's UPI ID the statement names; the organiser records each refund's UTR. Works without JavaScript.
 */

export const REFUND_FAILED = 'The refund was not recorded. Please try again.';
export const REFUND_FIELDS = ['upiReference', 'amount'] as const;
export const refundsPath = (tid: number) => `/admin/${tid}/refunds`;

const REASON_WORDS: Record<RefundReason, string> = {
  withdrew: 'Withdrew',
  removed: 'Removed by the organiser',
  released: 'Released',
  cancelled: 'Tournament cancelled',
};

/** "Refunded ₹50 on 29 Nov (UTR 123456789012)": the team page's and the list's words. */
export const refundWords = (r: { amountPaise: number; utr: string; at: string }, timeZone: string) =>
  `Refunded ${formatPaise(r.amountPaise)} on ${formatShortDate(r.at, timeZone)} (UTR ${r.utr})`;

const view = (r: Refund, timeZone: string) => ({
  rid: r.registrationId,
  team: r.teamName,
  reason: REASON_WORDS[r.reason],
  left: r.leftAt ? formatDateTime(r.leftAt, timeZone) : '',
  paid: `${formatPaise(r.paidPaise)}${r.paidUtr ? ` · UTR ${r.paidUtr}` : ''}`,
  payer: [r.payerName, r.payerVpa].filter(Boolean).join(' · '),
  fee: String(r.paidPaise / 100),
  refunded: r.refund ? `${refundWords(r.refund, timeZone)}, recorded by ${r.refund.by}` : null,
});

export async function loadRefunds(request: Request, tid: number) {
  const [t, refunds] = await Promise.all([
    gateway.getTournament(request, tid),
    call(request, 'listRefunds', { params: { id: tid } }),
  ]).catch((err) => pageError(err, TOURNAMENT_NOT_FOUND));
  const timeZone = getEnv().APP_TIME_ZONE;
  const rows = refunds.map((r) => view(r, timeZone));
  return { t: { id: t.id, name: t.name }, owed: rows.filter((r) => !r.refunded), done: rows.filter((r) => r.refunded) };
}
export type RefundsPage = Awaited<ReturnType<typeof loadRefunds>>;

/** One team's form: the refund's UTR and, when it is not the whole fee, the amount. */
export async function refundAction(request: Request, tid: number) {
  const entries = formEntries(await request.formData());
  const rid = Number(entries.rid);
  const values = { rid: entries.rid ?? '', upiReference: entries.upiReference ?? '', amount: entries.amount ?? '' };
  if (!Number.isInteger(rid) || rid <= 0) return formFailure({ values, formError: 'Choose a team.' });
  const amount = typedRupees(values.amount);
  const body = { upiReference: values.upiReference, ...(amount ? { amount: Number(amount) } : {}) };
  if (amount && !Number.isFinite(body.amount)) {
    return formFailure({ values, fieldErrors: { amount: 'The amount must be a number of rupees.' } });
  }
  const sent = await submitToGateway(() => call(request, 'recordRefund', { params: { id: tid, rid }, body }), {
    values,
    fields: REFUND_FIELDS,
    fallback: REFUND_FAILED,
  });
  if (!sent.ok) return sent.failure;
  const r = sent.value;
  return flash(
    request,
    `${r.teamName}: refund of ${formatPaise(r.refund!.amountPaise)} recorded (UTR ${r.refund!.utr}). The team is told.`,
    refundsPath(tid),
  );
}
