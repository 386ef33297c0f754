// --- Payments (decisions 011, 029) ---
export const PAYMENT_STATUSES = ['pending', 'submitted', 'verified', 'rejected'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
