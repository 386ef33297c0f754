import QRCode from 'qrcode';
import { PLACEHOLDER_UPI_ID } from '@custom-room/contract/constants';
import { getEnv } from './env.server';
import { QR_SIZE } from './team';

/** The UPI payment of a registration (DESIGN.md "Payment"): the upi://pay URI and its QR, made on the server. */
const NOTE_MAX = 50;

/**
 * Who a tournament's players pay (issue 27, decision 055): its own payee, else the site's default
 * (UPI_PAYEE_VPA / UPI_PAYEE_NAME), which is also what a new tournament's form starts with.
 */
export function payeeOf(t: { payeeUpiId?: string; payeeName?: string }): { vpa: string; payeeName: string } {
  if (t.payeeUpiId) return { vpa: t.payeeUpiId, payeeName: t.payeeName || t.payeeUpiId };
  const env = getEnv();
  return { vpa: env.UPI_PAYEE_VPA, payeeName: env.UPI_PAYEE_NAME };
}

/** A tournament that takes fees and would have them paid to the placeholder UPI ID, where nobody receives them. */
export const paysPlaceholder = (t: { entryFee: number; payeeUpiId?: string; payeeName?: string }) =>
  t.entryFee > 0 && payeeOf(t).vpa === PLACEHOLDER_UPI_ID;

/** "CR-42 Team Soul", at most 50 characters, so the organiser can match the payment in a bank statement. */
export function paymentNote(rid: number, teamName: string): string {
  return `CR-${rid} ${teamName}`.replace(/\s+/g, ' ').trim().slice(0, NOTE_MAX).trim();
}

/**
 * upi://pay?pa=…&pn=…&am=…&cu=INR&tn=… (NPCI's deep-link parameters). Each value is percent-encoded
 * (spaces as %20: some UPI apps show a "+" literally).
 */
export function upiUri(payment: { vpa: string; payeeName: string; amount: number; note: string }): string {
  const params: [string, string][] = [
    ['pa', payment.vpa],
    ['pn', payment.payeeName],
    ['am', payment.amount.toFixed(2)],
    ['cu', 'INR'],
    ['tn', payment.note],
  ];
  return `upi://pay?${params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}`;
}

/** The URI as a 250×250 SVG QR code in a data: URL (no outside QR service, no extra request). */
export async function qrDataUrl(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: 'svg', width: QR_SIZE, margin: 4, errorCorrectionLevel: 'M' });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** PAYMENT_FORM_URL with {rid} filled in, or null when no form is configured. */
export function paymentFormUrl(template: string | undefined, rid: number): string | null {
  if (!template) return null;
  return template.includes('{rid}') ? template.replaceAll('{rid}', encodeURIComponent(String(rid))) : template;
}
