import sharp from 'sharp';
import { MAX_MARKS_PER_LETTER } from '@custom-room/contract';
import { imageWork } from './images.js';
import { configureShareFonts, SHARE_FONT_FAMILY } from './share-fonts.js';
import { textWidth } from './share-text.js';

// Before any text is laid out in this process (decision 049).
configureShareFonts();

/**
 * Share images (issue 20, decision 049): a table on a card, drawn as SVG from escaped text and turned
 * into PNG by sharp (libvips' librsvg, with Pango and HarfBuzz shaping Devanagari). One layout for
 * every size: the points table and slot list are 1080×1350; a 1200×630 link card can reuse it.
 */
export const SHARE_RENDERER_VERSION = 2;
export const PORTRAIT = { width: 1080, height: 1350 } as const;
export const LINK_CARD = { width: 1200, height: 630 } as const;
export interface CardSize {
  width: number;
  height: number;
}

/**
 * Renders done by this process: what the tests count (a crowd of requests must render once); and a
 * running average of one render's time in ms (the render queue's Retry-After, decision 056).
 */
export const shareImageStats = { renders: 0, renderMs: 100 };

export interface TableColumn {
  label: string;
  align: 'start' | 'end' | 'center';
  /** Pixels at 1080 wide (scaled with the width); 'fill' takes what the others leave. */
  width: number | 'fill';
  bold?: boolean;
}

export interface TableRow {
  cells: string[];
  /** 1, 2 or 3: the first column is drawn as a gold, silver or bronze badge and the row is tinted. */
  medal?: 1 | 2 | 3;
}

export interface TableCard {
  /** The site's name, above the title. */
  site: string;
  title: string;
  subtitle: string;
  columns: TableColumn[];
  rows: TableRow[];
  /** The page the image is of, as text at the foot. */
  url: string;
  /** What stands for the rows left out when they do not all fit. */
  more: (hidden: number) => string;
  /** Shown instead of the rows when there are none. */
  empty: string;
  /** At most this many rows (a link card shows the top few, large); default: as many as fit. */
  maxRows?: number;
  /** Type and spacing this many times their size for the card (a link card is read small: 1.8); default 1. */
  scale?: number;
  /** false: no column header bar (a card of label/value rows, the tournament's link card); default true. */
  header?: boolean;
  /** The first this many rows qualify: a line is drawn below them (issue 27 item 23). */
  cut?: number;
  /** A line of text above the footer, e.g. what the cut line means. */
  note?: string;
}

const COLORS = {
  bg: '#0f1220',
  surface: '#181c2f',
  head: '#232842',
  line: '#2a2f4a',
  text: '#eef0f7',
  muted: '#a9afc6',
  accent: '#ff6b2c',
  medals: { 1: '#ffc857', 2: '#c9d1e0', 3: '#d99559' } as Record<1 | 2 | 3, string>,
  medalText: '#14161f',
};

// Characters that would change how other characters show (bidi embeddings, overrides and isolates,
// marks that flip a neutral), break a line, or make the SVG invalid XML (controls, lone surrogates).
// eslint-disable-next-line no-control-regex -- control characters are what this removes
const UNSAFE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\p{Cs}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\uFFFE\uFFFF]/gu;
const SPACES = /[\t\n\r\u2028\u2029]+/g;
// A run of more combining marks on one letter than any script stacks: the API refuses it since issue 27
// (item 15), older rows may hold one. The first ones are drawn, the rest dropped.
const MARK_RUN = new RegExp(`(\\p{M}{${MAX_MARKS_PER_LETTER}})\\p{M}+`, 'gu');

/** Text as it is drawn: the unsafe characters above removed, line breaks as spaces, long runs of marks cut. */
export const drawableText = (s: string) => s.replace(UNSAFE, '').replace(SPACES, ' ').replace(MARK_RUN, '$1');

/** XML text: every name is data, never markup. */
export const escapeXml = (s: string) =>
  drawableText(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** The text, cut at a grapheme with "…" when its width in the share fonts passes maxPx. */
export function fitText(text: string, maxPx: number, fontPx: number, bold = false): string {
  const drawn = drawableText(text);
  if (textWidth(drawn, fontPx, bold) <= maxPx) return drawn;
  const parts = [...graphemes.segment(drawn)].map((s) => s.segment);
  const cut = (n: number) => `${parts.slice(0, n).join('').trimEnd()}…`;
  // The longest start that fits with its "…" (a binary search: a longer start is never narrower).
  let lo = 0;
  let hi = parts.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (textWidth(cut(mid), fontPx, bold) <= maxPx) lo = mid;
    else hi = mid - 1;
  }
  return cut(lo);
}

const r1 = (n: number) => Math.round(n * 10) / 10;

/** A text's cell: it is clipped to this box, whatever its glyphs do (stacked marks, a mismeasured script). */
interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}
interface TextStyle {
  size: number;
  fill: string;
  bold?: boolean;
  anchor?: 'start' | 'middle' | 'end';
}

/** A card's measures at its size: w scales widths to 1080, u scales type and spacing (the card's scale included). */
interface Frame {
  width: number;
  height: number;
  w: number;
  u: number;
  pad: number;
  /** The width between the side paddings. */
  inner: number;
}

/** A column placed on the card. */
type PlacedColumn = TableColumn & { left: number; right: number; w: number };

/** The SVG's elements in order, and its texts each clipped to a box: nothing a text draws shows outside it (issue 27 item 15). */
class SvgCanvas {
  readonly out: string[] = [];
  #clips = 0;

  push(element: string) {
    this.out.push(element);
  }

  text(x: number, y: number, value: string, o: TextStyle, box: Box) {
    const id = `c${++this.#clips}`;
    const anchor = o.anchor && o.anchor !== 'start' ? ` text-anchor="${o.anchor}"` : '';
    const weight = o.bold ? ' font-weight="700"' : '';
    this.out.push(
      `<clipPath id="${id}"><rect x="${r1(box.x)}" y="${r1(box.y)}" width="${r1(box.w)}" height="${r1(box.h)}"/></clipPath>` +
        `<text x="${r1(x)}" y="${r1(y)}" font-size="${r1(o.size)}" fill="${o.fill}"${weight}${anchor} clip-path="url(#${id})">${escapeXml(value)}</text>`,
    );
  }
}

/** A full-width band of the card between two heights. */
const band = (f: Frame, top: number, bottom: number): Box => ({ x: f.pad, y: top, w: f.inner, h: bottom - top });

/** The accent bar, the site's name, the title and the subtitle; answers where the table starts. */
function drawHeading(svg: SvgCanvas, card: TableCard, f: Frame): number {
  const { u, pad, inner } = f;
  svg.push(`<rect width="${f.width}" height="${f.height}" fill="${COLORS.bg}"/>`);
  svg.push(`<rect width="${f.width}" height="${r1(10 * u)}" fill="${COLORS.accent}"/>`);
  const siteSize = 26 * u;
  const titleSize = 52 * u;
  const subSize = 30 * u;
  const siteY = 40 * u + siteSize;
  const titleY = siteY + 22 * u + titleSize;
  const subY = titleY + 16 * u + subSize;
  const tableTop = subY + 34 * u;
  // The heading's lines share the space between the accent bar and the table: each line's band ends a
  // third of its size below its baseline (room for descenders and the marks below Indic letters).
  const siteEnd = siteY + 0.35 * siteSize;
  const titleEnd = titleY + 0.31 * titleSize;
  const site = fitText(card.site.toUpperCase(), inner, siteSize, true);
  svg.text(pad, siteY, site, { size: siteSize, fill: COLORS.accent, bold: true }, band(f, 10 * u, siteEnd));
  const title = fitText(card.title, inner, titleSize, true);
  svg.text(pad, titleY, title, { size: titleSize, fill: COLORS.text, bold: true }, band(f, siteEnd, titleEnd));
  svg.text(pad, subY, fitText(card.subtitle, inner, subSize), { size: subSize, fill: COLORS.muted }, band(f, titleEnd, tableTop));
  return tableTop;
}

/** Columns: fixed widths scaled to the card, the 'fill' one takes the rest. */
function placeColumns(columns: readonly TableColumn[], f: Frame): PlacedColumn[] {
  const fixed = columns.reduce((sum, c) => sum + (c.width === 'fill' ? 0 : c.width * f.w), 0);
  let x = f.pad;
  return columns.map((c) => {
    const cw = c.width === 'fill' ? f.inner - fixed : c.width * f.w;
    const col = { ...c, left: x, right: x + cw, w: cw };
    x += cw;
    return col;
  });
}

/** Where a cell's text is anchored, and how: by the column's alignment, inside its padding. */
const cellX = (c: PlacedColumn, cellPad: number) =>
  c.align === 'start' ? c.left + cellPad : c.align === 'end' ? c.right - cellPad : (c.left + c.right) / 2;
const anchorOf = (c: PlacedColumn) => (c.align === 'start' ? 'start' : c.align === 'end' ? 'end' : 'middle');
const cellBox = (c: PlacedColumn, top: number, h: number): Box => ({ x: c.left, y: top, w: c.w, h });

/** The column header bar and its labels (none when card.header is false); answers its height. */
function drawColumnHeader(svg: SvgCanvas, card: TableCard, f: Frame, cols: readonly PlacedColumn[], tableTop: number): number {
  if (card.header === false) return 0;
  const { u, pad, inner } = f;
  const headH = 48 * u;
  const headSize = 22 * u;
  const cellPad = 10 * f.w;
  svg.push(`<rect x="${r1(pad)}" y="${r1(tableTop)}" width="${r1(inner)}" height="${r1(headH)}" rx="${r1(8 * u)}" fill="${COLORS.head}"/>`);
  for (const c of cols) {
    svg.text(
      cellX(c, cellPad),
      tableTop + headH / 2 + headSize * 0.36,
      fitText(c.label, c.w - 2 * cellPad, headSize, true),
      { size: headSize, fill: COLORS.muted, bold: true, anchor: anchorOf(c) },
      cellBox(c, tableTop, headH),
    );
  }
  return headH;
}

/** How the rows share the space between the header and the note and footer: how many show, how tall, in what type. */
function rowLayout(card: TableCard, f: Frame, rowsTop: number) {
  const { u } = f;
  const footerTop = f.height - 110 * u;
  const noteH = card.note ? 40 * u : 0;
  const avail = footerTop - 14 * u - noteH - rowsTop;
  const minRowH = 30 * u;
  const n = card.rows.length;
  const fit = Math.min(n, card.maxRows ?? n);
  const shown = fit * minRowH > avail || fit < n ? Math.max(0, Math.min(fit, Math.floor(avail / minRowH) - 1)) : n;
  const hidden = n - shown;
  const rowH = Math.min(56 * u, avail / Math.max(1, shown + (hidden > 0 ? 1 : 0)));
  return { rowsTop, footerTop, noteH, n, shown, hidden, rowH, rowSize: Math.min(28 * u, rowH * 0.6) };
}
type RowLayout = ReturnType<typeof rowLayout>;

/** One row: its tint (a medal's, or every other row's), the first cell as a medal badge when it has one, then its cells. */
function drawRow(svg: SvgCanvas, f: Frame, cols: readonly PlacedColumn[], rows: RowLayout, i: number, row: TableRow) {
  const { u, pad, inner } = f;
  const { rowH, rowSize } = rows;
  const cellPad = 10 * f.w;
  const top = rows.rowsTop + i * rowH;
  const base = top + rowH / 2 + rowSize * 0.36;
  const fill = row.medal ? COLORS.medals[row.medal] : i % 2 === 1 ? COLORS.surface : undefined;
  if (fill) {
    const opacity = row.medal ? ' fill-opacity="0.14"' : '';
    svg.push(
      `<rect x="${r1(pad)}" y="${r1(top + 1)}" width="${r1(inner)}" height="${r1(rowH - 2)}" rx="${r1(6 * u)}" fill="${fill}"${opacity}/>`,
    );
  }
  for (const [j, c] of cols.entries()) {
    const value = row.cells[j] ?? '';
    const box = cellBox(c, top, rowH);
    if (j === 0 && row.medal) {
      const cx = (c.left + c.right) / 2;
      svg.push(
        `<circle cx="${r1(cx)}" cy="${r1(top + rowH / 2)}" r="${r1(Math.min(rowH * 0.4, 22 * u))}" fill="${COLORS.medals[row.medal]}"/>`,
      );
      svg.text(cx, base, value, { size: rowSize, fill: COLORS.medalText, bold: true, anchor: 'middle' }, box);
      continue;
    }
    const bold = c.bold || (c.width === 'fill' && !!row.medal);
    svg.text(
      cellX(c, cellPad),
      base,
      fitText(value, c.w - 2 * cellPad, rowSize, bold),
      { size: rowSize, fill: j === 0 ? COLORS.muted : COLORS.text, bold, anchor: anchorOf(c) },
      box,
    );
  }
}

/** The rows that fit (or the empty text), the cut line, the note, and what stands for the rows left out. */
function drawBody(svg: SvgCanvas, card: TableCard, f: Frame, cols: readonly PlacedColumn[], rows: RowLayout) {
  const { u, pad, inner } = f;
  const { rowsTop, footerTop, noteH, n, shown, hidden, rowH, rowSize } = rows;
  if (n === 0) {
    const emptySize = 28 * u;
    const empty = fitText(card.empty, inner, emptySize);
    svg.text(f.width / 2, rowsTop + 80 * u, empty, { size: emptySize, fill: COLORS.muted, anchor: 'middle' }, band(f, rowsTop, footerTop));
  }
  for (let i = 0; i < shown; i++) drawRow(svg, f, cols, rows, i, card.rows[i]!);
  // The cut line: below the last qualifying row, in the accent colour, across the table (and said in the note).
  if (card.cut !== undefined && card.cut > 0 && card.cut < n && card.cut <= shown) {
    const lineH = Math.max(2, 3 * u);
    const y = rowsTop + card.cut * rowH - lineH / 2;
    svg.push(`<rect x="${r1(pad)}" y="${r1(y)}" width="${r1(inner)}" height="${r1(lineH)}" fill="${COLORS.accent}"/>`);
  }
  if (card.note) {
    const top = footerTop - 14 * u - noteH;
    const noteSize = 22 * u;
    const note = fitText(card.note, inner, noteSize);
    svg.text(pad, top + noteH / 2 + noteSize * 0.36, note, { size: noteSize, fill: COLORS.muted }, band(f, top, top + noteH));
  }
  if (hidden > 0) {
    const top = rowsTop + shown * rowH;
    const moreSize = rowSize * 0.9;
    const more = fitText(card.more(hidden), inner, moreSize);
    svg.text(
      f.width / 2,
      top + rowH / 2 + rowSize * 0.36,
      more,
      { size: moreSize, fill: COLORS.muted, anchor: 'middle' },
      band(f, top, top + rowH),
    );
  }
}

/** The footer: a line, the site's name and the page's address. */
function drawFooter(svg: SvgCanvas, card: TableCard, f: Frame, footerTop: number) {
  const { u, pad, inner } = f;
  svg.push(`<rect x="${r1(pad)}" y="${r1(footerTop)}" width="${r1(inner)}" height="${r1(2 * u)}" fill="${COLORS.line}"/>`);
  const footSite = 28 * u;
  const footSiteEnd = footerTop + 46 * u + 0.35 * footSite;
  const site = fitText(card.site, inner, footSite, true);
  svg.text(pad, footerTop + 46 * u, site, { size: footSite, fill: COLORS.text, bold: true }, band(f, footerTop + 2 * u, footSiteEnd));
  svg.text(pad, footerTop + 84 * u, fitText(card.url, inner, 22 * u), { size: 22 * u, fill: COLORS.muted }, band(f, footSiteEnd, f.height));
}

/** The SVG of a table card at this size. Every string from the card goes through escapeXml. */
export function tableCardSvg(card: TableCard, size: CardSize = PORTRAIT): string {
  const { width, height } = size;
  const w = width / 1080;
  const u = Math.min(w, height / 1350 / 0.8, 1.15) * (card.scale ?? 1);
  const pad = 48 * w;
  const frame: Frame = { width, height, w, u, pad, inner: width - 2 * pad };
  const svg = new SvgCanvas();
  const tableTop = drawHeading(svg, card, frame);
  const cols = placeColumns(card.columns, frame);
  const headH = drawColumnHeader(svg, card, frame, cols, tableTop);
  const rows = rowLayout(card, frame, tableTop + headH + 6 * u);
  drawBody(svg, card, frame, cols, rows);
  drawFooter(svg, card, frame, rows.footerTop);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${SHARE_FONT_FAMILY}">`,
    ...svg.out,
    '</svg>',
  ].join('\n');
}

/** The PNG of a table card: one sharp job in its turn with the other image work (decision 032). */
export function renderTableCard(card: TableCard, size: CardSize = PORTRAIT): Promise<Buffer> {
  const svg = Buffer.from(tableCardSvg(card, size));
  return imageWork(async () => {
    shareImageStats.renders += 1;
    const started = performance.now();
    // Truecolour at zlib level 6: a 256-colour palette made the file 2.3× smaller but tripled the render
    // time (libimagequant) and dulled the medal colours; the bytes are cached here and by CDNs.
    const png = await sharp(svg, { density: 72 }).png({ compressionLevel: 6 }).toBuffer();
    shareImageStats.renderMs = shareImageStats.renderMs * 0.8 + (performance.now() - started) * 0.2;
    return png;
  });
}
