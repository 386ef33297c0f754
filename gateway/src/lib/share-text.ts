import * as fontkit from 'fontkit';
import { LRUCache } from 'lru-cache';
import { shareFontFiles } from './share-fonts.js';

/**
 * Text widths measured with the share images' own font files (issue 27 item 15, decision 056), so a
 * name is cut where it really stops fitting, in any script: each grapheme takes the first font of the
 * fallback order that has it (as fontconfig picks for Pango), and each run of one font is laid out by
 * fontkit (its ligatures, conjuncts, Arabic joining and kerning). The renderer clips every text to its
 * cell as well, so a width a little off can cut a glyph's edge but never draw over a neighbour.
 */

type Font = fontkit.Font;
interface Face {
  regular: Font;
  bold: Font;
  /** No bold file: Pango draws the regular one emboldened, a little wider. */
  synthetic: boolean;
}

let faces: Face[] | undefined;

function loadFaces(): Face[] {
  if (faces) return faces;
  const open = (file: string): Font | undefined => {
    try {
      return fontkit.openSync(file) as Font;
    } catch (err) {
      // A font missing from an install draws nothing either (fontconfig skips it): measure without it.
      console.warn(`share images: cannot read the font ${file} (${(err as Error).message}); measuring without it`);
      return undefined;
    }
  };
  let files: ReturnType<typeof shareFontFiles> = [];
  try {
    files = shareFontFiles();
  } catch (err) {
    console.warn(`share images: cannot find the fonts (${(err as Error).message}); measuring by a guess`);
  }
  faces = files.flatMap((f) => {
    const regular = open(f.regular);
    if (!regular) return [];
    const bold = f.bold ? open(f.bold) : undefined;
    return [{ regular, bold: bold ?? regular, synthetic: !bold }];
  });
  return faces;
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
// What a grapheme's font is chosen by: its letters, not the marks, joiners and selectors around them.
const SECONDARY = /^(?:\p{M}|\u200C|\u200D|[\uFE00-\uFE0F])$/u;

function faceOf(grapheme: string, all: Face[]): Face {
  const points = [...grapheme].filter((c) => !SECONDARY.test(c)).map((c) => c.codePointAt(0)!);
  if (points.length === 0) points.push(grapheme.codePointAt(0)!);
  return all.find((f) => points.every((p) => f.regular.hasGlyphForCodePoint(p))) ?? all[0]!;
}

/** The run's advance in font units: shaped, or (when fontkit's shaping fails on a run) glyph by glyph. */
function advance(font: Font, run: string): number {
  try {
    return font.layout(run).advanceWidth;
  } catch {
    return [...run].reduce((sum, c) => sum + font.glyphForCodePoint(c.codePointAt(0)!).advanceWidth, 0);
  }
}

const widths = new LRUCache<string, number>({ max: 20_000 });

/** The advance of text, in em (multiply by the font size in px), regular or bold. */
export function textWidthEm(text: string, bold = false): number {
  const key = `${bold ? 'b' : 'r'}${text}`;
  const known = widths.get(key);
  if (known !== undefined) return known;
  const all = loadFaces();
  // No font could be read at all: a generous guess per grapheme (the clip still keeps the text in its cell).
  if (all.length === 0) return [...graphemes.segment(text)].length * (bold ? 0.7 : 0.66);
  let em = 0;
  let run = '';
  let face: Face | undefined;
  const flush = () => {
    if (!face || !run) return;
    const font = bold ? face.bold : face.regular;
    const width = advance(font, run) / font.unitsPerEm;
    em += bold && face.synthetic ? width * 1.04 : width;
  };
  for (const { segment } of graphemes.segment(text)) {
    const f = faceOf(segment, all);
    if (f !== face) {
      flush();
      face = f;
      run = '';
    }
    run += segment;
  }
  flush();
  widths.set(key, em);
  return em;
}

/** The advance of text at this size, in px. */
export const textWidth = (text: string, fontPx: number, bold = false) => textWidthEm(text, bold) * fontPx;
