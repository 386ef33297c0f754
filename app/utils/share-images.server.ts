import { fetchGatewayImage, GatewayError } from '~/utils/gateway.server';
import { queryId } from '~/utils/stages.server';
import { parseTournamentId } from '~/utils/tournament';

// Issue 20 (decision 049): the share images are the gateway's; the web app passes them through with
// the gateway's ETag, Cache-Control and Content-Disposition, and a revalidation ends in 304.

const plain = (status: number, text: string, extra: Record<string, string> = {}) =>
  new Response(text, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', ...extra } });
const notFound = () => plain(404, 'Not found', { 'Cache-Control': 'public, max-age=60' });
const unavailable = (retryAfter = '5') =>
  plain(503, 'Image temporarily unavailable', { 'Retry-After': retryAfter, 'Cache-Control': 'no-store' });

/** The gateway's answer for a share image, as the web app's answer. */
async function passThrough(request: Request, path: string): Promise<Response> {
  let upstream: Response;
  try {
    upstream = await fetchGatewayImage(request, path, 'image/png');
  } catch (err) {
    if (err instanceof GatewayError && err.unavailable) return unavailable();
    throw err;
  }
  const headers = new Headers({ 'X-Content-Type-Options': 'nosniff' });
  for (const name of ['etag', 'cache-control', 'content-disposition']) {
    const value = upstream.headers.get(name);
    if (value) headers.set(name, value);
  }
  if (upstream.status === 304) {
    await upstream.body?.cancel();
    return new Response(null, { status: 304, headers });
  }
  if (upstream.status === 404 || upstream.status === 400) {
    await upstream.body?.cancel();
    return notFound();
  }
  // Too many new images from this address, or the gateway's render queue is full: its status and Retry-After.
  if (upstream.status === 429 || upstream.status === 503) {
    await upstream.body?.cancel();
    const given = upstream.headers.get('retry-after') ?? '';
    const retryAfter = /^\d{1,5}$/.test(given) ? given : undefined;
    if (upstream.status === 503) return unavailable(retryAfter);
    return plain(429, 'Too many new images from this address. Please try again later.', {
      'Retry-After': retryAfter ?? '60',
      'Cache-Control': 'no-store',
    });
  }
  if (!upstream.ok || upstream.headers.get('content-type') !== 'image/png') {
    await upstream.body?.cancel();
    return unavailable();
  }
  headers.set('Content-Type', 'image/png');
  const length = upstream.headers.get('content-length');
  if (length && !upstream.headers.get('content-encoding')) headers.set('Content-Length', length);
  return new Response(upstream.body, { status: 200, headers });
}

/** day, stage and group of a points image's URL as the gateway takes them; null: not a table the page shows. */
function tableScope(request: Request): string | null {
  const search = new URL(request.url).searchParams;
  const query = new URLSearchParams();
  const day = search.get('day');
  if (day !== null && day !== '') {
    if (!/^[0-5]$/.test(day)) return null;
    query.set('day', day);
  }
  for (const name of ['stage', 'group']) {
    const value = queryId(search.get(name));
    if (value === null) return null;
    if (value) query.set(name, String(value));
  }
  const rest = query.toString();
  return rest ? `?${rest}` : '';
}

/** GET /tournaments/{id}/points-table.png?day=&stage=&group=: the table of the page with the same query. */
export function pointsTableImage(request: Request, tournamentId: string | undefined): Promise<Response> | Response {
  const id = parseTournamentId(tournamentId);
  const scope = tableScope(request);
  if (id === null || scope === null) return notFound();
  return passThrough(request, `/tournaments/${id}/points-table.png${scope}`);
}

/** GET /tournaments/{id}/points-card.png?day=&stage=&group=: the points pages' 1200×630 link preview (top 3). */
export function pointsCardImage(request: Request, tournamentId: string | undefined): Promise<Response> | Response {
  const id = parseTournamentId(tournamentId);
  const scope = tableScope(request);
  if (id === null || scope === null) return notFound();
  return passThrough(request, `/tournaments/${id}/points-card.png${scope}`);
}

/** GET /tournaments/{id}/card.png: the tournament page's 1200×630 link preview. */
export function tournamentCardImage(request: Request, tournamentId: string | undefined): Promise<Response> | Response {
  const id = parseTournamentId(tournamentId);
  if (id === null) return notFound();
  return passThrough(request, `/tournaments/${id}/card.png`);
}

/** GET /tournaments/{id}/slot-list.png?group=: a group's slot list. */
export function slotListImage(request: Request, tournamentId: string | undefined): Promise<Response> | Response {
  const id = parseTournamentId(tournamentId);
  const group = queryId(new URL(request.url).searchParams.get('group'));
  if (id === null || !group) return notFound();
  return passThrough(request, `/tournaments/${id}/slot-list.png?group=${group}`);
}

/** GET /tournaments/{id}/points-table/players.png?stage=&group=: Top fraggers of the page with the same scope (issue 30). */
export function playersImage(request: Request, tournamentId: string | undefined): Promise<Response> | Response {
  const id = parseTournamentId(tournamentId);
  const scope = tableScope(request);
  // Top fraggers have no day: a URL naming one is not an image the page links to.
  if (id === null || scope === null || new URL(request.url).searchParams.has('day')) return notFound();
  return passThrough(request, `/tournaments/${id}/points-table/players.png${scope}`);
}
