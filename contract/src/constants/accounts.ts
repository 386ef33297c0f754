// --- Roles and tokens (decision 019) ---
export const ROLE_USER = 'ROLE_USER';
export const ROLE_ADMIN = 'ROLE_ADMIN';
/** The `iss` of the gateway's tokens; the web app accepts no other. */
export const TOKEN_ISSUER = 'custom-room-gateway';
/** The `aud` of the gateway's tokens. */
export const TOKEN_AUDIENCE = 'custom-room';

// --- Accounts ---
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
