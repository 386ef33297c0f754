import type { Server } from 'node:http';
import type { RequestHandler } from 'express';

/**
 * SIGTERM/SIGINT (decision 020): stop accepting, let requests in flight finish (`Connection: close`
 * from then on, keep-alive connections closed as they go idle), exit 0; forced after graceMs.
 */
export interface Shutdown {
  /** Middleware: answers sent while closing ask the client to close the connection. */
  closeHeader: RequestHandler;
  /** Starts closing server; exit is called once, when it is closed or graceMs have passed. */
  close(server: Server): void;
  readonly closing: boolean;
}

export function shutdown({ graceMs = 10_000, exit = (code: number): void => process.exit(code) } = {}): Shutdown {
  let closing = false;
  let exited = false;
  const exitOnce = (code: number) => {
    if (exited) return;
    exited = true;
    exit(code);
  };
  return {
    closeHeader: (_req, res, next) => {
      if (closing) res.setHeader('Connection', 'close');
      next();
    },
    close(server) {
      if (closing) return;
      closing = true;
      server.close(() => exitOnce(0));
      const idle = setInterval(() => server.closeIdleConnections(), 100);
      idle.unref();
      setTimeout(() => {
        server.closeAllConnections();
        exitOnce(0);
      }, graceMs).unref();
    },
    get closing() {
      return closing;
    },
  };
}

/** Closes server on SIGTERM and SIGINT. */
export function onSignals(server: Server, stop: Shutdown): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => stop.close(server));
}
