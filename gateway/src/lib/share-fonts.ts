import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

/**
 * The fonts of the share images (decision 049), shipped as npm package files (TTF: librsvg reads
 * fonts through fontconfig and FreeType, which do not load the WOFF2 of @fontsource): Noto Sans for
 * Latin, Noto Sans Devanagari for Hindi and the other Devanagari names, Noto Emoji (outlines; librsvg
 * draws glyph outlines, so a colour emoji font's COLR glyphs come out blank).
 */
export const SHARE_FONT_FAMILY = 'Noto Sans, Noto Sans Devanagari, Noto Emoji';

const PACKAGES: [string, string[]][] = [
  ['@expo-google-fonts/noto-sans', ['400Regular', '700Bold']],
  ['@expo-google-fonts/noto-sans-devanagari', ['400Regular', '700Bold']],
  ['@expo-google-fonts/noto-emoji', ['400Regular']],
];

/** The folders holding the TTFs, resolved from this module the way Node resolves an import. */
export function shareFontDirs(): string[] {
  const require = createRequire(import.meta.url);
  return PACKAGES.flatMap(([name, weights]) => {
    const root = path.dirname(require.resolve(`${name}/package.json`));
    return weights.map((w) => path.join(root, w));
  });
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

let configured: string | undefined;

/**
 * Writes the fontconfig file for these fonts under tmpRoot and answers its path: in a folder named by
 * the fonts' location (shared by the processes of one install), else, when that folder cannot be used
 * (made by another user, or a file stands there), in a folder of this process's own. Throws only when
 * tmpRoot takes no folder at all.
 */
export function writeShareFontConfig(tmpRoot: string = os.tmpdir()): string {
  const dirs = shareFontDirs();
  const hash = crypto.createHash('sha1').update(dirs.join('\n')).digest('hex').slice(0, 12);
  try {
    return writeConfigIn(path.join(tmpRoot, `custom-room-fonts-${hash}`), dirs);
  } catch {
    return writeConfigIn(fs.mkdtempSync(path.join(tmpRoot, `custom-room-fonts-${hash}-`)), dirs);
  }
}

function writeConfigIn(dir: string, dirs: string[]): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'fonts.conf');
  const conf = [
    '<?xml version="1.0"?>',
    '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">',
    '<fontconfig>',
    ...dirs.map((d) => `  <dir>${xml(d)}</dir>`),
    `  <cachedir>${xml(path.join(dir, 'cache'))}</cachedir>`,
    '</fontconfig>',
    '',
  ].join('\n');
  // Written aside and renamed: processes starting together never read half a file.
  if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== conf) {
    const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
    fs.writeFileSync(tmp, conf);
    fs.renameSync(tmp, file);
  }
  return file;
}

/**
 * Points fontconfig (which libvips' librsvg and Pango use) at these fonts and at nothing else, so a
 * share image looks the same on every machine, whatever fonts its system has. fontconfig reads
 * FONTCONFIG_FILE once, on the first text it lays out in this process: call this before any SVG with
 * text is rendered (the share-image module calls it when it loads). Returns the file written, or null
 * when no temp folder can be written: the gateway still starts (its API does not need the fonts), and
 * images are drawn with the system's fonts.
 */
export function configureShareFonts(): string | null {
  if (configured) return configured;
  try {
    configured = writeShareFontConfig();
  } catch (err) {
    console.warn(`share images: cannot write the fonts' configuration (${(err as Error).message}); using the system's fonts`);
    return null;
  }
  process.env.FONTCONFIG_FILE = configured;
  return configured;
}
