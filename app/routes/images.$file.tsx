import type { LoaderFunctionArgs } from '@remix-run/node';
import { fetchImage, GatewayError } from '~/utils/gateway.server';
import { isImageFileName } from '~/utils/images';

/** Covers are content-addressed (the name is a hash of the bytes), so they never change under a URL. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const plain = (status: number, text: string, extra: Record<string, string> = {}) =>
  new Response(text, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', ...extra } });

/** Resource route: GET /images/<hex>[-400|-800|-1200].webp proxied from the gateway. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const file = params.file ?? '';
  if (!isImageFileName(file)) return plain(404, 'Not found');

  let upstream: Response;
  try {
    upstream = await fetchImage(request, file);
  } catch (err) {
    if (err instanceof GatewayError && err.unavailable)
      return plain(503, 'Image temporarily unavailable', { 'Retry-After': '5', 'Cache-Control': 'no-store' });
    throw err;
  }

  const headers = new Headers({ 'Cache-Control': IMMUTABLE, 'X-Content-Type-Options': 'nosniff' });
  const etag = upstream.headers.get('etag');
  if (etag) headers.set('ETag', etag);

  if (upstream.status === 304) {
    await upstream.body?.cancel();
    return new Response(null, { status: 304, headers });
  }
  if (upstream.status === 404 || upstream.status === 400) {
    await upstream.body?.cancel();
    return plain(404, 'Not found', { 'Cache-Control': 'public, max-age=60' });
  }
  const type = upstream.headers.get('content-type') ?? '';
  if (!upstream.ok || !type.startsWith('image/')) {
    await upstream.body?.cancel();
    return plain(503, 'Image temporarily unavailable', { 'Retry-After': '5', 'Cache-Control': 'no-store' });
  }
  headers.set('Content-Type', type);
  // The client decodes any content-encoding, so the upstream length is only true of an unencoded body.
  const length = upstream.headers.get('content-length');
  if (length && !upstream.headers.get('content-encoding')) headers.set('Content-Length', length);
  return new Response(upstream.body, { status: 200, headers });
}
