import { safeRedirect } from 'remix-utils/safe-redirect';

/** Only relative paths on this site ("/x"), never "//evil.example" or "https://…"; anything else becomes "/". */
export function safeRedirectPath(to: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  const target = safeRedirect(to, fallback);
  // remix-utils already refuses "//" and absolute URLs; also refuse backslashes and control characters
  // (browsers drop tabs and newlines inside URLs, so "/\t/evil.example" would become "//evil.example").
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  return /[\\\u0000-\u001f\u007f]/.test(target) ? fallback : target;
}
