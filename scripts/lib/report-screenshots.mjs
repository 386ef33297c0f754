// Result screens for the reports benchmark (scripts/bench-reports.mjs): what a captain's phone sends, a
// 1600×720 JPEG (an HD+ Android phone's screen, landscape as BGMI plays) of about 300 KB, one per team
// and match and each different: the team's placement, name, players and their finishes drawn over a
// grainy, blurred "map" backdrop cut at a place of its own. Made before anything is timed.
//
// Drawing a whole scene in SVG costs ~400 ms a picture and sharp's composite ~200 ms more; so a few
// large backdrops are drawn once (small SVG scaled up, grain added) and each screen is a window of one
// with its text (a transparent SVG) laid over in JavaScript: ~90 ms a screen. The JPEGs are kept in
// $TMPDIR/bench-reports-screens-v1 by a hash of what they show (~350 MB for a full run): `npm run bench`
// runs the benchmark once per database, and the second draws nothing.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { pool } from './rush.mjs';

export const SCREEN = { width: 1600, height: 720 };
const BACK = { width: 2000, height: 900 };
const BACKDROPS = 8;

/** A deterministic generator (Park–Miller): the same seed draws the same screen. */
function random(seed) {
  let s = (seed * 7919 + 17) % 2147483647;
  return () => (s = (s * 48271) % 2147483647) / 2147483647;
}

const escapeXml = (s) => String(s).replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

async function backdrop(k, grain) {
  const r = random(1000 + k);
  const hue = Math.floor(r() * 360);
  const [w, h] = [BACK.width / 4, BACK.height / 4];
  const blobs = Array.from({ length: 30 }, () => {
    const [cx, cy, rx, ry] = [r() * w, r() * h, 10 + r() * 90, 8 + r() * 50].map(Math.round);
    const colour = `hsl(${(hue + Math.round(r() * 90)) % 360} ${30 + Math.round(r() * 40)}% ${20 + Math.round(r() * 40)}%)`;
    return `<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" fill="${colour}" fill-opacity="0.55"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue} 45% 35%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360} 50% 12%)"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>${blobs}</svg>`;
  const data = await sharp(Buffer.from(svg)).removeAlpha().resize(BACK.width, BACK.height).raw().toBuffer();
  const shift = k * 30_011;
  for (let i = 0; i < data.length; i++) {
    const v = data[i] + ((grain[(i + shift) % grain.length] - 128) >> 1) - 20;
    data[i] = v < 0 ? 0 : v > 255 ? 255 : v;
  }
  return data;
}

/** The result screen's text and panels, transparent elsewhere. */
function overlaySvg({ seed, teamName, players, position, lobby }, r) {
  const { width, height } = SCREEN;
  const cell = (x, text, colour = '#ddd') => `<text x="${x}" y="42" font-size="30" fill="${colour}">${escapeXml(text)}</text>`;
  const rows = players
    .map(
      (p, i) =>
        `<g transform="translate(120 ${330 + i * 78})"><rect width="1360" height="64" rx="6" fill="#000" fill-opacity="0.45"/>${cell(24, p.ign, '#fff')}${cell(640, p.finishes, '#ffd54a')}${cell(820, Math.round(r() * 900))}${cell(1000, Math.floor(r() * 3))}${cell(1160, `${10 + Math.floor(r() * 20)}:${String(Math.floor(r() * 60)).padStart(2, '0')}`)}</g>`,
    )
    .join('');
  const heads = ['PLAYER', 'FINISHES', 'DAMAGE', 'ASSISTS', 'SURVIVED']
    .map((h, i) => `<text x="${[144, 760, 940, 1120, 1280][i]}" y="300" font-size="24" fill="#aaa">${h}</text>`)
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="DejaVu Sans">
  <text x="120" y="150" font-size="110" font-weight="bold" fill="#fff">#${position}<tspan font-size="50" fill="#bbb">/${lobby}</tspan></text>
  <text x="520" y="110" font-size="40" fill="#ffd54a">${position === 1 ? 'WINNER WINNER CHICKEN DINNER!' : 'BETTER LUCK NEXT TIME'}</text>
  <text x="520" y="160" font-size="34" fill="#fff">${escapeXml(teamName)}</text>${heads}${rows}
  <text x="1480" y="690" font-size="22" fill="#ccc" text-anchor="end">MATCH ID ${7_300_000 + seed} · ERANGEL · CLASSIC</text></svg>`;
}

/** The overlay (RGBA) over a window of the backdrop (RGB), alpha-blended here: sharp's composite is the slow part. */
function blend(text, back, left, top) {
  const { width, height } = SCREEN;
  const out = Buffer.allocUnsafe(width * height * 3);
  for (let y = 0; y < height; y++) {
    let o = y * width * 3;
    let b = ((y + top) * BACK.width + left) * 3;
    let t = y * width * 4;
    for (let x = 0; x < width; x++, o += 3, b += 3, t += 4) {
      const a = text[t + 3];
      for (let c = 0; c < 3; c++) out[o + c] = a === 0 ? back[b + c] : (text[t + c] * a + back[b + c] * (255 - a)) / 255;
    }
  }
  return out;
}

/** Change when the drawing changes: the kept screens of an older drawing are then not used. */
const CACHE = path.join(os.tmpdir(), 'bench-reports-screens-v1');
const cacheFile = (screen) =>
  path.join(CACHE, `${crypto.createHash('sha256').update(JSON.stringify(screen)).digest('hex').slice(0, 32)}.jpg`);

/**
 * One JPEG per screen: `screens` are { seed, teamName, players: [{ ign, finishes }], position, lobby }.
 * Kept screens are read back; the others drawn, two at a time (sharp's encodes run beside the
 * JavaScript blending). Answers the JPEGs and how many were drawn.
 */
export async function resultScreens(screens) {
  fs.mkdirSync(CACHE, { recursive: true });
  const jpegs = screens.map((s) => (fs.existsSync(cacheFile(s)) ? fs.readFileSync(cacheFile(s)) : null));
  const missing = screens.filter((_, i) => !jpegs[i]);
  if (missing.length) {
    const drawn = await drawScreens(missing);
    missing.forEach((s, i) => fs.writeFileSync(cacheFile(s), drawn[i]));
    let k = 0;
    for (let i = 0; i < jpegs.length; i++) jpegs[i] ??= drawn[k++];
  }
  return { jpegs, drawn: missing.length };
}

async function drawScreens(screens) {
  const grain = await sharp({
    create: { width: BACK.width, height: BACK.height, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 22 } },
  })
    .raw()
    .toBuffer();
  const backs = [];
  for (let k = 0; k < BACKDROPS; k++) backs.push(await backdrop(k, grain));
  return pool(screens, 2, async (screen) => {
    const r = random(screen.seed);
    const text = await sharp(Buffer.from(overlaySvg(screen, r)))
      .ensureAlpha()
      .raw()
      .toBuffer();
    const left = Math.floor(r() * (BACK.width - SCREEN.width));
    const top = Math.floor(r() * (BACK.height - SCREEN.height));
    const pixels = blend(text, backs[screen.seed % BACKDROPS], left, top);
    return sharp(pixels, { raw: { ...SCREEN, channels: 3 } })
      .jpeg({ quality: 88 })
      .toBuffer();
  });
}
