/**
 * Scripts after the first screen (decision 028). Every page works without JavaScript; React and Remix
 * (~90 KB gzip) only enhance it. On a slow phone link they used to share the bandwidth with the HTML's
 * own content, the largest cover above all. This rewrites what Remix's `<Scripts>` rendered so that
 * the browser fetches no module before the page's `load` event (every eager image in) and one painted
 * frame after it, or after BOOT_CAP_MS if an image hangs:
 *
 * - each `<link rel="modulepreload" href="X">` becomes `<link rel="x-held-modulepreload" data-href="X">`,
 *   a link of a kind browsers ignore, until the boot gives it its rel and href back (a modulepreload
 *   without href, as before decision 036, made Chromium warn once per link on every page load);
 * - the inline module script's static route imports become dynamic imports that run after the wait.
 *   The rest of the script (manifest, route modules, the entry import) is Remix's, unchanged and in
 *   the same order.
 *
 * React does not patch attributes or inline script text while hydrating, and the boot restores each
 * link to exactly what React rendered, so hydration sees the server's tree. If Remix ever renders
 * these differently the page is left as it was (the scripts then load at once, as before) and the
 * test that reads a page's resource timings fails.
 */

/** How long the boot waits for `load` before starting anyway (an image stuck on a bad network). */
export const BOOT_CAP_MS = 3000;

const PRELOAD = /<link rel="modulepreload" href="([^"]+)"/g;
/** The rel a held-back preload carries until the boot: no browser knows it, so none fetches or warns. */
export const HELD_REL = 'x-held-modulepreload';
const MODULE_SCRIPT = /(<script\b[^>]*\btype="module"[^>]*>)([\s\S]*?)(<\/script>)/;
const STATIC_ROUTE_IMPORT = /^import \* as (route\d+) from ("[^"]+");$/gm;
const STATIC_IMPORT = /^import ("[^"]+");$/gm;

/** Waits for load and a painted frame (capped), then hands every held-back preload its href and rel. */
const BOOT =
  'await new Promise(function(r){var t=setTimeout(r,' +
  BOOT_CAP_MS +
  ');function g(){requestAnimationFrame(function(){setTimeout(function(){clearTimeout(t);r()},0)})}' +
  'document.readyState==="complete"?g():addEventListener("load",g,{once:true})});' +
  'document.querySelectorAll("link[rel=' +
  HELD_REL +
  '][data-href]").forEach(function(l){l.href=l.dataset.href;l.rel="modulepreload"});\n';

/** The page's HTML with its module scripts held back until after the first screen (see above). */
export function deferModuleScripts(html: string): string {
  const script = MODULE_SCRIPT.exec(html);
  if (!script) return html;
  const [whole, open, body, close] = script;
  const routes: Array<[string, string]> = [];
  let rest = body.replace(STATIC_ROUTE_IMPORT, (_m, name: string, url: string) => {
    routes.push([name, url]);
    return '';
  });
  const plain: string[] = [];
  rest = rest.replace(STATIC_IMPORT, (_m, url: string) => {
    plain.push(url);
    return '';
  });
  // Anything else static left in the script would still be fetched at once: leave the page alone.
  if (!routes.length || /^\s*import\s*[^(\s]/m.test(rest)) return html;
  const imports =
    plain.map((u) => `await import(${u});\n`).join('') +
    `const [${routes.map(([n]) => n).join(',')}]=await Promise.all([${routes.map(([, u]) => `import(${u})`).join(',')}]);\n`;
  const deferred = open + BOOT + imports + rest.replace(/^\n+/, '') + close;
  const at = script.index;
  const before = html.slice(0, at).replace(PRELOAD, `<link rel="${HELD_REL}" data-href="$1"`);
  return before + deferred + html.slice(at + whole.length);
}
