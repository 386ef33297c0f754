import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { INLINE_CSS_MARK } from './document.server';

let cached: { href: string; css: string | null } | undefined;

/**
 * The text of the app's one stylesheet (the CSS bundle, /build/css-bundle-*.css), read once from the
 * public build directory beside the server build (build/index.js → public/build/). Null when it cannot
 * be read (dev server, tests): the page then links the file as before. Decision 025.
 */
export function readInlineCss(href: string | undefined): string | null {
  if (!href) return null;
  if (cached?.href === href) return cached.css;
  let css: string | null = null;
  try {
    const text = fs.readFileSync(fileURLToPath(new URL(`../public${href}`, import.meta.url)), 'utf8');
    // Raw text inside <style>: a "</style" would end the element early. Our CSS never has one; refuse to inline if it did.
    css = /<\/style/i.test(text) ? null : text.replace(/\/\*# sourceMappingURL=[^*]*\*\/\s*$/, '');
  } catch {
    css = null;
  }
  cached = { href, css };
  return css;
}

/**
 * What root.tsx renders inside the inline <style> on the server: the mark the document puts the stylesheet's
 * text in place of (app/utils/document.server.ts, decision 090), or null when there is none to inline.
 */
export function inlineCssMark(href: string | undefined): string | null {
  return readInlineCss(href) === null ? null : INLINE_CSS_MARK;
}
