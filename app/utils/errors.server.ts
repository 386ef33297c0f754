import { data } from '@remix-run/node';
import { GatewayError } from './gateway.server';

/**
 * For loaders: turns a gateway failure into the error page's answer. A thrown Response (e.g. the
 * redirect to /login) passes through; "unreachable" becomes 503 with a retry hint.
 */
/** Status and headers of an answer given while the gateway is unreachable: try again soon, cache nothing. */
export const UNAVAILABLE_INIT = { status: 503, headers: { 'Retry-After': '5', 'Cache-Control': 'no-store' } } as const;

export function pageError(err: unknown, notFoundMessage?: string): never {
  if (err instanceof Response) throw err;
  if (err instanceof GatewayError) {
    if (err.unavailable) {
      throw data({ message: err.message, retry: true }, UNAVAILABLE_INIT);
    }
    if (err.status === 404 && notFoundMessage) throw data({ message: notFoundMessage }, { status: 404 });
    throw data({ message: err.message || 'Something went wrong. Please try again.' }, { status: err.status });
  }
  throw err;
}

export const isUnavailable = (err: unknown) => err instanceof GatewayError && err.unavailable;
