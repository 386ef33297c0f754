import type { LoaderFunctionArgs } from '@remix-run/node';
import { gateway } from '~/utils/gateway.server';

/** Liveness of the web app (always 200 while it serves), with the gateway's reachability for operators. */
export async function loader({ request }: LoaderFunctionArgs) {
  const reachable = await gateway.health(request).then(
    () => true,
    () => false,
  );
  return Response.json({ status: 'ok', gateway: reachable ? 'ok' : 'unreachable' }, { headers: { 'Cache-Control': 'no-store' } });
}
