import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import sharp from 'sharp';
import { type PaymentStatus, placementPoints, type PointsSystem, ROLE_USER, type TournamentStatus } from '@custom-room/contract';
import { bumpGeneration } from '../db/generation.js';
import { insertImage, type ProcessedImage } from '../db/images.js';
import type { Trx } from '../db/index.js';
import { insertMatch } from '../db/matches.js';
import { siteOrganiserId } from '../db/organisers.js';
import { insertRegistration, setPayment, submitPayment } from '../db/registrations.js';
import { insertMatchResults, type NewMatchResult } from '../db/results.js';
import { insertTournament } from '../db/tournaments.js';
import { findUserByEmail, insertUser } from '../db/users.js';
import { isoAt } from '../lib/clock.js';
import { processCoverImage } from '../lib/images.js';
import { hashPassword } from '../lib/passwords.js';

/** Every demo account (demo1@example.com ... demo16@example.com) logs in with this password. */
export const DEMO_PLAYER_PASSWORD = 'demo-player-123';
export const demoEmail = (n: number) => `demo${n}@example.com`;

const DAY_MS = 86_400_000;
const IST_OFFSET_MINUTES = 330;
/** Any constant works; it only has to be the same in every gateway instance. */
const SEED_LOCK_KEY = 7_345_021;

interface DemoTeam {
  owner: string; // the account's username, also player 1's IGN
  phone: string;
  teamName: string;
  tag: string;
}

// Invented names: realistic for Indian squads, none belongs to a real player or organisation.
const TEAMS: DemoTeam[] = [
  { owner: 'ArjunXD', phone: '+919876501001', teamName: 'Mumbai Mavericks', tag: 'MMV' },
  { owner: 'KaranOP', phone: '+919876501002', teamName: 'Delhi Daredevils Esports', tag: 'DDE' },
  { owner: 'PriyaSnipes', phone: '+919876501003', teamName: 'Chennai Chargers', tag: 'CHC' },
  { owner: 'VikramFrag', phone: '+919876501004', teamName: 'Kolkata Knight Riders GG', tag: 'KKR' },
  { owner: 'AnanyaClutch', phone: '+919876501005', teamName: 'Pune Predators', tag: 'PNP' },
  { owner: 'RohanRush', phone: '+919876501006', teamName: 'Hyderabad Hawks', tag: 'HYH' },
  { owner: 'IshaHeadshot', phone: '+919876501007', teamName: 'Jaipur Jaguars', tag: 'JPJ' },
  { owner: 'DevMedic', phone: '+919876501008', teamName: 'Lucknow Legends', tag: 'LKL' },
  { owner: 'NehaNades', phone: '+919876501009', teamName: 'Bengaluru Blitz', tag: 'BLZ' },
  { owner: 'AdityaIGL', phone: '+919876501010', teamName: 'Ahmedabad Assassins', tag: 'AHA' },
  { owner: 'SaraSpray', phone: '+919876501011', teamName: 'Goa Gladiators', tag: 'GOG' },
  { owner: 'ManishAWM', phone: '+919876501012', teamName: 'Indore Invaders', tag: 'IDI' },
  { owner: 'TanviScout', phone: '+919876501013', teamName: 'Kochi Krakens', tag: 'KOK' },
  { owner: 'YashDrop', phone: '+919876501014', teamName: 'Chandigarh Cobras', tag: 'CDC' },
  { owner: 'KabirLoot', phone: '+919876501015', teamName: 'Patna Phantoms', tag: 'PTP' },
  { owner: 'MeeraZone', phone: '+919876501016', teamName: 'Guwahati Rhinos', tag: 'GWR' },
];

const ROLES = ['Viper', 'Ghost', 'Storm'];
const SUBSTITUTE = 'Rookie';

interface DemoMatchPlan {
  days: number;
  matchesPerDay: number;
  /** Days whose matches have room ID and password published. */
  roomDays: number;
  /** Days whose results are in. */
  pointsDays: number;
}

interface DemoTournament {
  name: string;
  game: 'BGMI' | 'Free Fire';
  status: TournamentStatus;
  pointsSystem: PointsSystem;
  /** Days from now, at 18:30 IST for starts and 23:59 for closes. */
  registrationOpen: number;
  registrationClose: number;
  start: number;
  end: number;
  maxTeams: number;
  teams: number;
  entryFee: number;
  prizePool: string;
  description: string;
  overview: string;
  colours: [string, string, string];
  matches?: DemoMatchPlan;
  maps: string[];
}

const BGMI_MAPS = ['Erangel', 'Miramar', 'Sanhok', 'Vikendi'];
const FREE_FIRE_MAPS = ['Bermuda', 'Purgatory', 'Kalahari', 'Alpine'];

const TOURNAMENTS: DemoTournament[] = [
  {
    name: 'Monsoon Squad Showdown',
    game: 'BGMI',
    status: 'Registration Ongoing',
    pointsSystem: 'bgis-10',
    registrationOpen: -3,
    registrationClose: 5,
    start: 7,
    end: 9,
    maxTeams: 25,
    teams: 6,
    entryFee: 100,
    prizePool: '₹25,000',
    description:
      'A three-day BGMI squad tournament for teams across India. Custom rooms every evening, four matches a day on Erangel, Miramar and Sanhok. Room ID and password are shared here 15 minutes before each match.',
    overview:
      'Day 1–2: league stage, all teams play. Day 3: top 16 in the grand finals. Prize split: ₹12,000 / ₹7,000 / ₹4,000 + ₹2,000 for the MVP.',
    colours: ['#0f2027', '#2c5364', '#38ef7d'],
    maps: BGMI_MAPS,
  },
  {
    name: 'Diwali Dhamaka BGMI Cup',
    game: 'BGMI',
    status: 'Upcoming',
    pointsSystem: 'bmps-15',
    registrationOpen: 10,
    registrationClose: 20,
    start: 22,
    end: 24,
    maxTeams: 20,
    teams: 0,
    entryFee: 250,
    prizePool: '₹1,00,000',
    description:
      'The festive-season showpiece: twenty squads, three days, BMPS-style scoring with 15 points for a chicken dinner. Registration opens ten days from now.',
    overview: 'Scoring: 15, 12, 10, 8, 6, 4, 2, 1, 1, 1, 1, 1 placement points plus 1 per finish. Emulators are not allowed.',
    colours: ['#f12711', '#f5af19', '#4a0d67'],
    maps: BGMI_MAPS,
  },
  {
    name: 'Desi Battle League: Season 3',
    game: 'BGMI',
    status: 'Ongoing',
    pointsSystem: 'bgis-10',
    registrationOpen: -14,
    registrationClose: -3,
    start: -1,
    end: 1,
    maxTeams: 16,
    teams: 16,
    entryFee: 50,
    prizePool: '₹50,000',
    description:
      "Sixteen squads, three days, four matches a day. Day 1 is done; today's rooms are below for registered teams. Points update after every match.",
    overview:
      'Day 1: Erangel, Miramar, Sanhok, Vikendi. Day 2: the same rotation. Day 3: finals on Erangel and Miramar. Tie-breakers: wins, then placement points, then finishes.',
    colours: ['#141e30', '#243b55', '#e94057'],
    matches: { days: 2, matchesPerDay: 4, roomDays: 2, pointsDays: 1 },
    maps: BGMI_MAPS,
  },
  {
    name: 'Campus Clash Invitational',
    game: 'BGMI',
    status: 'Completed',
    pointsSystem: 'bmps-15',
    registrationOpen: -30,
    registrationClose: -20,
    start: -18,
    end: -16,
    maxTeams: 16,
    teams: 16,
    entryFee: 0,
    prizePool: '₹15,000',
    description: 'A free tournament for college squads: three days, twelve matches, and the overall points table below.',
    overview: 'Thanks to every squad that played. Prizes were paid by UPI within 48 hours of the finals.',
    colours: ['#1d2b64', '#f8cdda', '#6a3093'],
    matches: { days: 3, matchesPerDay: 4, roomDays: 3, pointsDays: 3 },
    maps: BGMI_MAPS,
  },
  {
    name: 'Free Fire Booyah Brawl',
    game: 'Free Fire',
    status: 'Registration Closed',
    pointsSystem: 'freefire-12',
    registrationOpen: -7,
    registrationClose: -1,
    start: 2,
    end: 3,
    maxTeams: 12,
    teams: 12,
    entryFee: 500,
    prizePool: '₹75,000',
    description:
      'Twelve Free Fire squads, two days of Bermuda, Purgatory and Kalahari. Registration is full; the schedule is below and room details follow on match day.',
    overview: 'Scoring: 12, 9, 8, 7, 6, 5, 4, 3, 2, 1 placement points plus 1 per kill. Booyah counts as the win.',
    colours: ['#ff512f', '#dd2476', '#1a2a6c'],
    matches: { days: 1, matchesPerDay: 4, roomDays: 0, pointsDays: 0 },
    maps: FREE_FIRE_MAPS,
  },
];

const MATCH_TIMES = ['18:00', '18:45', '19:30', '20:15'];

/** A UTC ISO time for hh:mm IST, `days` days from now (ms). */
function istAt(now: number, days: number, hh: number, mm: number): string {
  const d = new Date(now + days * DAY_MS);
  d.setUTCHours(hh, mm, 0, 0);
  return new Date(d.getTime() - IST_OFFSET_MINUTES * 60_000).toISOString();
}

/** Small seeded PRNG, so every demo database looks the same. */
function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 1200×675 abstract cover: gradient, diagonal bands and rings. No text, so no fonts are needed. */
function coverSvg([a, b, c]: [string, string, string], random: () => number): string {
  const bands = Array.from({ length: 5 }, (_, i) => {
    const x = Math.round(100 + i * 230 + random() * 80);
    const w = Math.round(40 + random() * 120);
    return `<rect x="${x}" y="-300" width="${w}" height="1400" fill="${i % 2 ? b : c}" opacity="${(0.12 + random() * 0.18).toFixed(2)}" transform="rotate(28 ${x} 337)"/>`;
  }).join('');
  const rings = Array.from({ length: 3 }, () => {
    const r = Math.round(80 + random() * 220);
    return `<circle cx="${Math.round(200 + random() * 800)}" cy="${Math.round(100 + random() * 475)}" r="${r}" fill="none" stroke="${c}" stroke-width="${Math.round(6 + random() * 18)}" opacity="0.25"/>`;
  }).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="675" viewBox="0 0 1200 675">
<defs>
<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient>
<radialGradient id="glow" cx="0.75" cy="0.3" r="0.6"><stop offset="0" stop-color="${c}" stop-opacity="0.55"/><stop offset="1" stop-color="${c}" stop-opacity="0"/></radialGradient>
<linearGradient id="shade" x1="0" y1="0" x2="0" y2="1"><stop offset="0.55" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.55"/></linearGradient>
</defs>
<rect width="1200" height="675" fill="url(#bg)"/>
<rect width="1200" height="675" fill="url(#glow)"/>
${bands}${rings}
<rect width="1200" height="675" fill="url(#shade)"/>
</svg>`;
}

async function coverImage(colours: [string, string, string], seed: number): Promise<ProcessedImage> {
  const png = await sharp(Buffer.from(coverSvg(colours, mulberry32(seed))))
    .png()
    .toBuffer();
  return processCoverImage(png);
}

function teamFields(team: DemoTeam, withSubstitute: boolean) {
  return {
    teamName: team.teamName,
    player1Username: team.owner,
    player2Username: `${team.tag}_${ROLES[0]}`,
    player3Username: `${team.tag}_${ROLES[1]}`,
    player4Username: `${team.tag}_${ROLES[2]}`,
    substitute1Username: withSubstitute ? `${team.tag}_${SUBSTITUTE}` : '',
    substitute2Username: '',
  };
}

/** Payment states a real list shows: settled for running or past events, a mix while registration is open. */
function paymentFor(t: DemoTournament, tournamentIndex: number, index: number): { status: PaymentStatus; reference?: string } {
  const reference = utr(tournamentIndex * 100 + index);
  if (t.entryFee === 0 || t.status !== 'Registration Ongoing') return { status: 'verified', reference: t.entryFee === 0 ? '' : reference };
  const states: PaymentStatus[] = ['verified', 'verified', 'submitted', 'pending', 'submitted', 'verified'];
  const status = states[index % states.length]!;
  return { status, reference: status === 'pending' ? '' : reference };
}

/** A UTR per team across every demo tournament: one UTR pays for one registration (decision 029). */
const utr = (index: number) => `4${String(219_003_311_07 + index * 7_919).padStart(11, '0')}`;

/** Placements for one match: every team placed once; better placements tend to have more finishes. */
function matchResults(
  tournamentId: number,
  system: PointsSystem,
  day: number,
  match: number,
  rids: number[],
  random: () => number,
): NewMatchResult[] {
  const order = [...rids];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order.map((registrationId, i) => {
    const position = i + 1;
    const finishes = Math.max(0, Math.round(random() * (13 - position * 0.6)));
    const positionPoints = placementPoints(system, position);
    return {
      tournamentId,
      day,
      match,
      registrationId,
      position,
      wins: position === 1 ? 1 : 0,
      finishes,
      positionPoints,
      totalPoints: positionPoints + finishes,
    };
  });
}

export interface DemoSummary {
  tournaments: number;
  players: number;
  teams: number;
  matches: number;
  results: number;
}

async function isEmpty(db: Trx): Promise<boolean> {
  const row = await db
    .selectFrom('tournaments')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n) === 0;
}

/**
 * Demo data on an empty database (SEED_DEMO=0 skips it): only when the tournaments table has no
 * rows at all, deleted or not, so an organiser's own data is never mixed with it. Safe when several
 * instances start together: the emptiness check is repeated inside one write transaction (SQLite:
 * BEGIN IMMEDIATE; PostgreSQL: an advisory lock), so the loser sees the winner's rows and does nothing.
 */
export async function seedDemo(app: FastifyInstance): Promise<DemoSummary | null> {
  const { store } = app;
  if (!(await isEmpty(store.db))) return null;

  // The slow parts (argon2, image encoding) happen before the write lock is taken.
  const [passwordHash, covers] = await Promise.all([
    hashPassword(DEMO_PLAYER_PASSWORD),
    Promise.all(TOURNAMENTS.map((t, i) => coverImage(t.colours, 1000 + i))),
  ]);

  let summary: DemoSummary | null;
  try {
    summary = await store.writeTransaction(async (trx) => {
      if (store.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`.execute(trx);
      if (!(await isEmpty(trx))) return null;
      return insertDemoData(trx, passwordHash, covers, app.clock.now());
    });
  } catch (err) {
    // Demo data is a convenience: never stop the gateway from starting over it.
    app.log.warn({ err }, 'demo data not seeded');
    return null;
  }
  if (summary) {
    app.log.info(
      summary,
      `demo data seeded: ${summary.tournaments} tournaments, ${summary.teams} teams, ${summary.matches} matches, ${summary.results} results; ` +
        `${summary.players} player accounts demo1@example.com to demo${summary.players}@example.com, password "${DEMO_PLAYER_PASSWORD}"`,
    );
  }
  return summary;
}

async function insertDemoData(trx: Trx, passwordHash: string, covers: ProcessedImage[], now: number): Promise<DemoSummary> {
  const at = isoAt(now);
  const summary: DemoSummary = { tournaments: 0, players: 0, teams: 0, matches: 0, results: 0 };

  const userIds: number[] = [];
  for (const [i, team] of TEAMS.entries()) {
    const email = demoEmail(i + 1);
    const existing = await findUserByEmail(trx, email);
    userIds.push(
      existing
        ? existing.id
        : await insertUser(trx, { email, phone: team.phone, username: team.owner, passwordHash, roles: [ROLE_USER] }, at),
    );
    summary.players += 1;
  }

  const siteId = await siteOrganiserId(trx);
  for (const [ti, t] of TOURNAMENTS.entries()) {
    const cover = covers[ti]!;
    await insertImage(trx, cover, at);
    const tid = await insertTournament(
      trx,
      {
        name: t.name,
        game: t.game,
        description: t.description,
        startDate: istAt(now, t.start, 18, 0),
        endDate: istAt(now, t.end, 22, 0),
        registrationOpen: istAt(now, t.registrationOpen, 10, 0),
        registrationClose: istAt(now, t.registrationClose, 23, 59),
        maxTeams: t.maxTeams,
        format: 'Squad',
        platform: 'Mobile',
        entryFee: t.entryFee,
        prizePool: t.prizePool,
        status: t.status,
        overview: t.overview,
        pointsSystem: t.pointsSystem,
        coverImageId: cover.id,
      },
      at,
      siteId,
    );
    summary.tournaments += 1;

    const rids: number[] = [];
    for (let i = 0; i < t.teams; i++) {
      const row = await insertRegistration(trx, tid, userIds[i]!, teamFields(TEAMS[i]!, i % 3 === 0), {
        place: 'placed',
        payBy: null,
        now: at,
      });
      const payment = paymentFor(t, ti, i);
      if (payment.reference) await submitPayment(trx, row.id, payment.reference, now);
      if (payment.status !== 'pending' && payment.status !== 'submitted') await setPayment(trx, row.id, payment.status, at);
      rids.push(row.id);
    }
    summary.teams += rids.length;

    if (!t.matches) continue;
    const random = mulberry32(tid * 7919 + ti);
    const results: NewMatchResult[] = [];
    for (let day = 1; day <= t.matches.days; day++) {
      for (let matchNo = 1; matchNo <= t.matches.matchesPerDay; matchNo++) {
        const withRoom = day <= t.matches.roomDays;
        await insertMatch(
          trx,
          {
            tid,
            day,
            matchNo,
            map: t.maps[(matchNo - 1) % t.maps.length]!,
            matchId: withRoom ? String(Math.floor(1_000_000 + random() * 8_999_999)) : '',
            password: withRoom ? String(Math.floor(1000 + random() * 8999)) : '',
            time: MATCH_TIMES[matchNo - 1] ?? '21:00',
          },
          at,
        );
        summary.matches += 1;
        if (day <= t.matches.pointsDays) results.push(...matchResults(tid, t.pointsSystem, day, matchNo, rids, random));
      }
    }
    await insertMatchResults(trx, results, at);
    summary.results += results.length;
  }
  await bumpGeneration(trx);
  return summary;
}
