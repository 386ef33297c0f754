import sharp from 'sharp';
import { imageWork } from './images.js';
import { configureShareFonts, SHARE_FONT_FAMILY } from './share-fonts.js';

// Before any text is laid out in this process (decision 049).
configureShareFonts();

/**
 * Share images (issue 20, decision 049): a table on a card, drawn as SVG from escaped text and turned
 * into PNG by sharp (libvips' librsvg, with Pango and HarfBuzz shaping Devanagari). One layout for
 * every size: the points table and slot list are 1080×1350; a 1200×630 link card can reuse it.
 */
export const SHARE_RENDERER_VERSION = 1;
export const PORTRAIT = { width: 1080, height: 1350 } as const;
export const LINK_CARD = { width: 1200, height: 630 } as const;
export interface CardSize {
  width: number;
  height: number;
}

/** Renders done by this process: what the tests count (a crowd of requests must render once). */
export const shareImageStats = { renders: 0 };

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

/** Text as it is drawn: the unsafe characters above removed, line breaks as spaces. */
export const drawableText = (s: string) => s.replace(UNSAFE, '').replace(SPACES, ' ');

/** XML text: every name is data, never markup. */
export const escapeXml = (s: string) =>
  drawableText(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
const WIDE = /\p{Extended_Pictographic}|\p{Regional_Indicator}|[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFF00-\uFF60]/u;

/** A generous estimate of a grapheme's advance in em (Noto Sans): text is cut before it could overflow. */
function advance(g: string, bold: boolean): number {
  let em: number;
  if (WIDE.test(g)) em = 1.25;
  else if (/[\u0900-\u097F]/.test(g)) em = 0.62;
  else if (g === ' ') em = 0.27;
  else if (/[A-Z0-9MW@%&]/.test(g)) em = /[MW@%&]/.test(g) ? 0.9 : 0.66;
  else if (/[iljtf.,:;'!|()[\]]/.test(g)) em = 0.3;
  else if (/[mw]/.test(g)) em = 0.88;
  else em = 0.57;
  return bold ? em * 1.06 : em;
}

/** The text, cut at a grapheme with "…" when its estimated width passes maxPx. */
export function fitText(text: string, maxPx: number, fontPx: number, bold = false): string {
  const parts = [...graphemes.segment(drawableText(text))].map((s) => s.segment);
  let width = 0;
  for (let i = 0; i < parts.length; i++) {
    width += advance(parts[i]!, bold) * fontPx;
    if (width > maxPx) {
      const room = maxPx - advance('…', bold) * fontPx;
      let w = 0;
      let j = 0;
      while (j < parts.length && w + advance(parts[j]!, bold) * fontPx <= room) w += advance(parts[j++]!, bold) * fontPx;
      return `${parts.slice(0, j).join('').trimEnd()}…`;
    }
  }
  return parts.join('');
}

const r1 = (n: number) => Math.round(n * 10) / 10;

function text(x: number, y: number, value: string, o: { size: number; fill: string; bold?: boolean; anchor?: 'start' | 'middle' | 'end' }) {
  const anchor = o.anchor && o.anchor !== 'start' ? ` text-anchor="${o.anchor}"` : '';
  const weight = o.bold ? ' font-weight="700"' : '';
  return `<text x="${r1(x)}" y="${r1(y)}" font-size="${r1(o.size)}" fill="${o.fill}"${weight}${anchor}>${escapeXml(value)}</text>`;
}

/** The SVG of a table card at this size. Every string from the card goes through escapeXml. */
export function tableCardSvg(card: TableCard, size: CardSize = PORTRAIT): string {
  const { width, height } = size;
  const w = width / 1080;
  const u = Math.min(w, height / 1350 / 0.8, 1.15) * (card.scale ?? 1);
  const pad = 48 * w;
  const out: string[] = [];
  out.push(`<rect width="${width}" height="${height}" fill="${COLORS.bg}"/>`);
  out.push(`<rect width="${width}" height="${r1(10 * u)}" fill="${COLORS.accent}"/>`);

  const siteSize = 26 * u;
  const titleSize = 52 * u;
  const subSize = 30 * u;
  const siteY = 40 * u + siteSize;
  const titleY = siteY + 22 * u + titleSize;
  const subY = titleY + 16 * u + subSize;
  const inner = width - 2 * pad;
  out.push(text(pad, siteY, card.site.toUpperCase(), { size: siteSize, fill: COLORS.accent, bold: true }));
  out.push(text(pad, titleY, fitText(card.title, inner, titleSize, true), { size: titleSize, fill: COLORS.text, bold: true }));
  out.push(text(pad, subY, fitText(card.subtitle, inner, subSize), { size: subSize, fill: COLORS.muted }));

  // Columns: fixed widths scaled to the card, the 'fill' one takes the rest.
  const fixed = card.columns.reduce((sum, c) => sum + (c.width === 'fill' ? 0 : c.width * w), 0);
  let x = pad;
  const cols = card.columns.map((c) => {
    const cw = c.width === 'fill' ? inner - fixed : c.width * w;
    const col = { ...c, left: x, right: x + cw, w: cw };
    x += cw;
    return col;
  });
  const cellPad = 10 * w;
  const cellX = (c: (typeof cols)[number]) =>
    c.align === 'start' ? c.left + cellPad : c.align === 'end' ? c.right - cellPad : (c.left + c.right) / 2;
  const anchorOf = (c: (typeof cols)[number]) => (c.align === 'start' ? 'start' : c.align === 'end' ? 'end' : 'middle');

  const tableTop = subY + 34 * u;
  const header = card.header !== false;
  const headH = header ? 48 * u : 0;
  const headSize = 22 * u;
  if (header) {
    out.push(
      `<rect x="${r1(pad)}" y="${r1(tableTop)}" width="${r1(inner)}" height="${r1(headH)}" rx="${r1(8 * u)}" fill="${COLORS.head}"/>`,
    );
  }
  for (const c of header ? cols : []) {
    out.push(
      text(cellX(c), tableTop + headH / 2 + headSize * 0.36, c.label, {
        size: headSize,
        fill: COLORS.muted,
        bold: true,
        anchor: anchorOf(c),
      }),
    );
  }

  const footerH = 110 * u;
  const footerTop = height - footerH;
  const rowsTop = tableTop + headH + 6 * u;
  const avail = footerTop - 14 * u - rowsTop;
  const minRowH = 30 * u;
  const n = card.rows.length;
  const fit = Math.min(n, card.maxRows ?? n);
  const shown = fit * minRowH > avail || fit < n ? Math.max(0, Math.min(fit, Math.floor(avail / minRowH) - 1)) : n;
  const hidden = n - shown;
  const rowH = Math.min(56 * u, avail / Math.max(1, shown + (hidden > 0 ? 1 : 0)));
  const rowSize = Math.min(28 * u, rowH * 0.6);

  if (n === 0) out.push(text(width / 2, rowsTop + 80 * u, card.empty, { size: 28 * u, fill: COLORS.muted, anchor: 'middle' }));
  for (let i = 0; i < shown; i++) {
    const row = card.rows[i]!;
    const top = rowsTop + i * rowH;
    const base = top + rowH / 2 + rowSize * 0.36;
    const fill = row.medal ? COLORS.medals[row.medal] : i % 2 === 1 ? COLORS.surface : undefined;
    if (fill) {
      const opacity = row.medal ? ' fill-opacity="0.14"' : '';
      out.push(
        `<rect x="${r1(pad)}" y="${r1(top + 1)}" width="${r1(inner)}" height="${r1(rowH - 2)}" rx="${r1(6 * u)}" fill="${fill}"${opacity}/>`,
      );
    }
    for (const [j, c] of cols.entries()) {
      const value = row.cells[j] ?? '';
      if (j === 0 && row.medal) {
        const cx = (c.left + c.right) / 2;
        out.push(
          `<circle cx="${r1(cx)}" cy="${r1(top + rowH / 2)}" r="${r1(Math.min(rowH * 0.4, 22 * u))}" fill="${COLORS.medals[row.medal]}"/>`,
        );
        out.push(text(cx, base, value, { size: rowSize, fill: COLORS.medalText, bold: true, anchor: 'middle' }));
        continue;
      }
      const shownValue = c.width === 'fill' ? fitText(value, c.w - 2 * cellPad, rowSize, c.bold || !!row.medal) : value;
      out.push(
        text(cellX(c), base, shownValue, {
          size: rowSize,
          fill: j === 0 ? COLORS.muted : COLORS.text,
          bold: c.bold || (c.width === 'fill' && !!row.medal),
          anchor: anchorOf(c),
        }),
      );
    }
  }
  if (hidden > 0) {
    const base = rowsTop + shown * rowH + rowH / 2 + rowSize * 0.36;
    out.push(text(width / 2, base, card.more(hidden), { size: rowSize * 0.9, fill: COLORS.muted, anchor: 'middle' }));
  }

  out.push(`<rect x="${r1(pad)}" y="${r1(footerTop)}" width="${r1(inner)}" height="${r1(2 * u)}" fill="${COLORS.line}"/>`);
  out.push(text(pad, footerTop + 46 * u, card.site, { size: 28 * u, fill: COLORS.text, bold: true }));
  out.push(text(pad, footerTop + 84 * u, fitText(card.url, inner, 22 * u), { size: 22 * u, fill: COLORS.muted }));

  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${SHARE_FONT_FAMILY}">`,
    ...out,
    '</svg>',
  ].join('\n');
}

/** The PNG of a table card: one sharp job in its turn with the other image work (decision 032). */
export function renderTableCard(card: TableCard, size: CardSize = PORTRAIT): Promise<Buffer> {
  const svg = Buffer.from(tableCardSvg(card, size));
  return imageWork(() => {
    shareImageStats.renders += 1;
    // Truecolour at zlib level 6: a 256-colour palette made the file 2.3× smaller but tripled the render
    // time (libimagequant) and dulled the medal colours; the bytes are cached here and by CDNs.
    return sharp(svg, { density: 72 }).png({ compressionLevel: 6 }).toBuffer();
  });
}
