import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { renderTableCard, tableCardSvg, type TableCard } from '../../gateway/src/lib/share-image.js';
import { textWidth } from '../../gateway/src/lib/share-text.js';

/**
 * Issue 27 item 15 (decision 056): a team name cannot deface a share image. Names in the scripts players
 * use draw real glyphs (not the boxes of a missing font), and whatever a name holds (stacked marks from an
 * older row, a long name in any script) draws inside its own cell: every pixel outside the name cells is
 * the same as with no names at all.
 */

const WIDTH = 1080;
const HEIGHT = 1350;

const card = (names: string[]): TableCard => ({
  site: 'Custom Room',
  title: 'Scripts Cup',
  subtitle: 'BGMI · Overall',
  columns: [
    { label: '#', align: 'center', width: 76 },
    { label: 'Team', align: 'start', width: 'fill' },
    { label: 'M', align: 'end', width: 64 },
    { label: 'Total', align: 'end', width: 104, bold: true },
  ],
  rows: names.map((n, i) => ({ cells: [String(i + 1), n, '3', String(40 - i)], ...(i < 3 ? { medal: (i + 1) as 1 | 2 | 3 } : {}) })),
  url: 'http://localhost:3000/tournaments/1/points-table',
  more: (n) => `and ${n} more teams`,
  empty: 'No results yet.',
});

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The boxes the renderer clips each name to, read from its SVG (the Team column's cells, in row order). */
function nameCells(names: string[]): Box[] {
  const svg = tableCardSvg(card(names));
  const clips = new Map(
    [...svg.matchAll(/<clipPath id="(c\d+)"><rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"\/><\/clipPath>/g)].map(
      (m) => [m[1]!, { x: Number(m[2]), y: Number(m[3]), w: Number(m[4]), h: Number(m[5]) }],
    ),
  );
  // The Team column's cells: the texts drawn at its left edge below the header.
  const cells = [...svg.matchAll(/<text x="([\d.]+)" y="([\d.]+)"[^>]*clip-path="url\(#(c\d+)\)">/g)]
    .map((m) => ({ x: Number(m[1]), y: Number(m[2]), box: clips.get(m[3]!)! }))
    .filter((t) => t.x > 120 && t.x < 150 && t.y > 300 && t.y < 1200);
  expect(cells).toHaveLength(names.length);
  return cells.map((c) => c.box);
}

async function pixels(names: string[]): Promise<Buffer> {
  const png = await renderTableCard(card(names));
  return sharp(png).removeAlpha().raw().toBuffer();
}

const inside = (x: number, y: number, boxes: Box[]) =>
  boxes.some((b) => x >= b.x - 1 && x < b.x + b.w + 1 && y >= b.y - 1 && y < b.y + b.h + 1);

/** Pixels that differ from the reference outside the given boxes. */
function strayPixels(a: Buffer, b: Buffer, boxes: Box[]): number {
  let stray = 0;
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const i = (y * WIDTH + x) * 3;
      if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) if (!inside(x, y, boxes)) stray += 1;
    }
  }
  return stray;
}

/** The ink of a cell: the bounding box of the pixels that differ from the same cell drawn empty. */
function inkBox(a: Buffer, blank: Buffer, box: Box) {
  let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let y = Math.floor(box.y); y < box.y + box.h; y++) {
    for (let x = Math.floor(box.x); x < box.x + box.w; x++) {
      const i = (y * WIDTH + x) * 3;
      if (Math.abs(a[i]! - blank[i]!) + Math.abs(a[i + 1]! - blank[i + 1]!) + Math.abs(a[i + 2]! - blank[i + 2]!) > 60) {
        [left, top, right, bottom] = [Math.min(left, x), Math.min(top, y), Math.max(right, x), Math.max(bottom, y)];
      }
    }
  }
  return { w: right - left + 1, h: bottom - top + 1 };
}

describe('names in the share images (issue 27 item 15)', () => {
  it('Javanese, Arabic, Thai, Bengali, Tamil, Tibetan and CJK clan-tag characters draw glyphs, not the box of a missing one', async () => {
    // U+E000 (private use) is in none of the fonts: it draws the missing-glyph box, as every character
    // of these names did before. A real glyph's ink differs from that box's.
    const MISSING = '\uE000';
    const samples = ['ꦱ', '꧁', 'ع', 'ท', 'ব', 'த', '༒', '亗', '乂', 'ツ', '☬', '𝓐'];
    const names = [MISSING, ...samples];
    const cells = nameCells(names);
    const drawn = await pixels(names);
    const blank = await pixels(names.map(() => ''));
    const box = inkBox(drawn, blank, cells[0]!);
    expect(box.w).toBeGreaterThan(5);
    for (const [i, sample] of samples.entries()) {
      const ink = inkBox(drawn, blank, cells[i + 1]!);
      expect(ink.w, `${sample} draws something`).toBeGreaterThan(3);
      expect([ink.w, ink.h], `${sample} is not the missing-glyph box`).not.toEqual([box.w, box.h]);
    }
  });

  it('Arabic letters join (the Arabic font shapes them, not another font that has the letters alone)', async () => {
    // U+200C (zero-width non-joiner) between the letters: each one drawn alone, as a font without the
    // joining forms draws them. A joined word is narrower and its ink different.
    const joined = 'محمد علی';
    const apart = [...joined].join('\u200C');
    // Below the medal rows: their names are bold, and a font without a bold face is not taken for them.
    const names = ['First', 'Second', 'Third', joined, apart];
    const cells = nameCells(names);
    const drawn = await pixels(names);
    const blank = await pixels(names.map(() => ''));
    const [a, b] = [inkBox(drawn, blank, cells[3]!), inkBox(drawn, blank, cells[4]!)];
    expect(a.w).toBeGreaterThan(20);
    expect(b.w - a.w).toBeGreaterThan(4);
  });

  it('stays inside its cell: stacked marks, long names in any script and wide characters leave every other pixel as it was', async () => {
    const zalgo = `Z${'\u0301\u0300\u0302\u0303\u0304\u0306\u0307\u0308\u030A\u030B\u030C\u030F\u0311\u0313'.repeat(3)}alg${'\u0316\u0317\u0318'.repeat(3)}o`;
    const names = [
      zalgo,
      'ꦥꦤ꧀ꦢꦮꦱꦼꦤꦺꦴꦥꦠꦶꦱꦿꦶꦮꦶꦗꦪꦏꦸꦱꦸꦩꦲꦏꦫꦗꦤꦶꦫꦩꦤ꧀ꦢꦒ',
      'فريق الصقور الذهبية للرياضات الإلكترونية الهندية',
      'ทีมเสือดำแห่งประเทศไทยผู้ยิ่งใหญ่ที่สุดในโลกนี้',
      '亗亗亗亗亗亗亗亗亗亗亗亗亗亗亗亗亗亗亗亗亗亗亗亗亗亗',
      '꧁༒☬𝓡𝓞𝓗𝓘𝓣☬༒꧂ ꧁༒☬𝓢𝓞𝓤𝓛☬༒꧂ ꧁༒☬𝓚𝓘𝓝𝓖☬༒꧂',
      'ক্ষত্রিয় যোদ্ধা দল বাংলার সেরা দল চিরকাল',
      'WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW',
      '🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥',
    ];
    const cells = nameCells(names);
    const drawn = await pixels(names);
    const blank = await pixels(names.map(() => ''));
    expect(strayPixels(drawn, blank, cells)).toBe(0);
    // Names too wide are cut with "…" where the real font's width says, not left to the clip.
    const svg = tableCardSvg(card(names));
    expect(svg).toMatch(/>W+…</);
    expect(svg).toMatch(/>亗+…</);
  });

  it('measures with the fonts that draw: a name that fits is kept whole, and the cut text fits its cell', () => {
    const short = 'ꦱꦸꦫꦧꦪ';
    const svg = tableCardSvg(card([short, 'محمد علی', 'ทีมไทย', '亗 Clan 亗']));
    for (const n of [short, 'محمد علی', 'ทีมไทย', '亗 Clan 亗']) expect(svg).toContain(`>${n}<`);
    // A real width for each script, in the range of its glyphs (not zero, not the estimate of a box).
    for (const n of [short, 'محمد علی', 'ทีมไทย', '亗']) {
      const w = textWidth(n, 28);
      expect(w, n).toBeGreaterThan(10);
      expect(w, n).toBeLessThan(28 * 1.2 * [...n].length);
    }
  });
});
