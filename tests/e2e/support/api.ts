import fs from 'node:fs';
import { Api } from '../../fixtures/api-client';
import { matchFields, playerAccount, pointsEntry, teamFields, toForm, tournamentFields, unique, uniqueUtr } from '../../support/builders';
import { pngImage } from '../../support/images';
import type { Match, MatchBody, Registration, TournamentJson, UserRegistration } from '../../support/schemas';
import type { StackInfo } from './stack.mjs';

export { isoIn, unique, uniquePhone, uniqueUtr } from '../../support/builders';

/**
 * Test data through the gateway's HTTP API (never through the database): the admin logs in and
 * creates tournaments (multipart, like the admin screen), players register over /api/auth/register.
 * Every name is unique, so tests never depend on one another's data.
 */

/** The gateway's answers, typed from its schemas (tests/support/schemas.ts). */
export type Tournament = TournamentJson;
export type { Match, Registration };

export interface Player {
  email: string;
  phone: string;
  username: string;
  password: string;
  token: string;
}

let coverCache: Promise<Buffer> | undefined;
/** A real 1200×675 PNG (the gateway checks image bytes and re-encodes to WebP). */
export function coverPng(): Promise<Buffer> {
  coverCache ??= pngImage(1200, 675, { r: 32, g: 90, b: 180 });
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

  /** Tournament fields as the admin form sends them (tests/support's builder); registration open now, start in 10 days. */
  static tournamentFields(overrides: Record<string, string> = {}): Record<string, string> {
    const u = unique();
    return tournamentFields({
      name: `E2E Cup ${u}`,
      description: `A squad tournament made by the end-to-end tests (${u}).`,
      entryFee: '150',
      prizePool: '₹25,000',
      overview: 'Three days of Erangel, Miramar and Sanhok.',
      ...overrides,
    });
  }

  async createTournament(overrides: Record<string, string> = {}, options: { cover?: boolean } = {}): Promise<Tournament> {
    const fields = GatewayApi.tournamentFields(overrides);
    const cover = options.cover ? [{ name: 'coverImage', data: await coverPng(), filename: 'cover.png', type: 'image/png' }] : [];
    const form = toForm(fields, cover);
    return this.request<Tournament>('POST', '/tournaments/add', { token: await this.adminToken(), form, what: 'create tournament' });
  }

  getTournament(id: number): Promise<Tournament> {
    return this.request<Tournament>('GET', `/tournaments/${id}`, { expect: [200] });
  }

  /** A new account (POST /api/auth/register), logged in. */
  async createPlayer(overrides: Partial<Omit<Player, 'token'>> = {}): Promise<Player> {
    const u = unique();
    const player = playerAccount({ email: `e2e-${u}@test.example`, username: `e2e_${u}`, password: `pass-${u}-word`, ...overrides });
    await this.request('POST', '/api/auth/register', { json: player, expect: [201], what: 'register account' });
    const { token } = await this.login(player.email, player.password);
    return { ...player, token };
  }

  /** Registers a team of four (unique IGNs) for the player. */
  async registerTeam(tid: number, player: Player, teamName = `Team ${unique()}`): Promise<Registration> {
    return this.request<Registration>('POST', `/registrations/${tid}`, {
      token: player.token,
      json: teamFields({ teamName }),
      expect: [200, 201],
      what: 'register team',
    });
  }

  /** One team's result in one match, as the admin points form sends it (totalPoints 0: the gateway computes it). */
  async submitPoints(
    tid: number,
    entry: { day: number; match: number; team: Pick<Registration, 'rid' | 'teamName'>; position: number; wins?: number; finishes: number },
  ) {
    return this.request('POST', `/tournaments/${tid}/points-table`, {
      token: await this.adminToken(),
      json: pointsEntry({ ...entry, teamId: entry.team.rid, teamName: entry.team.teamName }),
      expect: [200, 201],
      what: 'submit points',
    });
  }

  /** A match with its room details, as the admin match form sends it (POST /matches). */
  async createMatch(tid: number, match: Omit<MatchBody, 'tid'>): Promise<Match> {
    return this.request<Match>('POST', '/matches', {
      token: await this.adminToken(),
      json: matchFields(tid, match),
      expect: [201],
      what: 'create match',
    });
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

/** A team as its player sees it (GET /registrations/user). */
export type PlayerRegistration = UserRegistration;
/** A match as GET /matches/tournament/{tid} answers (room details only for confirmed teams). */
export type RoomMatch = Match;

/** The player reports the UPI reference of their team's payment (status becomes "submitted"). */
export function submitPaymentReference(api: GatewayApi, tid: number, player: Player, upiReference: string): Promise<Registration> {
  return api.request<Registration>('POST', `/registrations/${tid}/payment`, {
    token: player.token,
    json: { upiReference },
    expect: [200],
    what: 'submit payment',
  });
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
