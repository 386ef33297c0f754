import { PAYMENT_STATUSES, PaymentStatusBulkUpdateSchema, type PaymentStatus } from '../../gateway/src/schemas/registration.js';

/** The admin payment actions: the gateway's own rules for statuses and the bulk body (one source per rule). */
export { PAYMENT_STATUSES, PaymentStatusBulkUpdateSchema, type PaymentStatus };

export const isPaymentStatus = (value: string | null | undefined): value is PaymentStatus =>
  (PAYMENT_STATUSES as readonly string[]).includes(value ?? '');
