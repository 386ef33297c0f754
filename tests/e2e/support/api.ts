import crypto from 'node:crypto';
import fs from 'node:fs';
import sharp from 'sharp';
import type { StackInfo } from './stack.mjs';
import { Api } from '../../fixtures/api-client';

/**
 * Test data through the gateway's HTTP API (never through the database): the admin logs in and
 * creates tournaments (multipart, like the admin screen), players register over /api/auth/register.
 * Every name is unique, so tests never depend on one another's data.
 */

export interface Tournament {
  id: number;
  name: string;
  game: string;
  description: string;
  startDate: string;
  endDate: string;
  registrationOpen: string;
  registrationClose: string;
  maxTeams: number;
  format: string;
  platform: string;
  entryFee: number;
  prizePool: string;
  coverImageUrl: string | null;
  coverImageWidth: number | null;
  coverImageHeight: number | null;
  status: string;
  overview: string;
  pointsSystem: string;
  registeredTeams: number;
}

export interface Player {
  email: string;
  phone: string;
  username: string;
  password: string;
  token: string;
}

export interface Match {
  id: number;
  tid: number;
  day: number;
  matchNo: number;
  map: string;
  matchId: string | null;
  password: string | null;
  time: string;
}

export interface Registration {
  rid: number;
  tid: number;
  teamName: string;
}

/** A short unique tag: letters and digits only, so it fits usernames, team names and emails. */
export function unique(): string {
  return `${Date.now().toString(36).slice(-4)}${crypto.randomBytes(3).toString('hex')}`;
}

/** A fresh 12-digit UTR: one UTR pays for one registration, across the shared e2e stack (decision 029). */
export function uniqueUtr(): string {
  return `${crypto.randomInt(1, 10)}${String(crypto.randomInt(0, 10 ** 11)).padStart(11, '0')}`;
}

export function uniquePhone(): string {
  return '9' + String(crypto.randomInt(0, 1_000_000_000)).padStart(9, '0');
}

export function isoIn(days: number, hours = 0): string {
  return new Date(Date.now() + days * 86_400_000 + hours * 3_600_000).toISOString();
}

let coverCache: Promise<Buffer> | undefined;
/** A real 1200×675 PNG (the gateway checks image bytes and re-encodes to WebP). */
export function coverPng(): Promise<Buffer> {
  coverCache ??= sharp({ create: { width: 1200, height: 675, channels: 3, background: { r: 32, g: 90, b: 180 } } })
    .png()
    .toBuffer();
  return coverCache;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    super(`${what}: gateway answered ${status} ${JSON.stringify(body)}`);
  }
}

export class GatewayApi {
  private admin: Promise<string> | undefined;

  constructor(readonly stack: Pick<StackInfo, 'gatewayUrl' | 'admin'>) {}

  async request<T = unknown>(
    method: string,
    path: string,
    options: { token?: string; json?: unknown; form?: FormData; expect?: number[]; what?: string } = {},
  ): Promise<T> {
    const res = await new Api(this.stack.gatewayUrl).request<T>(method, path, {
      token: options.token,
      json: options.json,
      form: options.form,
      headers: { accept: 'application/json' },
      timeoutMs: 15_000,
    });
    const expected = options.expect ?? [200, 201];
    if (!expected.includes(res.status)) throw new ApiError(res.status, res.body, options.what ?? `${method} ${path}`);
    return res.body;
  }

  login(emailOrPhone: string, password: string): Promise<{ token: string; username: string }> {
    return this.request('POST', '/api/auth/login', { json: { emailOrPhone, password }, expect: [200], what: 'login' });
  }

  adminToken(): Promise<string> {
    this.admin ??= this.login(this.stack.admin.email, this.stack.admin.password).then((r) => r.token);
    return this.admin;
  }

  /** Tournament fields as the admin form sends them; registration open now, start in 10 days. */
  static tournamentFields(overrides: Record<string, string> = {}): Record<string, string> {
    const u = unique();
    return {
      name: `E2E Cup ${u}`,
      game: 'BGMI',
      description: `A squad tournament made by the end-to-end tests (${u}).`,
      startDate: isoIn(10),
      endDate: isoIn(12),
      registrationOpen: isoIn(-1),
      registrationClose: isoIn(9),
      maxTeams: '16',
      format: 'Squad',
      platform: 'Mobile',
      entryFee: '150',
      prizePool: '₹25,000',
      status: 'Registration Ongoing',
      overview: 'Three days of Erangel, Miramar and Sanhok.',
      ...overrides,
    };
  }

  async createTournament(overrides: Record<string, string> = {}, options: { cover?: boolean } = {}): Promise<Tournament> {
    const fields = GatewayApi.tournamentFields(overrides);
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    if (options.cover) form.append('coverImage', new Blob([new Uint8Array(await coverPng())], { type: 'image/png' }), 'cover.png');
    return this.request<Tournament>('POST', '/tournaments/add', { token: await this.adminToken(), form, what: 'create tournament' });
  }

  getTournament(id: number): Promise<Tournament> {
    return this.request<Tournament>('GET', `/tournaments/${id}`, { expect: [200] });
  }

  /** A new account (POST /api/auth/register), logged in. */
  async createPlayer(overrides: Partial<Omit<Player, 'token'>> = {}): Promise<Player> {
    const u = unique();
    const player = {
      email: `e2e-${u}@test.example`,
      phone: uniquePhone(),
      username: `e2e_${u}`,
      password: `pass-${u}-word`,
      ...overrides,
    };
    await this.request('POST', '/api/auth/register', { json: player, expect: [201], what: 'register account' });
    const { token } = await this.login(player.email, player.password);
    return { ...player, token };
  }

  /** Registers a team of four (unique IGNs) for the player. */
  async registerTeam(tid: number, player: Player, teamName = `Team ${unique()}`): Promise<Registration> {
    const u = unique();
    return this.request<Registration>('POST', `/registrations/${tid}`, {
      token: player.token,
      json: {
        teamName,
        player1Username: `a_${u}`,
        player2Username: `b_${u}`,
        player3Username: `c_${u}`,
        player4Username: `d_${u}`,
        substitute1Username: '',
        substitute2Username: '',
      },
      expect: [200, 201],
      what: 'register team',
    });
  }

  /** One team's result in one match, as the admin points form sends it (totalPoints 0: the gateway computes it). */
  async submitPoints(tid: number, entry: { day: number; match: number; team: Registration; position: number; wins?: number; finishes: number }) {
    return this.request('POST', `/tournaments/${tid}/points-table`, {
      token: await this.adminToken(),
      json: {
        day: entry.day,
        match: entry.match,
        teamId: entry.team.rid,
        teamName: entry.team.teamName,
        position: entry.position,
        wins: entry.wins ?? (entry.position === 1 ? 1 : 0),
        finishes: entry.finishes,
        totalPoints: 0,
      },
      expect: [200, 201],
      what: 'submit points',
    });
  }

  /** A match with its room details, as the admin match form sends it (POST /matches). */
  async createMatch(tid: number, match: { day: number; matchNo: number; map: string; matchId: string; password: string; time: string }): Promise<Match> {
    return this.request<Match>('POST', '/matches', { token: await this.adminToken(), json: { tid, ...match }, expect: [201], what: 'create match' });
  }
}

/**
 * The password reset link the gateway "mailed": with SMTP_URL unset it logs the mail as a JSON line
 * ({ mail: { to, text } }). Polls the captured gateway output until a mail to `email` shows up.
 */
export async function readResetLink(gatewayLog: string, email: string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const lines = fs.existsSync(gatewayLog) ? fs.readFileSync(gatewayLog, 'utf8').split('\n') : [];
    for (const line of lines.reverse()) {
      if (!line.startsWith('{')) continue;
      let entry: { mail?: { to?: string; text?: string } };
      try {
        entry = JSON.parse(line);
      } catch {
        continue;
      }
      if (entry.mail?.to?.toLowerCase() !== email.toLowerCase()) continue;
      const link = entry.mail.text?.match(/https?:\/\/\S+\/reset-password\?token=\S+/)?.[0];
      if (link) return link;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`e2e: no password reset mail to ${email} in ${gatewayLog} after ${timeoutMs} ms`);
}

// --- admin: matches, points, payments (issue 8) ---

export interface PlayerRegistration extends Registration {
  paymentStatus: string;
  paymentReference: string;
}

export interface RoomMatch {
  id: number;
  day: number;
  matchNo: number;
  map: string;
  matchId: string | null;
  password: string | null;
  time: string;
}

/** The player reports the UPI reference of their team's payment (status becomes "submitted"). */
export function submitPaymentReference(api: GatewayApi, tid: number, player: Player, upiReference: string): Promise<PlayerRegistration> {
  return api.request<PlayerRegistration>('POST', `/registrations/${tid}/payment`, { token: player.token, json: { upiReference }, expect: [200], what: 'submit payment' });
}

/** GET /registrations/user as the player. */
export function playerRegistrations(api: GatewayApi, player: Player): Promise<PlayerRegistration[]> {
  return api.request<PlayerRegistration[]>('GET', '/registrations/user', { token: player.token, expect: [200] });
}

/** GET /matches/tournament/{tid} as the player (room details only for confirmed teams). */
export function playerMatches(api: GatewayApi, tid: number, player: Player): Promise<RoomMatch[]> {
  return api.request<RoomMatch[]>('GET', `/matches/tournament/${tid}`, { token: player.token, expect: [200] });
}

/** The player sends a fresh UTR and the organiser verifies it, having seen it: the team is confirmed and gets room details (decision 029). */
export async function confirmPayment(api: GatewayApi, tid: number, player: Player, rid: number): Promise<string> {
  const utr = uniqueUtr();
  await submitPaymentReference(api, tid, player, utr);
  await api.request('PUT', `/registrations/admin/${rid}/payment`, {
    token: await api.adminToken(),
    json: { paymentStatus: 'verified', expectedUpiReference: utr },
    expect: [200],
    what: 'verify payment',
  });
  return utr;
}
