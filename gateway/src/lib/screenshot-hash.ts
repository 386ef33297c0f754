import zlib from 'node:zlib';
import { LRUCache } from 'lru-cache';
import sharp from 'sharp';
import { align, columnsIn, type Fit } from './screenshot-align.js';
import type { Compact, Grey, ParsedHash } from './screenshot-types.js';

export type { Compact, Grey, ParsedHash };

// The perceptual hash of a report's screenshot (decision 072): finds the same screenshot sent again
// (re-encoded, resized, cropped by a few percent, brighter or darker, a status bar more or less) and
// does not confuse two teams' result screens of one match (the same blurred scene and layout: only the
// names and numbers differ).
//
// A hash is "s1.<coarse>.<w>x<h>.<thumb>":
// - coarse: a 64-bit DCT hash (pHash) of the picture at 32×32. Re-encoding, resizing and brightness
//   barely move it, a crop of a few percent or a status bar up to 18 bits (on the test set); it gates the
//   comparison (more than COARSE_GATE bits apart: different) and gives the keys candidates are looked up
//   by (hashBands). It cannot tell two result screens of one game apart (at 32×32 they are their layout).
// - thumb: the picture in grey, THUMB px on its long side, 5 bits a pixel, deflated, base64: names and
//   numbers of a result screen are a few pixels tall at that size. hashDistance lines one thumbnail up on
//   the other (scale and shift: what a crop or a status bar does), fits each block's brightness and
//   contrast (what a re-encode or a brightness change does), and answers the worst block's difference
//   against its edges (localDifference).

const VERSION = 's1';
/** Long side of the stored thumbnail. 128 px loses the names (a status bar alone then differs more); see decision 072. */
const THUMB = 256;
/** Bits dropped from each grey level (32 levels kept: finer than the NOISE every block is judged at, and 6 KB a hash). */
const QUANTUM_SHIFT = 3;
const COARSE_SIZE = 32;
const COARSE_FREQUENCIES = 8;

/** The hash of an image (a sharp pipeline, already upright). One decode: the coarse hash is made from the thumbnail. */
export async function perceptualHash(image: sharp.Sharp): Promise<string> {
  const { data, info } = await image
    .greyscale()
    .resize(THUMB, THUMB, { fit: 'inside', fastShrinkOnLoad: false }) // shrink-on-load moves JPEG thumbnails by half a pixel
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { left, top, width, height } = withoutBars(data, info.width, info.height);
  const grey = await sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } })
    .extract({ left, top, width, height })
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  const small = await sharp(grey, { raw: { width, height, channels: 1 } })
    .resize(COARSE_SIZE, COARSE_SIZE, { fit: 'fill' })
    .toColourspace('b-w') // else sharp answers sRGB: three bytes a pixel
    .raw()
    .toBuffer();
  const levels = Buffer.allocUnsafe(grey.length);
  for (let i = 0; i < grey.length; i++) levels[i] = grey[i]! >> QUANTUM_SHIFT;
  // Level 6, not 9: 2 % more bytes for a quarter of the CPU (1.3 ms instead of 5.2, decision 079).
  const thumb = zlib.deflateRawSync(levels, { level: 6 }).toString('base64');
  return `${VERSION}.${dctHash(small)}.${width}x${height}.${thumb}`;
}

/** A row or column of a phone's bar: this dark at its median (its icons and clock are a few light pixels). */
const BAR_DARK = 24;
/** A bar is at most this much of the picture's height or width (a status bar is 3–5 %). */
const BAR_MOST = 0.08;

/**
 * The picture without the phone's status or navigation bars: dark bands along its edges, cut off (and
 * the row or column that blends into the picture), so a screenshot with the bar and one without are the
 * same picture, as with any crop. A dark scene at an edge is cut the same way from every copy.
 */
function withoutBars(data: Buffer, width: number, height: number) {
  const median = (values: number[]) => values.sort((p, q) => p - q)[values.length >> 1]!;
  const row = (y: number) => median(Array.from({ length: width }, (_, x) => data[y * width + x]!));
  const column = (x: number) => median(Array.from({ length: height }, (_, y) => data[y * width + x]!));
  const band = (line: (i: number) => number, from: number, step: number, most: number) => {
    let n = 0;
    while (n < most && line(from + n * step) < BAR_DARK) n++;
    return n > 0 ? n + 1 : 0;
  };
  const rows = Math.floor(height * BAR_MOST);
  const columns = Math.floor(width * BAR_MOST);
  const top = band(row, 0, 1, rows);
  const bottom = band(row, height - 1, -1, rows);
  const left = band(column, 0, 1, columns);
  const right = band(column, width - 1, -1, columns);
  return { left, top, width: width - left - right, height: height - top - bottom };
}

/** pHash: the signs of the 8×8 lowest DCT frequencies of a 32×32 grey picture against their median (DC left out of the median). */
function dctHash(pixels: Buffer): string {
  const n = COARSE_SIZE;
  const cos = Array.from({ length: COARSE_FREQUENCIES }, (_, u) =>
    Array.from({ length: n }, (_, x) => Math.cos(((2 * x + 1) * u * Math.PI) / (2 * n))),
  );
  const rows = Array.from({ length: n }, (_, y) => cos.map((c) => c.reduce((sum, w, x) => sum + w * pixels[y * n + x]!, 0)));
  const coefficients: number[] = [];
  for (let v = 0; v < COARSE_FREQUENCIES; v++) {
    for (let u = 0; u < COARSE_FREQUENCIES; u++) coefficients.push(rows.reduce((sum, row, y) => sum + cos[v]![y]! * row[u]!, 0));
  }
  const ac = coefficients.slice(1);
  const median = [...ac].sort((p, q) => p - q)[ac.length >> 1]!;
  return coefficients
    .reduce((bits, c) => (bits << 1n) | (c > median ? 1n : 0n), 0n)
    .toString(16)
    .padStart(COARSE_FREQUENCIES ** 2 / 4, '0');
}

/** g as a Compact in multiples of unit (a power of two); throws should a value not be one (never, by the arithmetic above). */
function compact(g: Grey, unit: number): Compact {
  const pixels = new Uint16Array(g.pixels.length);
  for (let i = 0; i < pixels.length; i++) {
    const k = g.pixels[i]! / unit;
    if (!(k === Math.floor(k) && k >= 0 && k <= 0xffff)) throw new Error('screenshot hash: a thumbnail value off its grid');
    pixels[i] = k;
  }
  return { width: g.width, height: g.height, pixels, unit };
}

/** A [1 2 1]/4 blur across and down (edges repeat). */
function smooth(p: Grey): Grey {
  const { width: w, height: h } = p;
  const across = new Float32Array(w * h);
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      across[i] = (p.pixels[x > 0 ? i - 1 : i]! + 2 * p.pixels[i]! + p.pixels[x < w - 1 ? i + 1 : i]!) / 4;
    }
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      out[i] = (across[y > 0 ? i - w : i]! + 2 * across[i]! + across[y < h - 1 ? i + w : i]!) / 4;
    }
  }
  return { width: w, height: h, pixels: out };
}

/** Half size by 2×2 means (a last odd row or column dropped). */
function halve(p: Grey): Grey {
  const width = p.width >> 1;
  const height = p.height >> 1;
  const pixels = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = 2 * y * p.width + 2 * x;
      pixels[y * width + x] = (p.pixels[i]! + p.pixels[i + 1]! + p.pixels[i + p.width]! + p.pixels[i + p.width + 1]!) / 4;
    }
  }
  return { width, height, pixels };
}

/**
 * Parsed hashes are kept a while: each report is compared with its lobby's earlier ones, and with 40
 * lobbies reporting at once (issue 30's 1,000 reports in 2 minutes) a lobby's hashes come round again
 * after ~500 others. Decision 079: room for ~1,000 (about 75 KB each), least recently used out first;
 * unused for 15 minutes, one is dropped when next looked up or when room is needed.
 */
const parsed = new LRUCache<string, ParsedHash>({
  maxSize: 80 * 1024 * 1024,
  sizeCalculation: (h) => h.pixels.byteLength + h.half.pixels.byteLength + 1024,
  ttl: 15 * 60_000,
  updateAgeOnGet: true,
});

export function parseHash(hash: string): ParsedHash {
  const known = parsed.get(hash);
  if (known) return known;
  const [version, coarse, size, thumb] = hash.split('.');
  const [width, height] = (size ?? '').split('x').map(Number);
  if (version !== VERSION || !coarse || !width || !height || !thumb) throw new Error(`not a screenshot hash: ${hash.slice(0, 40)}`);
  const levels = zlib.inflateRawSync(Buffer.from(thumb, 'base64'));
  if (levels.length !== width * height) throw new Error('screenshot hash: the thumbnail does not match its size');
  // Each level stands for the middle of the grey levels it was made from. (A loop: Float32Array.from with
  // a function took 3 ms a thumbnail, most of a parse, decision 079.)
  const pixels = new Float32Array(levels.length);
  for (let i = 0; i < levels.length; i++) pixels[i] = (levels[i]! << QUANTUM_SHIFT) + (1 << (QUANTUM_SHIFT - 1));
  const grey = smooth({ width, height, pixels });
  const result = { ...compact(grey, 1 / 16), coarse: BigInt(`0x${coarse}`), half: compact(halve(grey), 1 / 64) };
  parsed.set(hash, result);
  return result;
}

export const COARSE_BITS = COARSE_FREQUENCIES ** 2;

export function coarseBits(a: ParsedHash, b: ParsedHash): number {
  let count = 0;
  for (let x = a.coarse ^ b.coarse; x; x &= x - 1n) count++;
  return count;
}

// --- Comparing lined-up thumbnails ---------------------------------------------------------------

const BLOCK = 8;
/** Grey levels of noise (a re-encode's blocks and rings) below which no block is judged. */
const NOISE = 12;
/** Per block: pixel count, Σa, Σb, Σa², Σb², Σab, Σ|∇a|, Σ|∇b|. */
const FIELDS = 8;

/** b resampled onto a's grid by fit, rows from to to (excluded), into out; NaN outside b. */
function resampleRows(a: Compact, b: Compact, fit: Fit, out: Float32Array, from: number, to: number): void {
  // Bilinear, as in pictureMisfit (its per-column terms too).
  const { scale, dx, dy } = fit;
  const { width: bw, height: bh, pixels: bp, unit: bu } = b;
  const aw = a.width;
  const { count: columns, at: columnAt, weight: columnWeight } = columnsIn(aw, bw, scale, dx, 1);
  for (let y = from; y < to; y++) {
    const ty = y * scale + dy;
    if (!(ty >= 0 && ty <= bh - 1)) {
      out.fill(NaN, y * aw, (y + 1) * aw);
      continue;
    }
    const y0 = Math.min(ty | 0, bh - 2); // ty ≥ 0: its floor
    const fy = ty - y0;
    const row = y0 * bw;
    for (let x = 0; x < columns; x++) {
      const x0 = columnAt[x]!;
      if (x0 < 0) {
        out[y * aw + x] = NaN;
        continue;
      }
      const fx = columnWeight[x]!;
      const i = row + x0;
      out[y * aw + x] =
        (bp[i]! * bu * (1 - fx) + bp[i + 1]! * bu * fx) * (1 - fy) + (bp[i + bw]! * bu * (1 - fx) + bp[i + bw + 1]! * bu * fx) * fy;
    }
  }
}

/** The sums of one row of blocks of a and b (lined up on a's grid), its rows from to to (excluded), over the pixels b covers. */
function blockSums(a: Compact, moved: Float32Array, sums: Float64Array, from: number, to: number): void {
  const w = a.width;
  const { pixels: ap, unit: au } = a;
  for (let y = from; y < to; y++) {
    for (let x = 0; x < w - 1; x++) {
      const i = y * w + x;
      const vb = moved[i]!;
      const gb = Math.abs(moved[i + 1]! - vb) + Math.abs(moved[i + w]! - vb);
      if (gb !== gb) continue; // NaN: outside b
      const va = ap[i]! * au;
      const k = Math.floor(x / BLOCK) * FIELDS;
      sums[k]! += 1;
      sums[k + 1]! += va;
      sums[k + 2]! += vb;
      sums[k + 3]! += va * va;
      sums[k + 4]! += vb * vb;
      sums[k + 5]! += va * vb;
      sums[k + 6]! += Math.abs(ap[i + 1]! * au - va) + Math.abs(ap[i + w]! * au - va);
      sums[k + 7]! += gb;
    }
  }
}

/** The scratch rows of resampled pixels: one comparison at a time, so one array kept. */
let moved = new Float32Array(0);

/**
 * The worst block of a against b lined up on it (0: the same picture). Each BLOCK×BLOCK block's
 * brightness and contrast are fitted both ways (a from b and b from a: a name in one only counts), and
 * what is left is weighed against the block's edges: a copy lined up to a fraction of a pixel differs by
 * about that fraction of its gradient, another picture by a stroke's width or more where its names and
 * numbers differ. Blocks less than half covered by b (what a crop took away) are left out.
 * Row of blocks by row of blocks: past stopAbove the answer is only "more than stopAbove" (a block
 * worse than it), and the rest is not looked at (decision 079: most pairs are two different pictures).
 */
export function localDifference(a: ParsedHash, b: ParsedHash, fit: Fit = align(a, b), stopAbove = Infinity): number {
  const columns = Math.ceil(a.width / BLOCK);
  const bands = Math.ceil(a.height / BLOCK);
  const sums = new Float64Array(columns * FIELDS);
  if (moved.length < a.width * a.height) moved = new Float32Array(a.width * a.height);
  let worst = 0;
  let resampled = 0;
  for (let band = 0; band < bands; band++) {
    // The band's rows (and the next row: a pixel's gradient looks one row down), sums from the rows
    // but the picture's last (as one pass over the picture did).
    const from = band * BLOCK;
    const to = Math.min(from + BLOCK, a.height - 1);
    const need = Math.min(to + 1, a.height);
    resampleRows(a, b, fit, moved, resampled, need);
    resampled = need;
    sums.fill(0);
    blockSums(a, moved, sums, from, to);
    for (let k = 0; k < columns * FIELDS; k += FIELDS) {
      const n = sums[k]!;
      if (n < (BLOCK * BLOCK) / 2) continue;
      const saa = Math.max(0, sums[k + 3]! - sums[k + 1]! ** 2 / n);
      const sbb = Math.max(0, sums[k + 4]! - sums[k + 2]! ** 2 / n);
      const sab = sums[k + 5]! - (sums[k + 1]! * sums[k + 2]!) / n;
      // What the best line through the other leaves of each (a flat block explains nothing).
      const leftA = sbb > 0 ? Math.max(0, saa - (sab * sab) / sbb) : saa;
      const leftB = saa > 0 ? Math.max(0, sbb - (sab * sab) / saa) : sbb;
      const scoreA = Math.sqrt(leftA / n) / (sums[k + 6]! / n + NOISE);
      const scoreB = Math.sqrt(leftB / n) / (sums[k + 7]! / n + NOISE);
      worst = Math.max(worst, scoreA, scoreB);
    }
    if (worst > stopAbove) return worst;
  }
  return worst;
}
