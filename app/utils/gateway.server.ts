import crypto from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { Agent, type Dispatcher } from 'undici';
import { z } from 'zod';
import {
  answers,
  endpoints,
  ErrorSchema,
  type Answer,
  type Endpoint,
  type EndpointName,
  type Endpoints,
  type FieldErrors,
} from '@custom-room/contract';
import { clientAddress } from './client.server';
import { getEnv } from './env.server';
import { logger } from './logger.server';
import { getSession, loginRedirect } from './session.server';

/**
 * The one way the web app talks to the gateway: base URL from GATEWAY_URL, the bearer token from
 * the cookie session, a timeout, the request id forwarded, every answer parsed with a zod schema.
 * Each call names its endpoint in the contract's table (decision 035), which gives its method, path,
 * parameters, body and answer.
 */

export type { FieldErrors };

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
      const parsed = ErrorSchema.safeParse(JSON.parse(text));
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

/**
 * Public answers (no token sent) the gateway gave with an ETag, parsed and checked once (decision 090): the
 * list of tournaments is the same for every player who opens it, and parsing its twenty tournaments with zod
 * was a tenth of a rendered page. Every call still asks the gateway, with If-None-Match; a 304 answers with
 * the value parsed before. The value is frozen, deep: shared by every request, a loader that changed it
 * would throw, not change another page.
 */
const publicAnswers = new LRUCache<string, { etag: string; schema: z.ZodTypeAny; value: unknown }>({ max: 200 });

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * One call on the kept-alive connections. A JSON or empty body goes through undici's own request API: the
 * fetch API's Request, Response, Headers and web streams cost a rendered page more than the call itself
 * (decision 090). An upload (FormData) still goes through fetch, which encodes the multipart body.
 */
async function send(url: URL, method: string, headers: Record<string, string>, body: BodyInit | undefined, signal: AbortSignal) {
  if (body === undefined || typeof body === 'string') {
    const res = await gatewayDispatcher().request({
      origin: url.origin,
      path: url.pathname + url.search,
      method: method as Dispatcher.HttpMethod,
      headers,
      body,
      signal,
    });
    const type = res.headers['content-type'];
    const etag = res.headers.etag;
    return {
      status: res.statusCode,
      contentType: Array.isArray(type) ? type[0] : type,
      etag: Array.isArray(etag) ? etag[0] : etag,
      body: res.body,
    };
  }
  // Node's fetch takes undici's dispatcher; the DOM RequestInit type does not know it.
  const res = await fetch(url, { method, headers, body, signal, dispatcher: gatewayDispatcher() } as RequestInit);
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? undefined,
    etag: res.headers.get('etag') ?? undefined,
    body: res,
  };
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
  const signal = AbortSignal.timeout(env.GATEWAY_TIMEOUT_MS);
  // A public GET: the answer parsed before, if the gateway says it is still the same.
  const memoKey = method === 'GET' && !token ? path : undefined;
  const memo = memoKey === undefined ? undefined : publicAnswers.get(memoKey);
  const known = memo?.schema === options.schema ? memo : undefined;
  if (known) headers['if-none-match'] = known.etag;
  /** The gateway could not be reached, or went silent: logged, and the one answer for both. */
  const unreachable = (err: unknown) => {
    const reason = (err as Error).name === 'TimeoutError' ? `timed out after ${env.GATEWAY_TIMEOUT_MS} ms` : (err as Error).message;
    logger.error({ reqId: requestId(request), method, path, reason }, 'gateway unreachable');
    return new GatewayError(503, UNAVAILABLE_MESSAGE, {}, true);
  };
  let res: Awaited<ReturnType<typeof send>>;
  try {
    res = await send(new URL(path, env.GATEWAY_URL), method, headers, body, signal);
  } catch (err) {
    throw unreachable(err);
  }

  let text: string;
  try {
    text = await res.body.text();
  } catch (err) {
    // The timeout (or a dropped connection) can also strike while the body is read: same answer as above.
    throw unreachable(err);
  }
  if (res.status === 304 && known) return known.value as T;
  if (res.status >= 200 && res.status < 300) {
    let value: unknown = null;
    if (text) {
      try {
        value = res.contentType?.includes('json') ? JSON.parse(text) : text;
      } catch {
        value = text;
      }
    }
    const parsed = options.schema.safeParse(value);
    if (!parsed.success) {
      logger.error(
        { reqId: requestId(request), method, path, issues: parsed.error.issues.slice(0, 3) },
        'gateway answer did not match schema',
      );
      throw new GatewayError(502, UNAVAILABLE_MESSAGE, {}, true);
    }
    if (memoKey !== undefined && res.etag) {
      publicAnswers.set(memoKey, { etag: res.etag, schema: options.schema, value: deepFreeze(parsed.data) });
    }
    return parsed.data;
  }

  // The token was refused: end the session and send the user to log in (then back here).
  if (res.status === 401 && token && !options.unauthorizedAsError) throw await loginRedirect(request);

  const { message, errors } = readErrorBody(text, res.contentType ?? null);
  if (res.status >= 500) {
    logger.error({ reqId: requestId(request), method, path, status: res.status }, 'gateway error');
    throw new GatewayError(503, UNAVAILABLE_MESSAGE, {}, true);
  }
  throw new GatewayError(res.status, message, errors);
}

// --- The calls (spec §7), typed from the contract's endpoint table. Route modules use these, never fetch(). ---

type Schema<N extends EndpointName> = Endpoints[N]['schema'];
type Shape<S> = S extends z.ZodObject<infer Fields> ? Fields : never;
type OptionalNames<S> = { [K in keyof Shape<S>]: Shape<S>[K] extends z.ZodOptional<z.ZodTypeAny> ? K : never }[keyof Shape<S>];
/** Path parameters and query values as the URL carries them; the schema's optional ones may be left out. */
type UrlValues<S> = { [K in Exclude<Extract<keyof Shape<S>, string>, OptionalNames<S>>]: string | number } & {
  [K in Extract<OptionalNames<S>, string>]?: string | number;
};

/** What a call to endpoint N takes: its path parameters, its query, its body (FormData for the multipart ones). */
export type CallInput<N extends EndpointName> = (Schema<N> extends { params: infer P } ? { params: UrlValues<P> } : { params?: never }) &
  (Schema<N> extends { querystring: infer Q } ? { query: UrlValues<Q> } : { query?: never }) &
  (Schema<N> extends { consumes: string[] }
    ? { body: FormData }
    : Schema<N> extends { body: infer B extends z.ZodTypeAny }
      ? { body: z.output<B> }
      : { body?: Record<string, never> });

export type Body<N extends EndpointName> = CallInput<N>['body'];
export type { Answer };

/** The endpoint's path with its parameters filled in ("/tournaments/admin/delete:id" → "/tournaments/admin/delete42"). */
export function endpointPath(url: string, params: Record<string, string | number> = {}, query?: Record<string, string | number>): string {
  const path = url.replace(/:([A-Za-z_]\w*)/g, (_, name: string) => {
    if (params[name] === undefined) throw new Error(`${url}: no value for :${name}`);
    return encodeURIComponent(String(params[name]));
  });
  const values = query ? Object.entries(query).filter(([, v]) => v !== undefined) : [];
  return values.length > 0 ? `${path}?${new URLSearchParams(values.map(([k, v]) => [k, String(v)]))}` : path;
}

/** Call endpoint `name` of the table: its method and path, the input's body, the answer read as the contract's `answers` say. */
export function call<N extends EndpointName>(
  request: Request,
  name: N,
  input: CallInput<N>,
  options: Pick<CallOptions<unknown>, 'auth' | 'unauthorizedAsError'> = {},
): Promise<Answer<N>> {
  const endpoint: Endpoint = endpoints[name];
  const { params, query, body } = input as {
    params?: Record<string, string | number>;
    query?: Record<string, string | number>;
    body?: unknown;
  };
  const success = Object.entries(endpoint.schema.response ?? {}).find(([status]) => status.startsWith('2'))?.[1];
  const schema = (answers as Partial<Record<EndpointName, z.ZodTypeAny>>)[name] ?? success ?? z.unknown();
  return callGateway(request, endpointPath(endpoint.url, params, query), {
    method: endpoint.method,
    ...(body instanceof FormData ? { form: body } : { json: body }),
    schema: schema as z.ZodType<Answer<N>, z.ZodTypeDef, unknown>,
    ...options,
  });
}

const open = { auth: false } as const;

export const gateway = {
  call,
  health: (request: Request) => call(request, 'health', {}, open),
  listTournaments: (request: Request) => call(request, 'listTournaments', {}, open),
  getTournament: (request: Request, id: string | number) => call(request, 'getTournament', { params: { id } }, open),
  /** Issue 29: a tournament's announcements, newest first (public). */
  announcements: (request: Request, id: number) => call(request, 'listAnnouncements', { params: { id } }, open),
  /** scope: a stage's or a group's table (decision 041); left out, the current stage, or the whole tournament without stages. */
  pointsTable: (request: Request, id: string | number, day: number, scope: { stage?: number; group?: number } = {}) =>
    day === 0
      ? call(request, 'pointsTableOverall', { params: { id }, query: scope }, open)
      : call(request, 'pointsTableDay', { params: { id }, query: { day, ...scope } }, open),
  /** The days a table (same scope as pointsTable) has matches or results on (issue 27): public. */
  pointsDays: (request: Request, id: number, scope: { stage?: number; group?: number } = {}) =>
    call(request, 'pointsTableDays', { params: { id }, query: scope }, open).then((r) => r.days),
  /** The table of pointsTable with each team's placement and finishes per match (issue 20): public. */
  pointsBreakdown: (request: Request, id: number, day: number, scope: { stage?: number; group?: number } = {}) =>
    call(request, 'pointsBreakdown', { params: { id }, query: { day, ...scope } }, open),
  /** Corrections of match results, newest first (issue 20): public. */
  resultHistory: (request: Request, id: number, query: { limit?: number; before?: number } = {}) =>
    call(request, 'resultHistory', { params: { id }, query }, open),
  /** Published stages with their slot lists; with admin: true, the caller's token goes along and drafts come too. */
  listStages: (request: Request, id: number, options: { admin?: boolean } = {}) =>
    call(request, 'listStages', { params: { id } }, options.admin ? {} : open),
  /** deviceToken: the one an earlier login on this browser returned (decision 022); the answer brings the one to keep. */
  login: (request: Request, body: Body<'login'>) => call(request, 'login', { body }, open),
  register: (request: Request, body: Body<'register'>) => call(request, 'register', { body }, open),
  requestPasswordReset: (request: Request, body: Body<'requestPasswordReset'>) => call(request, 'requestPasswordReset', { body }, open),
  confirmPasswordReset: (request: Request, body: Body<'confirmPasswordReset'>) => call(request, 'confirmPasswordReset', { body }, open),
  /** Ends this token at the gateway (POST /api/auth/logout), or every token of the account (logout-all). */
  endSession: (request: Request, everywhere: boolean) => call(request, everywhere ? 'logoutAll' : 'logout', { body: {} }),
  /** The account the session's token stands for, if the gateway still accepts it (a revoked token: GatewayError 401). */
  me: (request: Request) => call(request, 'me', {}, { unauthorizedAsError: true }),
  getProfile: (request: Request) => call(request, 'getProfile', {}),
  createProfile: (request: Request, body: ProfileFields) => call(request, 'createProfile', { body }),
  updateProfile: (request: Request, body: ProfileFields) => call(request, 'updateProfile', { body }),

  registerTeam: (request: Request, tournamentId: number, team: TeamFields) =>
    call(request, 'registerTeam', { params: { tournamentId }, body: team }),
  myRegistrations: (request: Request) => call(request, 'myRegistrations', {}),
  /** Decision 044: the caller's notifications, newest first; before: the previous page's nextBefore. */
  listNotifications: (request: Request, before?: number) => call(request, 'listNotifications', { query: before ? { before } : {} }),
  /** ids left out: all of the caller's. */
  markNotificationsRead: (request: Request, ids?: number[]) => call(request, 'markNotificationsRead', { body: ids ? { ids } : {} }),
  pushPublicKey: (request: Request) => call(request, 'pushPublicKey', {}, open),
  pushSubscribe: (request: Request, body: Body<'pushSubscribe'>) => call(request, 'pushSubscribe', { body }),
  pushUnsubscribe: (request: Request, endpoint: string) => call(request, 'pushUnsubscribe', { body: { endpoint } }),
  myTeam: (request: Request, tournamentId: number) => call(request, 'myTeam', { params: { tournamentId } }),
  updateTeam: (request: Request, tournamentId: number, team: TeamFields) =>
    call(request, 'updateTeam', { params: { tournamentId }, body: team }),
  submitPayment: (request: Request, tournamentId: number, upiReference: string) =>
    call(request, 'submitPayment', { params: { tournamentId }, body: { upiReference } }),
  listMatches: (request: Request, tournamentId: number) => call(request, 'listMatches', { params: { tournamentId } }),
  /** Decision 087: the matches page's tournament, matches, team, reports and check-in windows in one call. */
  mySchedule: (request: Request, id: number) => call(request, 'mySchedule', { params: { id } }),
  /** The captain withdraws the team (decision 043); paid: the payment had been verified. */
  withdrawTeam: (request: Request, tournamentId: number) => call(request, 'withdrawTeam', { params: { tournamentId }, body: {} }),
  /** The captain checks the team in for a stage while its window is open (idempotent). */
  checkIn: (request: Request, id: number, stageId: number) => call(request, 'checkIn', { params: { id, stageId }, body: {} }),

  // --- admin ---
  /** Multipart: the tournament's text fields (dates as UTC ISO strings) and an optional coverImage file. */
  addTournament: (request: Request, form: FormData) => call(request, 'addTournament', { body: form }),
  /** Multipart as addTournament; without coverImage the current cover stays. */
  updateTournament: (request: Request, id: number, form: FormData) => call(request, 'updateTournament', { params: { id }, body: form }),
  /** The spec's path has no slash before the id: /tournaments/admin/delete42. */
  deleteTournament: (request: Request, id: number) => call(request, 'deleteTournament', { params: { id } }),

  // --- admin: matches, points, payments ---
  adminTournamentSummary: (request: Request) => call(request, 'adminTournamentSummary', {}),
  /** Decision 044: a tournament's emails and pushes that gave up, newest first (at most 200). */
  failedDeliveries: (request: Request, id: number) => call(request, 'failedDeliveries', { params: { id } }),
  tournamentRegistrations: (request: Request, tournamentId: number) =>
    call(request, 'tournamentRegistrations', { params: { tournamentId } }),
  createMatch: (request: Request, match: Body<'createMatch'>) => call(request, 'createMatch', { body: match }),
  updateMatch: (request: Request, id: number, match: Body<'updateMatch'>) => call(request, 'updateMatch', { params: { id }, body: match }),
  matchResults: (request: Request, tournamentId: number, day: number, match: number, group?: number) =>
    call(request, 'matchResults', { params: { id: tournamentId }, query: { day, match, group } }),
  /** Replaces one match's results with exactly these rows, all or nothing (decision 013). */
  saveMatchResults: (
    request: Request,
    tournamentId: number,
    day: number,
    match: number,
    results: { teamId: number; position: number; finishes: number; absent?: boolean }[],
    groupId?: number,
  ) => call(request, 'saveMatchResults', { params: { id: tournamentId, day, match }, body: { results, groupId } }),

  // --- admin: stages, groups and slots (decision 041) ---
  createStage: (request: Request, id: number, body: Body<'createStage'>) => call(request, 'createStage', { params: { id }, body }),
  updateStage: (request: Request, id: number, stageId: number, body: Body<'updateStage'>) =>
    call(request, 'updateStage', { params: { id, stageId }, body }),
  deleteStage: (request: Request, id: number, stageId: number) => call(request, 'deleteStage', { params: { id, stageId } }),
  stageEntrants: (request: Request, id: number, stageId: number) => call(request, 'stageEntrants', { params: { id, stageId } }),
  /** checkIn: ask the team to check in itself (issue 27); else it counts as checked in. */
  inviteTeam: (request: Request, id: number, stageId: number, teamId: number, checkIn = false) =>
    call(request, 'inviteTeam', { params: { id, stageId }, body: checkIn ? { teamId, checkIn } : { teamId } }),
  removeInvite: (request: Request, id: number, stageId: number, teamId: number) =>
    call(request, 'removeInvite', { params: { id, stageId, teamId } }),
  drawGroups: (request: Request, id: number, stageId: number, body: Body<'drawGroups'>) =>
    call(request, 'drawGroups', { params: { id, stageId }, body }),
  moveSlot: (request: Request, id: number, stageId: number, body: Body<'moveSlot'>) =>
    call(request, 'moveSlot', { params: { id, stageId }, body }),
  /** Decision 052: a published stage's empty slots, and seating a team in one. */
  emptySlots: (request: Request, id: number, stageId: number) => call(request, 'emptySlots', { params: { id, stageId } }),
  fillSlot: (request: Request, id: number, stageId: number, body: Body<'fillSlot'>) =>
    call(request, 'fillSlot', { params: { id, stageId }, body }),
  publishStage: (request: Request, id: number, stageId: number) => call(request, 'publishStage', { params: { id, stageId }, body: {} }),
  stageAdvance: (request: Request, id: number, stageId: number) => call(request, 'stageAdvance', { params: { id, stageId } }),
  /** notPlayed: group matches without results the organiser marks as not played (issue 27). */
  completeStage: (request: Request, id: number, stageId: number, notPlayed: number[] = []) =>
    call(request, 'completeStage', { params: { id, stageId }, body: notPlayed.length > 0 ? { notPlayed } : {} }),
  reopenStage: (request: Request, id: number, stageId: number) => call(request, 'reopenStage', { params: { id, stageId }, body: {} }),
  scheduleStage: (request: Request, id: number, stageId: number, body: Body<'scheduleStage'>) =>
    call(request, 'scheduleStage', { params: { id, stageId }, body }),
  setStageRooms: (request: Request, id: number, stageId: number, body: Body<'setStageRooms'>) =>
    call(request, 'setStageRooms', { params: { id, stageId }, body }),
  /** expectedUpiReference: the reference the admin was shown; the gateway answers 409 if the team changed it since (decision 029). */
  setPaymentStatus: (
    request: Request,
    rid: number,
    paymentStatus: Body<'setPaymentStatus'>['paymentStatus'],
    expectedUpiReference?: string,
  ) => call(request, 'setPaymentStatus', { params: { rid }, body: { paymentStatus, expectedUpiReference } }),
  /** Decision 043: take a placed, unconfirmed team's place (a rejected payment), or remove any placed or waitlisted team. */
  releaseTeam: (request: Request, rid: number) => call(request, 'releaseTeam', { params: { rid }, body: {} }),
  removeTeam: (request: Request, rid: number) => call(request, 'removeTeam', { params: { rid }, body: {} }),
  allowReturn: (request: Request, rid: number) => call(request, 'allowReturn', { params: { rid }, body: {} }),
  stageCheckIns: (request: Request, id: number, stageId: number) => call(request, 'stageCheckIns', { params: { id, stageId } }),
  resolveNoShows: (request: Request, id: number, stageId: number, action: Body<'resolveNoShows'>['action']) =>
    call(request, 'resolveNoShows', { params: { id, stageId }, body: { action } }),
  /** Several teams of one tournament at once, all or nothing (decisions 013, 029). */
  setPaymentStatuses: (request: Request, body: Body<'setPaymentStatuses'>) => call(request, 'setPaymentStatuses', { body }),
};

export type ProfileFields = Body<'createProfile'>;
export type TeamFields = Body<'registerTeam'>;

// What the screens read, by name.
export type Tournament = Answer<'getTournament'>;
export type PointsRow = Answer<'pointsTableOverall'>[number];
export type Profile = Answer<'getProfile'>;
export type Registration = Answer<'myTeam'>;
export type UserRegistration = Answer<'myRegistrations'>[number];
export type Match = Answer<'listMatches'>[number];
export type TournamentAdminSummary = Answer<'adminTournamentSummary'>[number];
export type AdminRegistration = Answer<'tournamentRegistrations'>[number];
export type MatchResult = Answer<'matchResults'>[number];
export type Stage = Answer<'listStages'>[number];
export type CheckInWindow = Answer<'mySchedule'>['checkInWindows'][number];
export type SharedSchedule = Answer<'mySchedule'>['otherGroups'][number];
export type StageGroup = Stage['groups'][number];
export type StageEntrant = Answer<'stageEntrants'>[number];
export type StageAdvance = Answer<'stageAdvance'>;
export type StageCheckIns = Answer<'stageCheckIns'>;
export type EmptySlots = Answer<'emptySlots'>;

/**
 * GET /images/{file} from the gateway as its raw Response (bytes, not JSON), for the web app's
 * /images proxy. Forwards If-None-Match so a revalidation can end in 304. The caller checks the
 * file name; an unreachable gateway throws a GatewayError with unavailable=true.
 */
export async function fetchImage(request: Request, file: string): Promise<Response> {
  return fetchGatewayImage(request, `/images/${encodeURIComponent(file)}`, 'image/webp,image/*');
}

/**
 * GET an image path of the gateway (a cover, a share image: issue 20) as its raw Response, with the
 * caller's If-None-Match. The caller builds the path from checked parts; an unreachable gateway throws
 * a GatewayError with unavailable=true. auth: send the session's token (a private image: issue 30's screenshots).
 */
export async function fetchGatewayImage(
  request: Request,
  path: string,
  accept = 'image/*',
  options: { auth?: boolean } = {},
): Promise<Response> {
  const env = getEnv();
  const headers: Record<string, string> = { accept, 'x-request-id': requestId(request) };
  if (options.auth) {
    const token = (await getSession(request)).get('token');
    if (typeof token === 'string' && token) headers.authorization = `Bearer ${token}`;
  }
  const ifNoneMatch = request.headers.get('if-none-match');
  if (ifNoneMatch) headers['if-none-match'] = ifNoneMatch;
  // As callGateway: the gateway limits the share images each address may have drawn (decision 056).
  const client = clientAddress();
  if (client) headers['x-forwarded-for'] = client;
  try {
    // Images stream after the headers arrive: allow them longer than a JSON call.
    return await fetch(new URL(path, env.GATEWAY_URL), { headers, signal: AbortSignal.timeout(env.GATEWAY_TIMEOUT_MS * 3) });
  } catch (err) {
    const reason = (err as Error).name === 'TimeoutError' ? 'timed out' : (err as Error).message;
    logger.error({ reqId: requestId(request), method: 'GET', path, reason }, 'gateway unreachable');
    throw new GatewayError(503, UNAVAILABLE_MESSAGE, {}, true);
  }
}
