import type { Compact, ParsedHash } from './screenshot-types.js';

// Lining one screenshot hash's thumbnail up on another's (decision 072; the cost, decision 079): the scale
// and shifts a crop or a status bar causes, found on the half-size thumbnails' row and column means, then
// settled on the pictures. screenshot-hash.ts compares the lined-up thumbnails block by block.

/** Where a's pixel (x, y) is in b: (x·scale + dx, y·scale + dy). */
export interface Fit {
  scale: number;
  dx: number;
  dy: number;
}

/**
 * 1 − the correlation of two series from their sums (count, Σa, Σb, Σa², Σb², Σab): 0 when they are the
 * same up to brightness and contrast; 2 when fewer than `least` pairs were added. (The loops below keep
 * the sums in locals: a comparison runs them a few hundred thousand times.)
 */
function misfitOf(n: number, sa: number, sb: number, saa: number, sbb: number, sab: number, least: number): number {
  if (n < least || n < 2) return 2;
  const va = saa - (sa * sa) / n;
  const vb = sbb - (sb * sb) / n;
  if (va <= 0 || vb <= 0) return va === vb ? 0 : 1;
  return 1 - (sab - (sa * sb) / n) / Math.sqrt(va * vb);
}

/**
 * Where each of a's columns falls in b (x·scale + dx): its left neighbour, its weight, or −1 outside b.
 * The same for every row, so worked out once per fit; the arrays are kept between calls (valid until the next).
 */
let columnAt = new Int32Array(0);
let columnWeight = new Float64Array(0);
export function columnsIn(aw: number, bw: number, scale: number, dx: number, step: number) {
  if (columnAt.length < aw) [columnAt, columnWeight] = [new Int32Array(aw), new Float64Array(aw)];
  let k = 0;
  for (let x = 0; x < aw; x += step, k++) {
    const tx = x * scale + dx;
    if (!(tx >= 0 && tx <= bw - 1)) {
      columnAt[k] = -1;
      continue;
    }
    const x0 = Math.min(tx | 0, bw - 2); // tx ≥ 0: its floor
    columnAt[k] = x0;
    columnWeight[k] = tx - x0;
  }
  return { count: k, at: columnAt, weight: columnWeight };
}

/** How badly b, moved by fit, matches a, over every step-th pixel; less than half of a covered: 2. */
function pictureMisfit(a: Compact, b: Compact, fit: Fit, step: number): number {
  // b's grey value at (x·scale + dx, y·scale + dy), bilinear, in locals: no call nor object per pixel.
  const { scale, dx, dy } = fit;
  const { width: bw, height: bh, pixels: bp, unit: bu } = b;
  const { width: aw, pixels: ap, unit: au } = a;
  const { count: columns, at: columnAt, weight: columnWeight } = columnsIn(aw, bw, scale, dx, step);
  let n = 0;
  let sa = 0;
  let sb = 0;
  let saa = 0;
  let sbb = 0;
  let sab = 0;
  for (let y = 0; y < a.height; y += step) {
    const ty = y * scale + dy;
    if (!(ty >= 0 && ty <= bh - 1)) continue;
    const y0 = Math.min(ty | 0, bh - 2); // ty ≥ 0: its floor
    const fy = ty - y0;
    const row = y0 * bw;
    const arow = y * aw;
    for (let k = 0; k < columns; k++) {
      const x0 = columnAt[k]!;
      if (x0 < 0) continue;
      const fx = columnWeight[k]!;
      const i = row + x0;
      const vb =
        (bp[i]! * bu * (1 - fx) + bp[i + 1]! * bu * fx) * (1 - fy) + (bp[i + bw]! * bu * (1 - fx) + bp[i + bw + 1]! * bu * fx) * fy;
      const va = ap[arow + k * step]! * au;
      n++;
      sa += va;
      sb += vb;
      saa += va * va;
      sbb += vb * vb;
      sab += va * vb;
    }
  }
  return misfitOf(n, sa, sb, saa, sbb, sab, (a.width * a.height) / (step * step) / 2);
}

/** Column means (axis x) or row means (axis y). */
function profile(p: Compact, axis: 'x' | 'y'): Float64Array {
  const out = new Float64Array(axis === 'x' ? p.width : p.height);
  for (let y = 0; y < p.height; y++) {
    for (let x = 0; x < p.width; x++) out[axis === 'x' ? x : y]! += p.pixels[y * p.width + x]! * p.unit;
  }
  return out;
}

/** Half as long, by pairs' means. */
function halveProfile(p: Float64Array): Float64Array {
  return Float64Array.from({ length: p.length >> 1 }, (_, i) => (p[2 * i]! + p[2 * i + 1]!) / 2);
}

/** How badly profile b read at i·scale + shift matches profile a; less than 3/4 covered: 2. */
function profileMisfit(a: Float64Array, b: Float64Array, scale: number, shift: number): number {
  const last = b.length - 1;
  let n = 0;
  let sa = 0;
  let sb = 0;
  let saa = 0;
  let sbb = 0;
  let sab = 0;
  for (let i = 0; i < a.length; i++) {
    const t = i * scale + shift;
    if (!(t >= 0 && t <= last)) continue;
    const j = t === last ? last - 1 : t | 0; // t ≥ 0: its floor
    const va = a[i]!;
    const vb = b[j]! + (b[j + 1]! - b[j]!) * (t - j);
    n++;
    sa += va;
    sb += vb;
    saa += va * va;
    sbb += vb * vb;
    sab += va * vb;
  }
  return misfitOf(n, sa, sb, saa, sbb, sab, a.length * 0.75);
}

/** The most a crop or a status bar changes the scale (a fraction), and shifts the picture (a fraction of its size). */
const SCALE_REACH = 0.14;
const SHIFT_REACH = 0.12;

interface Profiles {
  ax: Float64Array;
  ay: Float64Array;
  bx: Float64Array;
  by: Float64Array;
}
interface Search {
  scaleReach: number;
  scaleStep: number;
  xReach: number;
  yReach: number;
  shiftStep: number;
}

/** Best shift of profile b onto a at one scale, among around ± k·step within reach. */
function bestShift(a: Float64Array, b: Float64Array, scale: number, around: number, reach: number, step: number) {
  let best = { shift: around, misfit: Infinity };
  for (let shift = around - reach; shift <= around + reach + 1e-9; shift += step) {
    const misfit = profileMisfit(a, b, scale, shift);
    if (misfit < best.misfit) best = { shift, misfit };
  }
  return best;
}

/** The scale (and its best shifts) whose row and column profiles fit best, around a first guess. */
function searchProfiles(p: Profiles, around: Fit, s: Search): Fit {
  return profileFits(p, around, s)[0]!;
}

/** Each scale around a first guess with its best shifts, best first. */
function profileFits(p: Profiles, around: Fit, s: Search): (Fit & { misfit: number })[] {
  const fits: (Fit & { misfit: number })[] = [];
  for (let scale = around.scale - s.scaleReach; scale <= around.scale + s.scaleReach + 1e-9; scale += s.scaleStep) {
    const x = bestShift(p.ax, p.bx, scale, around.dx, s.xReach, s.shiftStep);
    const y = bestShift(p.ay, p.by, scale, around.dy, s.yReach, s.shiftStep);
    fits.push({ scale, dx: x.shift, dy: y.shift, misfit: x.misfit + y.misfit });
  }
  return fits.sort((f, g) => f.misfit - g.misfit);
}

/** The best CANDIDATES of a coarse search, at least CANDIDATE_SPREAD apart in scale. */
function candidates(fits: Fit[]): Fit[] {
  const kept: Fit[] = [];
  for (const fit of fits) {
    if (kept.every((k) => Math.abs(k.scale - fit.scale) >= CANDIDATE_SPREAD)) kept.push(fit);
    if (kept.length === CANDIDATES) break;
  }
  return kept;
}

/** Tries the fit's neighbours on the pictures (every step-th pixel), keeping the best, at shrinking moves. */
function refine(a: Compact, b: Compact, start: Fit, moves: number[], step: number): Fit {
  // A move and its reverse come back to a fit already measured: measured once.
  const known = new Map<string, number>();
  const misfit = (f: Fit) => {
    const key = `${f.scale} ${f.dx} ${f.dy}`;
    let m = known.get(key);
    if (m === undefined) known.set(key, (m = pictureMisfit(a, b, f, step)));
    return m;
  };
  let fit = start;
  let score = misfit(fit);
  for (const move of moves) {
    for (let round = 0, moved = true; moved && round < 4; round++) {
      moved = false;
      const tries: Fit[] = [
        { ...fit, dx: fit.dx + move },
        { ...fit, dx: fit.dx - move },
        { ...fit, dy: fit.dy + move },
        { ...fit, dy: fit.dy - move },
        { ...fit, scale: fit.scale * (1 + move / a.width) },
        { ...fit, scale: fit.scale * (1 - move / a.width) },
      ];
      for (const t of tries) {
        const s = misfit(t);
        if (s < score) [fit, score, moved] = [t, s, true];
      }
    }
  }
  return fit;
}

/**
 * Lines b up on a. The scale and shifts come from the half-size thumbnails' row and column means (a crop
 * moves them as it moves the picture, and they cost a hundredth of the picture to compare), coarse then
 * fine; then a look at the full thumbnails settles the last fraction of a pixel.
 */
export function align(a: ParsedHash, b: ParsedHash): Fit {
  const [ha, hb] = [a.half, b.half];
  const [pa, pb] = [profilesOf(a), profilesOf(b)];
  const p: Profiles = { ax: pa.x, ay: pa.y, bx: pb.x, by: pb.y };
  const q: Profiles = { ax: pa.qx, ay: pa.qy, bx: pb.qx, by: pb.qy };
  // b's pixels per a's pixel when neither is cropped (their sizes differ by rounding only).
  const nominal = Math.max(hb.width, hb.height) / Math.max(ha.width, ha.height);
  const xReach = Math.ceil((hb.width / 2) * SHIFT_REACH);
  const yReach = Math.ceil((hb.height / 2) * SHIFT_REACH);
  // Coarse, on quarter-size profiles: a pixel's shift, a percent's scale. Profiles average over what
  // each picture kept, so two differently cropped copies may fit best a little off: the best few are
  // made fine and judged on the pictures.
  const coarse = profileFits(
    q,
    { scale: nominal, dx: 0, dy: 0 },
    { scaleReach: nominal * SCALE_REACH, scaleStep: 0.01, xReach, yReach, shiftStep: 1 },
  );
  let best: Fit = { scale: nominal, dx: 0, dy: 0 };
  let bestMisfit = Infinity;
  for (const c of candidates(coarse)) {
    const fine = searchProfiles(p, doubled(c), { scaleReach: 0.01, scaleStep: 0.0025, xReach: 2, yReach: 2, shiftStep: 0.25 });
    const misfit = pictureMisfit(ha, hb, fine, 2);
    if (misfit < bestMisfit) [best, bestMisfit] = [fine, misfit];
  }
  return doubled(refine(ha, hb, best, [0.25, 0.125], 2));
}

/** The half-size thumbnail's column and row means, and at quarter size: worked out once a parsed hash. */
const profileCache = new WeakMap<ParsedHash, { x: Float64Array; y: Float64Array; qx: Float64Array; qy: Float64Array }>();
function profilesOf(h: ParsedHash) {
  let p = profileCache.get(h);
  if (!p) {
    const [x, y] = [profile(h.half, 'x'), profile(h.half, 'y')];
    profileCache.set(h, (p = { x, y, qx: halveProfile(x), qy: halveProfile(y) }));
  }
  return p;
}

/** A fit on pictures twice as large: pixel x there is 2x + 0.5. */
const doubled = (f: Fit): Fit => ({ scale: f.scale, dx: 2 * f.dx + 0.5 * (1 - f.scale), dy: 2 * f.dy + 0.5 * (1 - f.scale) });
const CANDIDATES = 3;
const CANDIDATE_SPREAD = 0.02;
