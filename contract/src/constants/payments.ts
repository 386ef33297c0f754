// --- Payments (decisions 011, 029) ---
export const PAYMENT_STATUSES = ['pending', 'submitted', 'verified', 'rejected'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

// --- The organiser's payee (issue 27, decision 055) ---
/** A UPI ID (VPA): handle@provider, as NPCI's apps accept it. */
export const UPI_ID_PATTERN = /^[\w.-]{2,256}@[a-zA-Z]{2,64}$/;
export const UPI_ID_MESSAGE = 'UPI ID must look like handle@provider, for example organiser@okaxis.';
export const PAYEE_NAME_MAX = 50;
/** The UPI ID a fresh install pays (UPI_PAYEE_VPA's default): nobody receives money there. */
export const PLACEHOLDER_UPI_ID = 'customroom@upi';
