/**
 * URLs as our logs print them (decision 031): the value of every query parameter whose name looks
 * secret is replaced, so a password-reset link (`/reset-password?token=…`) or any other credential
 * carried in a URL never lands in an access, refusal or error log. The rest of the URL is printed as
 * it came, byte for byte, so a log line still says which page was asked for.
 */

const REDACTED = '[redacted]';

/** Parameter names that carry a credential, ours or anyone's (reset token, API keys, signatures, one-time codes). */
const SECRET_NAME = /token|secret|passw|pwd|api[-_]?key|^key$|signature|^sig$|auth|session|jwt|otp|code|credential|cookie/i;

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** One query parameter, redacted if its name looks secret or its value is itself a URL that carries one. */
function redactParameter(pair: string, depth: number): string {
  const eq = pair.indexOf('=');
  const rawName = eq < 0 ? pair : pair.slice(0, eq);
  if (SECRET_NAME.test(decode(rawName))) return `${rawName}=${REDACTED}`;
  if (eq < 0) return pair;
  // A value that is a URL of its own (?redirectTo=%2Freset-password%3Ftoken%3D…) is checked the same way.
  const value = decode(pair.slice(eq + 1));
  if (depth < 3 && value.includes('?') && redactQuery(value, depth + 1) !== value) return `${rawName}=${REDACTED}`;
  return pair;
}

function redactQuery(url: string, depth: number): string {
  const question = url.indexOf('?');
  if (question < 0) return url;
  const hash = url.indexOf('#', question);
  const query = url.slice(question + 1, hash < 0 ? undefined : hash);
  const redacted = query
    .split('&')
    .map((pair) => redactParameter(pair, depth))
    .join('&');
  return url.slice(0, question + 1) + redacted + (hash < 0 ? '' : url.slice(hash));
}

/** The URL (a path with its query, or an absolute URL) with the values of secret-looking parameters replaced. */
export function redactUrl(url: string | undefined | null): string {
  return url ? redactQuery(url, 0) : '';
}
