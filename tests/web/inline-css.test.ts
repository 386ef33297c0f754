import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';

// Decision 025 (amended): every stylesheet a module imports as a side effect ends in the CSS bundle that
// root.tsx inlines into every page. The organiser screens' sheets are linked by routes/admin.tsx instead:
// inline, they pushed the public pages' HTML past one TCP round trip (14.6 KB, Lighthouse's LCP +150–250 ms).
const APP = 'app';
const ADMIN_SHEETS = ['admin.css', 'admin-ops.css', 'admin-stages.css', 'lobby-reports.css'];
// The inlined CSS, minified and gzipped (6.0 KB when this was written; 7.7 KB before issue 29 and 8.1 KB after it
// put the pages over the round trip). More means less room for a page's own content in its first 14.6 KB.
const INLINE_CSS_BUDGET = 6.5 * 1024;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

const modules = sourceFiles(APP).map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));
/** The stylesheets a module imports for their side effect (into the bundle), as paths from the repository's root. */
function sideEffectSheets(file: string, text: string): string[] {
  return [...text.matchAll(/^import '([^']+\.css)';$/gm)].map(([, spec]) =>
    spec!.startsWith('~/')
      ? path.join(APP, spec!.slice(2))
      : spec!.startsWith('.')
        ? path.join(path.dirname(file), spec!)
        : path.join('node_modules', spec!),
  );
}

/** Near enough to esbuild's minifier for a budget: no comments, no runs of white space. */
const minify = (css: string) =>
  css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{}:;,>+~])\s*/g, '$1')
    .replace(/;}/g, '}')
    .trim();

describe('the inlined stylesheet', () => {
  it('holds no organiser sheet: only routes/admin.tsx names them, as linked stylesheets', () => {
    const importers = modules.filter(({ file, text }) =>
      sideEffectSheets(file, text).some((sheet) => ADMIN_SHEETS.includes(path.basename(sheet))),
    );
    expect(importers.map(({ file }) => file)).toEqual([]);
    const layout = fs.readFileSync(path.join(APP, 'routes/admin.tsx'), 'utf8');
    for (const sheet of ADMIN_SHEETS) expect(layout).toMatch(new RegExp(`^import \\w+ from '~/styles/${sheet}';$`, 'm'));
    expect(layout).toMatch(/export const links: LinksFunction/);
  });

  it(`stays within ${INLINE_CSS_BUDGET / 1024} KB gzip`, () => {
    const sheets = [...new Set(modules.flatMap(({ file, text }) => sideEffectSheets(file, text)))].sort();
    expect(sheets).toContain(path.join(APP, 'styles/app.css'));
    const css = sheets.map((sheet) => minify(fs.readFileSync(sheet, 'utf8'))).join('');
    expect(zlib.gzipSync(css).length).toBeLessThanOrEqual(INLINE_CSS_BUDGET);
  });
});
