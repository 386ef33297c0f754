import sharp from 'sharp';
import { configureShareFonts } from '../../gateway/src/lib/share-fonts.js';

// Real-looking BGMI / Free Fire result screens for the duplicate-screenshot check (decision 072), made
// deterministically from a seed: a blurred procedural game scene (per map, moved per match) under the
// game's result layout (a team card or a results table) with the team, its placement and its players.

// The packaged fonts, not the machine's: the same pixels on every machine.
configureShareFonts();

/** mulberry32: the same screens on every run. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const int = (random: () => number, lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));

export interface Player {
  ign: string;
  finishes: number;
  damage: number;
  assists: number;
  survived: string;
}
export interface ResultScreenSpec {
  /** The map: the scene's palette and shapes. */
  map: number;
  /** The match: where the camera stands in the map's scene. */
  match: number;
  layout: 'bgmi-card' | 'ff-table';
  width: number;
  height: number;
  /** The phone's status bar drawn across the top (some phones keep it over games). */
  statusBar: boolean;
  team: string;
  tag: string;
  placement: number;
  teams: number;
  players: Player[];
}

const MAPS = ['ERANGEL', 'MIRAMAR', 'SANHOK', 'VIKENDI', 'LIVIK', 'BERMUDA', 'PURGATORY', 'KALAHARI'];
const SYLLABLES = ['ka', 'zo', 'rex', 'vi', 'no', 'mad', 'gh', 'ost', 'ty', 'ra', 'sn', 'ipe', 'lu', 'xo', 'dr', 'ak', 'jo', 'el'];
const DECOR = ['', '', 'x', '_', 'YT', '07', 'OP', 'GG', '亗', 'ツ'];
const TEAM_WORDS = [
  'Soul',
  'Hydra',
  'Blind',
  'Orangutan',
  'Velocity',
  'Gods',
  'Reign',
  'Stalwart',
  'Revenant',
  'Enigma',
  'Titans',
  'Marcos',
  'Wolves',
  'Phoenix',
];
const TEAM_TAILS = ['Esports', 'Gaming', 'Army', 'Squad', 'XSpark', 'Official', 'Clan', 'Nation'];

function ign(random: () => number): string {
  const body = Array.from({ length: int(random, 2, 4) }, () => pick(random, SYLLABLES)).join('');
  const name = body[0]!.toUpperCase() + body.slice(1);
  return `${pick(random, DECOR)}${name}${pick(random, DECOR)}`.slice(0, 14);
}

/** A team: its name, tag and four players (the same in every match it plays). */
export function team(seed: number): { team: string; tag: string; igns: string[] } {
  const random = rng(seed * 7919 + 17);
  const name = `${pick(random, TEAM_WORDS)} ${pick(random, TEAM_TAILS)}`;
  const tag = name.replace(/[^A-Z]/g, '').slice(0, 3) || 'TM';
  return { team: name, tag, igns: Array.from({ length: 4 }, () => ign(random)) };
}

/** The placements of a match's teams: a shuffle of 1..25, the same for every team of the match. */
function placements(match: number): number[] {
  const random = rng(match * 1009 + 7);
  const order = Array.from({ length: 25 }, (_, i) => i + 1);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/**
 * One team's result screen of one match: the team from teamSeed, its place in the match from slot (two
 * teams of a match never share one), its numbers from seed.
 */
export function resultSpec(args: {
  map: number;
  match: number;
  teamSeed: number;
  slot: number;
  seed: number;
  size?: [number, number];
}): ResultScreenSpec {
  const random = rng(args.seed * 104729 + 3);
  const squad = team(args.teamSeed);
  const placement = placements(args.match)[args.slot % 25]!;
  const players = squad.igns.map((name) => ({
    ign: name,
    finishes: int(random, 0, placement < 5 ? 9 : 4),
    damage: int(random, 0, 1400),
    assists: int(random, 0, 4),
    survived: `${int(random, 2, 31)}:${String(int(random, 0, 59)).padStart(2, '0')}`,
  }));
  const [width, height] = args.size ?? [1200, 540];
  return {
    map: args.map,
    match: args.match,
    layout: args.map % 3 === 2 ? 'ff-table' : 'bgmi-card',
    width,
    height,
    statusBar: args.seed % 5 === 4,
    team: squad.team,
    tag: squad.tag,
    placement,
    teams: 25,
    players,
  };
}

const hsl = (h: number, s: number, l: number, a = 1) => `hsla(${Math.round(h)},${Math.round(s)}%,${Math.round(l)}%,${a})`;

/** The game scene behind the results, drawn small: sky, terrain, buildings, trees, lights. */
function sceneSvg(spec: ResultScreenSpec, w: number, h: number): string {
  const map = rng(spec.map * 31337 + 11);
  const hue = map() * 360;
  const horizon = 0.35 + map() * 0.25;
  const camera = rng(spec.match * 65537 + spec.map);
  // A match's camera: the map's scene, panned and with its own objects around.
  const pan = camera() * w * 0.6;
  const parts: string[] = [
    `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${hsl(hue + 180, 50, 70)}"/><stop offset="1" stop-color="${hsl(hue + 200, 30, 85)}"/></linearGradient>`,
    `<linearGradient id="ground" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${hsl(hue, 35, 45)}"/><stop offset="1" stop-color="${hsl(hue + 20, 40, 22)}"/></linearGradient></defs>`,
    `<rect width="${w}" height="${h}" fill="url(#sky)"/>`,
  ];
  for (let layer = 0; layer < 3; layer++) {
    const points: string[] = [`0,${h}`];
    const base = h * (horizon + layer * 0.08);
    for (let x = -pan; x <= w + 40; x += w / 12) {
      points.push(`${Math.round(x + pan)},${Math.round(base - map() * h * 0.18)}`);
    }
    points.push(`${w},${h}`);
    parts.push(`<polygon points="${points.join(' ')}" fill="${hsl(hue + layer * 15, 30 + layer * 8, 55 - layer * 12)}"/>`);
  }
  parts.push(`<rect y="${Math.round(h * (horizon + 0.2))}" width="${w}" height="${h}" fill="url(#ground)" opacity="0.85"/>`);
  for (let i = 0; i < 14; i++) {
    const x = camera() * w;
    const y = h * (horizon + 0.05 + camera() * 0.5);
    const s = (0.03 + camera() * 0.08) * h;
    if (camera() < 0.5)
      parts.push(
        `<rect x="${x}" y="${y - s}" width="${s * 1.4}" height="${s}" fill="${hsl(hue + 40 + camera() * 40, 20, 30 + camera() * 40)}"/>`,
      );
    else parts.push(`<circle cx="${x}" cy="${y}" r="${s / 1.5}" fill="${hsl(hue + 90, 40, 20 + camera() * 25)}"/>`);
  }
  parts.push(`<circle cx="${camera() * w}" cy="${h * 0.12}" r="${h * 0.08}" fill="${hsl(50, 90, 85, 0.8)}"/>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${parts.join('')}</svg>`;
}

/** The scene as the game shows it behind the results: grainy and blurred, at the screen's size. */
async function scene(spec: ResultScreenSpec): Promise<Buffer> {
  const w = Math.round(spec.width / 4);
  const h = Math.round(spec.height / 4);
  const { data, info } = await sharp(Buffer.from(sceneSvg(spec, w, h)))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const grain = rng(spec.match * 92821 + spec.map * 7 + 1);
  for (let i = 0; i < data.length; i++) data[i] = Math.max(0, Math.min(255, data[i]! + (grain() - 0.5) * 24));
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
    .resize(spec.width, spec.height, { fit: 'fill' })
    .blur(Math.max(1, spec.width / 300))
    .raw()
    .toBuffer();
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const text = (x: number, y: number, size: number, body: string, extra = '') =>
  `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" font-size="${size.toFixed(1)}" ${extra}>${esc(body)}</text>`;

/** A round emblem with the team's tag (the team's logo in the game). */
function logo(spec: ResultScreenSpec, cx: number, cy: number, r: number): string {
  const random = rng(spec.tag.charCodeAt(0) * 131 + spec.team.length);
  const hue = random() * 360;
  return [
    `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${hsl(hue, 70, 40)}" stroke="${hsl(hue, 60, 80)}" stroke-width="${r / 8}"/>`,
    `<polygon points="${cx},${cy - r * 0.7} ${cx + r * 0.6},${cy + r * 0.5} ${cx - r * 0.6},${cy + r * 0.5}" fill="${hsl(hue + 180, 60, 60, 0.7)}"/>`,
    text(cx, cy + r * 0.25, r * 0.7, spec.tag, 'text-anchor="middle" font-weight="bold" fill="#fff"'),
  ].join('');
}

/** BGMI's own-team card: the placement, the team, then one panel per player with its numbers. */
function bgmiCard(spec: ResultScreenSpec): string {
  const { width: w, height: h } = spec;
  const u = h / 100;
  const parts = [
    `<rect width="${w}" height="${h}" fill="rgba(0,0,0,0.35)"/>`,
    text(w * 0.04, u * 20, u * 14, `#${spec.placement}`, 'font-weight="bold" fill="#ffd54a" font-style="italic"'),
    text(w * 0.04 + u * 14 * (String(spec.placement).length * 0.62 + 0.7), u * 20, u * 6, `/${spec.teams}`, 'fill="#ddd"'),
    text(
      w * 0.3,
      u * 12,
      u * 5.5,
      spec.placement === 1 ? 'WINNER WINNER CHICKEN DINNER!' : 'BETTER LUCK NEXT TIME!',
      'font-weight="bold" fill="#fff"',
    ),
    text(w * 0.96, u * 7, u * 3, `${MAPS[spec.map % MAPS.length]} · CLASSIC · SQUAD · TPP`, 'text-anchor="end" fill="#eee"'),
    logo(spec, w * 0.32, u * 20, u * 4.5),
    text(w * 0.32 + u * 6.5, u * 22, u * 4.5, spec.team, 'font-weight="bold" fill="#fff"'),
  ];
  const panelW = w * 0.2;
  spec.players.forEach((p, i) => {
    const x = w * 0.08 + i * (panelW + w * 0.025);
    const y = u * 30;
    parts.push(
      `<rect x="${x}" y="${y}" width="${panelW}" height="${u * 56}" rx="${u}" fill="rgba(10,20,30,0.55)" stroke="rgba(255,255,255,0.25)"/>`,
      `<circle cx="${x + panelW / 2}" cy="${y + u * 9}" r="${u * 5}" fill="${hsl(i * 80 + spec.tag.length * 20, 40, 55)}"/>`,
      `<rect x="${x + panelW / 2 - u * 6}" y="${y + u * 14}" width="${u * 12}" height="${u * 8}" rx="${u * 2}" fill="${hsl(i * 80, 30, 35)}"/>`,
      text(x + panelW / 2, y + u * 29, u * 4, p.ign, 'text-anchor="middle" font-weight="bold" fill="#fff"'),
    );
    const rows: [string, string][] = [
      ['Finishes', String(p.finishes)],
      ['Damage', String(p.damage)],
      ['Assists', String(p.assists)],
      ['Survived', p.survived],
    ];
    rows.forEach(([label, value], k) => {
      const ry = y + u * (37 + k * 5.5);
      parts.push(
        text(x + u * 2, ry, u * 3.2, label, 'fill="#bbb"'),
        text(x + panelW - u * 2, ry, u * 3.4, value, 'text-anchor="end" fill="#fff" font-weight="bold"'),
      );
    });
  });
  parts.push(
    `<rect x="${w * 0.62}" y="${u * 89}" width="${w * 0.15}" height="${u * 7}" rx="${u}" fill="rgba(255,255,255,0.15)"/>`,
    text(w * 0.695, u * 94, u * 3.5, 'SHARE', 'text-anchor="middle" fill="#fff"'),
    `<rect x="${w * 0.79}" y="${u * 89}" width="${w * 0.17}" height="${u * 7}" rx="${u}" fill="#f2b705"/>`,
    text(w * 0.875, u * 94, u * 3.5, 'CONTINUE', 'text-anchor="middle" fill="#222" font-weight="bold"'),
  );
  return parts.join('');
}

/** Free Fire's results table: BOOYAH or the placement, the team, one row per player. */
function ffTable(spec: ResultScreenSpec): string {
  const { width: w, height: h } = spec;
  const u = h / 100;
  const x0 = w * 0.12;
  const tw = w * 0.76;
  const columns = ['PLAYER', 'KILLS', 'DAMAGE', 'ASSISTS', 'SURVIVAL'];
  const colX = [0.03, 0.42, 0.57, 0.72, 0.86].map((f) => x0 + tw * f);
  const parts = [
    `<rect width="${w}" height="${h}" fill="rgba(0,0,0,0.3)"/>`,
    text(
      w / 2,
      u * 15,
      u * 11,
      spec.placement === 1 ? 'BOOYAH!' : `#${spec.placement}`,
      'text-anchor="middle" font-weight="bold" fill="#ffb300"',
    ),
    text(
      w / 2,
      u * 22,
      u * 3.2,
      `RANK ${spec.placement} OF ${spec.teams} · ${MAPS[spec.map % MAPS.length]}`,
      'text-anchor="middle" fill="#eee"',
    ),
    logo(spec, x0 + u * 5, u * 31, u * 4),
    text(x0 + u * 11, u * 33, u * 4.2, spec.team, 'font-weight="bold" fill="#fff"'),
    `<rect x="${x0}" y="${u * 38}" width="${tw}" height="${u * 7}" fill="rgba(255,179,0,0.85)"/>`,
    ...columns.map((c, i) => text(colX[i]!, u * 43, u * 3.2, c, 'font-weight="bold" fill="#222"')),
  ];
  spec.players.forEach((p, r) => {
    const y = u * (46 + r * 10);
    parts.push(`<rect x="${x0}" y="${y}" width="${tw}" height="${u * 9}" fill="rgba(20,20,30,${r % 2 ? 0.6 : 0.45})"/>`);
    [p.ign, String(p.finishes), String(p.damage), String(p.assists), p.survived].forEach((v, i) => {
      parts.push(text(colX[i]!, y + u * 6, u * 3.8, v, `fill="#fff"${i === 0 ? ' font-weight="bold"' : ''}`));
    });
  });
  parts.push(
    `<rect x="${w * 0.4}" y="${u * 90}" width="${w * 0.2}" height="${u * 7}" rx="${u * 3}" fill="#ffb300"/>`,
    text(w / 2, u * 95, u * 3.5, 'CONFIRM', 'text-anchor="middle" font-weight="bold" fill="#222"'),
  );
  return parts.join('');
}

/** A phone's status bar: clock, signal and battery on black. */
export function statusBarSvg(width: number, height: number, seed: number): string {
  const random = rng(seed + 5);
  const clock = `${int(random, 10, 23)}:${String(int(random, 0, 59)).padStart(2, '0')}`;
  const u = height / 10;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="Noto Sans">`,
    `<rect width="${width}" height="${height}" fill="#000"/>`,
    text(u * 8, u * 7, u * 6, clock, 'fill="#fff"'),
    `<rect x="${width - u * 22}" y="${u * 2.5}" width="${u * 9}" height="${u * 5}" rx="${u}" fill="none" stroke="#fff"/>`,
    `<rect x="${width - u * 21}" y="${u * 3.5}" width="${u * (7 * random())}" height="${u * 3}" fill="#fff"/>`,
    ...[0, 1, 2, 3].map(
      (k) => `<rect x="${width - u * (40 - k * 3)}" y="${u * (7 - k * 1.4)}" width="${u * 2}" height="${u * (k * 1.4 + 1)}" fill="#fff"/>`,
    ),
    '</svg>',
  ].join('');
}

/** The status bar's height on a landscape phone screen of this height. */
export const statusBarHeight = (height: number) => Math.round(height * 0.045);

/** A rendered screen: its pixels (RGB) and the PNG the phone saves. */
export interface Screen {
  spec: ResultScreenSpec;
  pixels: Buffer;
  png: Buffer;
}

export async function resultScreen(spec: ResultScreenSpec): Promise<Screen> {
  const overlay = spec.layout === 'bgmi-card' ? bgmiCard(spec) : ffTable(spec);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${spec.width}" height="${spec.height}" font-family="Noto Sans">${overlay}</svg>`;
  const layers: sharp.OverlayOptions[] = [{ input: Buffer.from(svg) }];
  if (spec.statusBar)
    layers.push({ input: Buffer.from(statusBarSvg(spec.width, statusBarHeight(spec.height), spec.match)), top: 0, left: 0 });
  const raw = { width: spec.width, height: spec.height, channels: 3 as const };
  const pixels = await sharp(await scene(spec), { raw })
    .composite(layers)
    .removeAlpha()
    .raw()
    .toBuffer();
  const png = await sharp(pixels, { raw }).png({ compressionLevel: 1 }).toBuffer();
  return { spec, pixels, png };
}

/** The screen's pixels, to change (no PNG to decode again). */
const open = (screen: Screen) => sharp(screen.pixels, { raw: { width: screen.spec.width, height: screen.spec.height, channels: 3 } });

/** A change a re-sent screenshot goes through (a messenger's re-encode, a crop, an edit): answers the file sent. */
export interface Variant {
  name: string;
  make: (screen: Screen, seed: number) => Promise<Buffer>;
}

type Edge = 'left' | 'right' | 'top' | 'bottom';
const EDGES: readonly Edge[] = ['left', 'right', 'top', 'bottom'];

/** Cuts fractions off the given edges. */
function crop(screen: Screen, edges: Partial<Record<Edge, number>>): sharp.Sharp {
  const { width, height } = screen.spec;
  const [left, top, right, bottom] = [edges.left, edges.top, edges.right, edges.bottom].map((f, i) =>
    Math.round((i % 2 ? height : width) * (f ?? 0)),
  );
  return open(screen).extract({ left: left!, top: top!, width: width - left! - right!, height: height - top! - bottom! });
}

/** 2–5 % off one edge, or off two different edges. */
function someEdges(seed: number, count: 1 | 2): Partial<Record<Edge, number>> {
  const random = rng(seed * 97 + count);
  const first = pick(random, EDGES);
  const edges: Partial<Record<Edge, number>> = { [first]: 0.02 + random() * 0.03 };
  if (count === 2)
    edges[
      pick(
        random,
        EDGES.filter((e) => e !== first),
      )
    ] = 0.02 + random() * 0.03;
  return edges;
}

/** Resized to a fraction of the screen's width (after a crop called before: sharp extracts first). */
const scaled = (image: sharp.Sharp, screen: Screen, f: number) => image.resize({ width: Math.round(screen.spec.width * f) });

/**
 * The status bar cut off (a screen with one), or added (a screen without): over the top of the game on
 * even seeds (what it hid is lost), above it on odd ones (the picture grows).
 */
async function toggleStatusBar(screen: Screen, seed: number): Promise<sharp.Sharp> {
  const { width, height, statusBar } = screen.spec;
  const bar = statusBarHeight(height);
  if (statusBar) return open(screen).extract({ left: 0, top: bar, width, height: height - bar });
  if (seed % 2 === 0) return open(screen).composite([{ input: Buffer.from(statusBarSvg(width, bar, seed)), top: 0, left: 0 }]);
  // Added above the screen: the picture grows by the bar, as a phone's screenshot that includes it.
  const grown = await open(screen).extend({ top: bar, background: '#000' }).png({ compressionLevel: 0 }).toBuffer();
  return sharp(grown).composite([{ input: Buffer.from(statusBarSvg(width, bar, seed)), top: 0, left: 0 }]);
}

export const VARIANTS: readonly Variant[] = [
  { name: 'JPEG at quality 30', make: (s) => open(s).jpeg({ quality: 30 }).toBuffer() },
  { name: 'WebP at quality 55', make: (s) => open(s).webp({ quality: 55 }).toBuffer() },
  { name: 'resized to 50 %, JPEG', make: (s) => scaled(open(s), s, 0.5).jpeg({ quality: 70 }).toBuffer() },
  { name: 'resized to 75 %, PNG', make: (s) => scaled(open(s), s, 0.75).png().toBuffer() },
  { name: 'cropped 2–5 % off one edge', make: (s, seed) => crop(s, someEdges(seed, 1)).jpeg({ quality: 80 }).toBuffer() },
  {
    name: 'cropped 2–5 % off two edges, resized to 60 %',
    make: (s, seed) =>
      scaled(crop(s, someEdges(seed, 2)), s, 0.6)
        .webp({ quality: 70 })
        .toBuffer(),
  },
  { name: 'brightness +15 %', make: (s) => open(s).modulate({ brightness: 1.15 }).jpeg({ quality: 75 }).toBuffer() },
  { name: 'brightness −15 %', make: (s) => open(s).modulate({ brightness: 0.85 }).webp({ quality: 75 }).toBuffer() },
  { name: 'status bar added or removed', make: async (s, seed) => (await toggleStatusBar(s, seed)).jpeg({ quality: 85 }).toBuffer() },
  {
    name: 'cropped 2–5 %, 10 % darker, resized to 66 %, JPEG 45',
    make: (s, seed) =>
      scaled(crop(s, someEdges(seed + 1, 1)), s, 0.66)
        .modulate({ brightness: 0.9 })
        .jpeg({ quality: 45 })
        .toBuffer(),
  },
];
