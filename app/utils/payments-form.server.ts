import { PAYMENT_STATUSES, type PaymentStatus, PaymentStatusBulkUpdateSchema } from '@custom-room/contract';

/** The admin payment actions: the gateway's own rules for statuses and the bulk body (one source per rule). */
export { PAYMENT_STATUSES, PaymentStatusBulkUpdateSchema, type PaymentStatus };

export const isPaymentStatus = (value: string | null | undefined): value is PaymentStatus =>
  (PAYMENT_STATUSES as readonly string[]).includes(value ?? '');

/**
 * Hidden fields with the UPI reference the admin was shown (decision 029): `expectedUpiReference` in
 * a team's own form, `expectedUpiReference.{rid}` per team in the ticked-teams form.
 */
export const EXPECTED_REFERENCE_FIELD = 'expectedUpiReference';
export const expectedReferenceName = (rid: number) => `${EXPECTED_REFERENCE_FIELD}.${rid}`;
