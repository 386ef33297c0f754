import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The fonts of the share images (decisions 049 and 056), shipped as npm package files (TTF: librsvg reads
 * fonts through fontconfig and FreeType, which do not load the WOFF2 of @fontsource). In fallback order:
 * Noto Sans for Latin, then the scripts players in India write names in (Devanagari, Bengali, Gurmukhi,
 * Gujarati, Oriya, Tamil, Telugu, Kannada, Malayalam, Arabic for Urdu), Thai and Javanese (꧁ ꧂ frame
 * many names), Noto Emoji (outlines; librsvg draws glyph outlines, so a colour emoji font's COLR glyphs
 * come out blank), symbols (☬ ♛ ★), mathematical letters (𝓐 𝕬: a subset of Noto Sans Math),
 * Tibetan (༒) and the CJK characters of clan tags (亗 乂 彡 ツ 『』: a subset of Noto Sans SC). The two subsets
 * are kept in gateway/fonts (scripts/subset-cjk-font.mjs makes them).
 */
export interface ShareFont {
  family: string;
  /** The package the TTFs come from; none: this repository's gateway/fonts. */
  pkg?: string;
  /** The regular and (when the family has one) bold files, relative to the package or gateway/fonts. */
  regular: string;
  bold?: string;
}

const expo = (family: string, pkg: string, file: string, bold = true): ShareFont => ({
  family,
  pkg: `@expo-google-fonts/${pkg}`,
  regular: `400Regular/${file}_400Regular.ttf`,
  ...(bold ? { bold: `700Bold/${file}_700Bold.ttf` } : {}),
});

export const SHARE_FONTS: readonly ShareFont[] = [
  expo('Noto Sans', 'noto-sans', 'NotoSans'),
  expo('Noto Sans Devanagari', 'noto-sans-devanagari', 'NotoSansDevanagari'),
  expo('Noto Sans Bengali', 'noto-sans-bengali', 'NotoSansBengali'),
  expo('Noto Sans Gurmukhi', 'noto-sans-gurmukhi', 'NotoSansGurmukhi'),
  expo('Noto Sans Gujarati', 'noto-sans-gujarati', 'NotoSansGujarati'),
  expo('Noto Sans Oriya', 'noto-sans-oriya', 'NotoSansOriya'),
  expo('Noto Sans Tamil', 'noto-sans-tamil', 'NotoSansTamil'),
  expo('Noto Sans Telugu', 'noto-sans-telugu', 'NotoSansTelugu'),
  expo('Noto Sans Kannada', 'noto-sans-kannada', 'NotoSansKannada'),
  expo('Noto Sans Malayalam', 'noto-sans-malayalam', 'NotoSansMalayalam'),
  expo('Noto Sans Arabic', 'noto-sans-arabic', 'NotoSansArabic'),
  expo('Noto Sans Thai', 'noto-sans-thai', 'NotoSansThai'),
  expo('Noto Sans Javanese', 'noto-sans-javanese', 'NotoSansJavanese'),
  expo('Noto Emoji', 'noto-emoji', 'NotoEmoji', false),
  expo('Noto Sans Symbols', 'noto-sans-symbols', 'NotoSansSymbols'),
  expo('Noto Sans Symbols 2', 'noto-sans-symbols-2', 'NotoSansSymbols2', false),
  // Only its letters (scripts/subset-cjk-font.mjs): the whole font has unjoined Arabic letters Pango took for Arabic names.
  { family: 'Noto Sans Math', regular: 'NotoSansMathLetters-400Regular.ttf' },
  expo('Noto Serif Tibetan', 'noto-serif-tibetan', 'NotoSerifTibetan'),
  { family: 'Noto Sans SC', regular: 'NotoSansCJKSymbols-400Regular.ttf', bold: 'NotoSansCJKSymbols-700Bold.ttf' },
];

/** The SVG's font-family: every family in fallback order. */
export const SHARE_FONT_FAMILY = SHARE_FONTS.map((f) => f.family).join(', ');

/** This repository's fonts: gateway/fonts, beside src/ and dist/. */
const LOCAL_FONTS = fileURLToPath(new URL('../../fonts/', import.meta.url));

/** Each font's regular and bold file, resolved from this module the way Node resolves an import. */
export function shareFontFiles(): { family: string; regular: string; bold?: string }[] {
  const require = createRequire(import.meta.url);
  return SHARE_FONTS.map((f) => {
    const root = f.pkg ? path.dirname(require.resolve(`${f.pkg}/package.json`)) : LOCAL_FONTS;
    return { family: f.family, regular: path.join(root, f.regular), ...(f.bold ? { bold: path.join(root, f.bold) } : {}) };
  });
}

/** The folders holding the TTFs (what fontconfig is told to read). */
export function shareFontDirs(): string[] {
  const files = shareFontFiles().flatMap((f) => [f.regular, ...(f.bold ? [f.bold] : [])]);
  return [...new Set(files.map((f) => path.dirname(f)))];
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
