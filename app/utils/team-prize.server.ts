import type { MyPrize } from '@custom-room/contract';
import { formatPaise, formatShortDate } from './format';
import { formEntries, submitToGateway } from './forms.server';
import { call } from './gateway.server';
import { PAYEE_FIELDS, PAYEE_INTENT, prizePaidWords } from './payouts';
import { flash } from './session.server';

/**
 * Decision 085: the team page's prize: what the team won, the captain's form for the UPI ID to be paid (and
 * the PAN when the organiser asks), and "Prize ₹5,000 paid on … (UTR …)" once the organiser recorded it.
 */

const PAYEE_FAILED = 'Your UPI ID was not saved. Please try again.';

export function prizeView(p: MyPrize, timeZone: string) {
  return {
    won: `Your team won ${formatPaise(p.owedPaise)}: ${p.prizes.map((x) => `${x.label} ${formatPaise(x.amountPaise)}`).join(', ')}`,
    askPan: p.askPan,
    payee: p.payee ? { upiId: p.payee.upiId, panGiven: p.payee.panGiven, at: formatShortDate(p.payee.at, timeZone) } : null,
    paid: p.payout ? prizePaidWords(p.payout, timeZone) : null,
  };
}
export type PrizeView = ReturnType<typeof prizeView>;

/** The captain's form: where the prize goes. */
export async function prizePayeeAction(request: Request, tid: number, formData: FormData) {
  const entries = formEntries(formData);
  const values = { intent: PAYEE_INTENT, upiId: entries.upiId ?? '', pan: entries.pan ?? '' };
  const body = { upiId: values.upiId, ...(values.pan.trim() ? { pan: values.pan } : {}) };
  const sent = await submitToGateway(() => call(request, 'setPrizePayee', { params: { id: tid }, body }), {
    values,
    fields: PAYEE_FIELDS,
    fallback: PAYEE_FAILED,
  });
  if (!sent.ok) return sent.failure;
  const owed = sent.value.prize ? ` ${formatPaise(sent.value.prize.owedPaise)}` : '';
  return flash(
    request,
    `Saved: the organiser will pay your prize${owed} to ${sent.value.prize?.payee?.upiId ?? values.upiId}.`,
    `/team/${tid}`,
  );
}
