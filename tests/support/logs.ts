import { pino } from 'pino';
import { onTestFinished, vi } from 'vitest';
import { logger } from '~/utils/logger.server';

/** One line of the web logger as pino wrote it, parsed. */
export interface LogLine {
  level: string;
  msg: string;
  [field: string]: unknown;
}

/**
 * The lines the web app's logger (app/utils/logger.server.ts) writes from now until the test ends,
 * parsed, and kept out of the test output. It takes over the logger's destination (`pino.symbols`, pino's
 * hook for integrations), which every child logger shares, so it sees each line exactly as it would
 * reach stdout. Call it inside a test (or a beforeEach); the destination is given back when the test ends.
 *
 * Not exported from ./index: the gateway suites share that module and have no business loading the web logger.
 */
export function captureLogs(): LogLine[] {
  const lines: LogLine[] = [];
  const destination = (logger as unknown as Record<symbol, { write(line: string): unknown }>)[pino.symbols.streamSym];
  const write = vi.spyOn(destination, 'write').mockImplementation((line: string) => {
    for (const one of line.split('\n')) if (one) lines.push(JSON.parse(one) as LogLine);
    return true;
  });
  onTestFinished(() => write.mockRestore());
  return lines;
}
