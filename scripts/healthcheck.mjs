#!/usr/bin/env node
// The container's HEALTHCHECK (no curl in the slim image): asks the /healthz of each part this container
// runs, by the same ROLE, PORT, GATEWAY_PORT and GATEWAY_HOST that scripts/start.mjs reads. Exit 0 = healthy.
//   web     → the web app's /healthz (200 while it serves; it reports the gateway but does not fail on it:
//             restarting the web app would not bring a gateway back)
//   gateway → the gateway's /healthz (200 only when its database answers)
//   worker  → the notification worker's /healthz on loopback at NOTIFY_HEALTH_PORT (start.mjs: GATEWAY_PORT;
//             200 while its database answers and its rounds keep ending, decision 044)
//   both    → gateway and web (the worker beside them has no port; if it stops, start.mjs stops them all)
const role = process.argv[2] || process.env.ROLE || 'both';
const loopback = (host) => (!host || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host);
// Together (role both) the gateway always listens on loopback (scripts/start.mjs).
const gatewayHost = role === 'both' ? '127.0.0.1' : loopback(process.env.GATEWAY_HOST);
const targets = {
  web: `http://127.0.0.1:${process.env.PORT || 3000}/healthz`,
  gateway: `http://${gatewayHost}:${process.env.GATEWAY_PORT || 4000}/healthz`,
  worker: `http://127.0.0.1:${process.env.NOTIFY_HEALTH_PORT || process.env.GATEWAY_PORT || 4000}/healthz`,
};
const parts = role === 'both' ? ['gateway', 'web'] : role in targets ? [role] : null;
if (!parts) {
  console.error(`healthcheck: ROLE must be both, web, gateway or worker (got "${role}")`);
  process.exit(1);
}

let healthy = true;
for (const part of parts) {
  try {
    const res = await fetch(targets[part], { signal: AbortSignal.timeout(8000), headers: { 'x-request-id': 'healthcheck' } });
    const body = await res.text();
    console.log(`healthcheck: ${part} ${res.status} ${body.slice(0, 200)}`);
    if (res.status !== 200) healthy = false;
  } catch (err) {
    console.log(`healthcheck: ${part} unreachable at ${targets[part]}: ${err.cause?.code ?? err.message}`);
    healthy = false;
  }
}
process.exit(healthy ? 0 : 1);
