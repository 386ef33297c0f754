import { PAYMENT_STATUSES, type PaymentStatus } from '@custom-room/contract/constants';

/** The admin payment actions; statuses and the bulk body's rules are the contract's (decision 035). */

export const isPaymentStatus = (value: string | null | undefined): value is PaymentStatus =>
  (PAYMENT_STATUSES as readonly string[]).includes(value ?? '');

/**
 * Hidden fields with the UPI reference the admin was shown (decision 029): `expectedUpiReference` in
 * a team's own form, `expectedUpiReference.{rid}` per team in the ticked-teams form.
 */
export const EXPECTED_REFERENCE_FIELD = 'expectedUpiReference';
export const expectedReferenceName = (rid: number) => `${EXPECTED_REFERENCE_FIELD}.${rid}`;

/** The payment form's schema, for the route's action only: see qualifyingNote in stages.server.ts (decision 087). */
export { PaymentSubmitSchema } from '@custom-room/contract';
