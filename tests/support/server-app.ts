import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { pino } from 'pino';
import { redactUrl } from '~/utils/log-url.server';
import { accessLog } from '../../server/logging';

/** A logger like the web app's (app/utils/logger.server.ts) whose lines are kept here, parsed. */
export function memoryLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info', formatters: { level: (label) => ({ level: label }) } },
    { write: (line: string) => void lines.push(JSON.parse(line)) },
  );
  return { logger, lines };
}

/** The server's access log middleware (request id, req.log) on a memory logger, as server/app.ts mounts it first. */
export function withAccessLog(app: Express) {
  const { logger, lines } = memoryLogger();
  app.use(accessLog(logger, redactUrl, () => false));
  return lines;
}

/** app listening on a free loopback port; close() when done. */
export async function serve(app: Express) {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    server,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
