import crypto from 'node:crypto';
import { Agent } from 'undici';
import { z } from 'zod';
import { clientAddress } from './client.server';
import { getEnv } from './env.server';
import { getSession, loginRedirect } from './session.server';
import {
  AdminRegistrationSchema,
  ErrorBodySchema,
  LoginSchema,
  MatchResultSchema,
  MatchSchema,
  MessageSchema,
  PointsRowSchema,
  ProfileSchema,
  RegistrationSchema,
  TournamentAdminSummarySchema,
  TournamentSchema,
  UserRegistrationSchema,
} from './gateway-schemas';

const LoginWithDeviceSchema = LoginSchema.extend({ deviceToken: z.string().optional() });
const MeSchema = z.object({ id: z.number(), username: z.string(), roles: z.array(z.string()) });

/**
 * The one way the web app talks to the gateway: base URL from GATEWAY_URL, the bearer token from
 * the cookie session, a timeout, the request id forwarded, every answer parsed with a zod schema.
 */

export type FieldErrors = Record<string, string>;

export class GatewayError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors: FieldErrors = {},
    /** true when the gateway could not be reached or answered nonsense (shown as 503) */
    readonly unavailable = false,
  ) {
    super(message);
    this.name = 'GatewayError';
  }
}

export const UNAVAILABLE_MESSAGE = 'We could not reach the tournament server. Please try again in a moment.';

const requestIds = new WeakMap<Request, string>();
/** One id per incoming request: the proxy's x-request-id when it sent a sane one, else a new one. */
export function requestId(request: Request): string {
  let id = requestIds.get(request);
  if (!id) {
    const given = request.headers.get('x-request-id');
    id = given && /^[\w.:-]{1,128}$/.test(given) ? given : crypto.randomUUID();
    requestIds.set(request, id);
  }
  return id;
}

interface CallOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  json?: unknown;
  form?: FormData;
  /** Parse the (2xx) answer with this schema. */
  schema: z.ZodType<T, z.ZodTypeDef, unknown>;
  /** Send the session's token (default true when there is one). */
  auth?: boolean;
  /** A 401 for the session's token throws a GatewayError instead of ending the session with a redirect to log in. */
  unauthorizedAsError?: boolean;
}

/** Reads an error message from a JSON body ({ message, errors }) or a plain-text body. */
export function readErrorBody(text: string, contentType: string | null): { message: string; errors: FieldErrors } {
  if (contentType?.includes('json')) {
    try {
      const parsed = ErrorBodySchema.safeParse(JSON.parse(text));
      if (parsed.success) return { message: parsed.data.message, errors: parsed.data.errors ?? {} };
    } catch {
      // fall through to text
    }
  }
  const plain = text.trim();
  return { message: plain && plain.length < 300 && !plain.startsWith('<') ? plain : '', errors: {} };
}

/**
 * Kept-alive connections to the gateway, at most GATEWAY_CONNECTIONS at a time; further calls wait
 * for a free one (their timeout runs meanwhile). Without a cap, a crowd posting at once (a
 * registration rush) made the web app open one new connection per request, past the gateway's
 * accept queue: the overflow waited a second for the kernel's SYN retry.
 */
let dispatcher: Agent | undefined;
function gatewayDispatcher(): Agent {
  dispatcher ??= new Agent({ connections: getEnv().GATEWAY_CONNECTIONS, keepAliveTimeout: 4_000, pipelining: 1 });
  return dispatcher;
}

export async function callGateway<T>(request: Request, path: string, options: CallOptions<T>): Promise<T> {
  const env = getEnv();
  const headers: Record<string, string> = { accept: 'application/json', 'x-request-id': requestId(request) };
  // The one address the server worked out under TRUST_PROXY, never the browser's own X-Forwarded-For:
  // the gateway's rate limits count by it.
  const client = clientAddress();
  if (client) headers['x-forwarded-for'] = client;

  let token: string | undefined;
  if (options.auth !== false) {
    const session = await getSession(request);
    const t = session.get('token');
    if (typeof t === 'string' && t) token = t;
  }
  if (token) headers.authorization = `Bearer ${token}`;

  let body: BodyInit | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    body = options.form;
  }

  const method = options.method ?? 'GET';
  let res: Response;
  try {
    res = await fetch(new URL(path, env.GATEWAY_URL), {
      method,
      headers,
      body,
      signal: AbortSignal.timeout(env.GATEWAY_TIMEOUT_MS),
      // Node's fetch takes undici's dispatcher; the DOM RequestInit type does not know it.
      dispatcher: gatewayDispatcher(),
    } as RequestInit);
  } catch (err) {
    const reason = (err as Error).name === 'TimeoutError' ? `timed out after ${env.GATEWAY_TIMEOUT_MS} ms` : (err as Error).message;
    console.error(JSON.stringify({ level: 'error', msg: 'gateway unreachable', reqId: requestId(request), method, path, reason }));
    throw new GatewayError(503, UNAVAILABLE_MESSAGE, {}, true);
  }

  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    // The timeout (or a dropped connection) can also strike while the body is read: same answer as above.
    console.error(JSON.stringify({ level: 'error', msg: 'gateway unreachable', reqId: requestId(request), method, path, reason: (err as Error).message }));
    throw new GatewayError(503, UNAVAILABLE_MESSAGE, {}, true);
  }
  if (res.ok) {
    let value: unknown = null;
    if (text) {
      try {
        value = res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
      } catch {
        value = text;
      }
    }
    const parsed = options.schema.safeParse(value);
    if (!parsed.success) {
      console.error(JSON.stringify({ level: 'error', msg: 'gateway answer did not match schema', reqId: requestId(request), method, path, issues: parsed.error.issues.slice(0, 3) }));
      throw new GatewayError(502, UNAVAILABLE_MESSAGE, {}, true);
    }
    return parsed.data;
  }

  // The token was refused: end the session and send the user to log in (then back here).
  if (res.status === 401 && token && !options.unauthorizedAsError) throw await loginRedirect(request);

  const { message, errors } = readErrorBody(text, res.headers.get('content-type'));
  if (res.status >= 500) {
    console.error(JSON.stringify({ level: 'error', msg: 'gateway error', reqId: requestId(request), method, path, status: res.status }));
    throw new GatewayError(503, UNAVAILABLE_MESSAGE, {}, true);
  }
  throw new GatewayError(res.status, message, errors);
}

// --- The calls (spec §7). Route modules use these, never fetch(). ---

export const gateway = {
  health: (request: Request) =>
    callGateway(request, '/healthz', { schema: z.object({ status: z.string() }), auth: false }),
  listTournaments: (request: Request) =>
    callGateway(request, '/tournaments', { schema: z.array(TournamentSchema), auth: false }),
  getTournament: (request: Request, id: string | number) =>
    callGateway(request, `/tournaments/${encodeURIComponent(String(id))}`, { schema: TournamentSchema, auth: false }),
  pointsTable: (request: Request, id: string | number, day: number) =>
    callGateway(
      request,
      day === 0
        ? `/tournaments/${encodeURIComponent(String(id))}/points-table/overall`
        : `/tournaments/${encodeURIComponent(String(id))}/points-table/day?day=${day}`,
      { schema: z.array(PointsRowSchema), auth: false },
    ),
  /** deviceToken: the one an earlier login on this browser returned (decision 022); the answer brings the one to keep. */
  login: (request: Request, body: { emailOrPhone: string; password: string; deviceToken?: string }) =>
    callGateway(request, '/api/auth/login', { method: 'POST', json: body, schema: LoginWithDeviceSchema, auth: false }),
  register: (request: Request, body: { email: string; phone: string; username: string; password: string }) =>
    callGateway(request, '/api/auth/register', { method: 'POST', json: body, schema: MessageSchema.or(z.string()), auth: false }),
  requestPasswordReset: (request: Request, body: { email: string }) =>
    callGateway(request, '/api/auth/password-reset/request', { method: 'POST', json: body, schema: MessageSchema, auth: false }),
  confirmPasswordReset: (request: Request, body: { token: string; password: string }) =>
    callGateway(request, '/api/auth/password-reset/confirm', { method: 'POST', json: body, schema: MessageSchema, auth: false }),
  /** Ends this token at the gateway (POST /api/auth/logout), or every token of the account (logout-all). */
  endSession: (request: Request, everywhere: boolean) =>
    callGateway(request, everywhere ? '/api/auth/logout-all' : '/api/auth/logout', { method: 'POST', json: {}, schema: MessageSchema.or(z.null()) }),
  /** The account the session's token stands for, if the gateway still accepts it (a revoked token: GatewayError 401). */
  me: (request: Request) => callGateway(request, '/api/auth/me', { schema: MeSchema, unauthorizedAsError: true }),
  getProfile: (request: Request) => callGateway(request, '/api/profile/get', { schema: ProfileSchema }),
  createProfile: (request: Request, body: ProfileFields) =>
    callGateway(request, '/api/profile/create', { method: 'POST', json: body, schema: ProfileSchema.or(MessageSchema) }),
  updateProfile: (request: Request, body: ProfileFields) =>
    callGateway(request, '/api/profile/update', { method: 'PUT', json: body, schema: ProfileSchema.or(MessageSchema) }),

  registerTeam: (request: Request, tournamentId: number, team: TeamFields) =>
    callGateway(request, `/registrations/${tournamentId}`, { method: 'POST', json: team, schema: RegistrationSchema.partial({ rid: true }) }),
  myRegistrations: (request: Request) => callGateway(request, '/registrations/user', { schema: z.array(UserRegistrationSchema) }),
  myTeam: (request: Request, tournamentId: number) => callGateway(request, `/registrations/${tournamentId}`, { schema: RegistrationSchema }),
  updateTeam: (request: Request, tournamentId: number, team: TeamFields) =>
    callGateway(request, `/registrations/${tournamentId}`, { method: 'PUT', json: team, schema: RegistrationSchema }),
  submitPayment: (request: Request, tournamentId: number, upiReference: string) =>
    callGateway(request, `/registrations/${tournamentId}/payment`, { method: 'POST', json: { upiReference }, schema: RegistrationSchema }),
  listMatches: (request: Request, tournamentId: number) =>
    callGateway(request, `/matches/tournament/${tournamentId}`, { schema: z.array(MatchSchema) }),

  // --- admin ---
  /** Multipart: the tournament's text fields (dates as UTC ISO strings) and an optional coverImage file. */
  addTournament: (request: Request, form: FormData) =>
    callGateway(request, '/tournaments/add', { method: 'POST', form, schema: TournamentSchema }),
  /** Multipart as addTournament; without coverImage the current cover stays. */
  updateTournament: (request: Request, id: number, form: FormData) =>
    callGateway(request, `/tournaments/admin/update/${id}`, { method: 'PUT', form, schema: TournamentSchema }),
  /** The spec's path has no slash before the id: /tournaments/admin/delete42. */
  deleteTournament: (request: Request, id: number) =>
    callGateway(request, `/tournaments/admin/delete${id}`, { method: 'DELETE', schema: MessageSchema.or(z.string()).or(z.null()) }),

  // --- admin: matches, points, payments ---
  adminTournamentSummary: (request: Request) =>
    callGateway(request, '/tournaments/admin/summary', { schema: z.array(TournamentAdminSummarySchema) }),
  tournamentRegistrations: (request: Request, tournamentId: number) =>
    callGateway(request, `/registrations/tournament/${tournamentId}`, { schema: z.array(AdminRegistrationSchema) }),
  createMatch: (request: Request, match: { tid: number; day: number; matchNo: number; map: string; matchId: string; password: string; time: string }) =>
    callGateway(request, '/matches', { method: 'POST', json: match, schema: MatchSchema }),
  updateMatch: (request: Request, id: number, match: { tid: number; day: number; matchNo: number; map: string; matchId: string; password: string; time: string }) =>
    callGateway(request, `/matches/${id}`, { method: 'PUT', json: match, schema: MatchSchema }),
  matchResults: (request: Request, tournamentId: number, day: number, match: number) =>
    callGateway(request, `/tournaments/${tournamentId}/points-table/results?${new URLSearchParams({ day: String(day), match: String(match) })}`, {
      schema: z.array(MatchResultSchema),
    }),
  /** Replaces one match's results with exactly these rows, all or nothing (decision 013). */
  saveMatchResults: (request: Request, tournamentId: number, day: number, match: number, results: { teamId: number; position: number; finishes: number }[]) =>
    callGateway(request, `/tournaments/${tournamentId}/points-table/matches/${day}/${match}`, {
      method: 'PUT',
      json: { results },
      schema: z.array(MatchResultSchema),
    }),
  /** expectedUpiReference: the reference the admin was shown; the gateway answers 409 if the team changed it since (decision 029). */
  setPaymentStatus: (request: Request, rid: number, paymentStatus: string, expectedUpiReference?: string) =>
    callGateway(request, `/registrations/admin/${rid}/payment`, { method: 'PUT', json: { paymentStatus, expectedUpiReference }, schema: RegistrationSchema }),
  /** Several teams of one tournament at once, all or nothing (decisions 013, 029). */
  setPaymentStatuses: (request: Request, body: { tournamentId: number; rids: number[]; paymentStatus: string; expectedUpiReferences?: Record<string, string> }) =>
    callGateway(request, '/registrations/admin/payments', { method: 'PUT', json: body, schema: z.array(RegistrationSchema) }),
};

export interface ProfileFields {
  fullName: string;
  bio: string;
  gender: string;
  dateOfBirth: string;
  location: string;
  profilePictureUrl: string;
}

export interface TeamFields {
  teamName: string;
  player1Username: string;
  player2Username: string;
  player3Username: string;
  player4Username: string;
  substitute1Username: string;
  substitute2Username: string;
}

/**
 * GET /images/{file} from the gateway as its raw Response (bytes, not JSON), for the web app's
 * /images proxy. Forwards If-None-Match so a revalidation can end in 304. The caller checks the
 * file name; an unreachable gateway throws a GatewayError with unavailable=true.
 */
export async function fetchImage(request: Request, file: string): Promise<Response> {
  const env = getEnv();
  const headers: Record<string, string> = { accept: 'image/webp,image/*', 'x-request-id': requestId(request) };
  const ifNoneMatch = request.headers.get('if-none-match');
  if (ifNoneMatch) headers['if-none-match'] = ifNoneMatch;
  const path = `/images/${encodeURIComponent(file)}`;
  try {
    // Images stream after the headers arrive: allow them longer than a JSON call.
    return await fetch(new URL(path, env.GATEWAY_URL), { headers, signal: AbortSignal.timeout(env.GATEWAY_TIMEOUT_MS * 3) });
  } catch (err) {
    const reason = (err as Error).name === 'TimeoutError' ? 'timed out' : (err as Error).message;
    console.error(JSON.stringify({ level: 'error', msg: 'gateway unreachable', reqId: requestId(request), method: 'GET', path, reason }));
    throw new GatewayError(503, UNAVAILABLE_MESSAGE, {}, true);
  }
}
