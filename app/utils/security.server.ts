import crypto from 'node:crypto';

export function createNonce(): string {
  return crypto.randomBytes(16).toString('base64');
}

/** Headers on every document: a nonce-based CSP and the usual hardening. */
export function securityHeaders(nonce: string): Record<string, string> {
  return hardeningHeaders(`'nonce-${nonce}'`);
}

/**
 * The same headers for a page kept in the page cache (decision 024): its inline scripts are allowed by
 * their SHA-256 hashes (`'sha256-…'`, base64) instead of a nonce, so the cached bytes, compressed
 * once, can be sent to every visitor and no nonce is ever shared between responses.
 */
export function securityHeadersWithHashes(scriptHashes: readonly string[]): Record<string, string> {
  return hardeningHeaders(scriptHashes.map((hash) => `'sha256-${hash}'`).join(' '));
}

function hardeningHeaders(inlineScripts: string): Record<string, string> {
  const csp = [
    "default-src 'self'",
    `script-src 'self'${inlineScripts ? ` ${inlineScripts}` : ''}`,
    "style-src 'self' 'unsafe-inline'",
    // Any https image: profile pictures are arbitrary https URLs, and a CSP narrowed per page would stay
    // in force across client-side navigations. YouTube thumbnails (https://i.ytimg.com) are covered (decision 018).
    "img-src 'self' data: https:",
    "font-src 'self'",
    "connect-src 'self'",
    // The only frame: the videos page's player, loaded once the visitor asks to play.
    'frame-src https://www.youtube-nocookie.com',
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), interest-cohort=()',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
}
