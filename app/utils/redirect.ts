import { safeRedirect } from 'remix-utils/safe-redirect';

/** Only relative paths on this site ("/x"), never "//evil.example" or "https://…"; anything else becomes "/". */
export function safeRedirectPath(to: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  const target = safeRedirect(to, fallback);
  // remix-utils already refuses "//" and absolute URLs; also refuse backslash tricks browsers normalise to "//".
  return target.includes('\\') ? fallback : target;
}
