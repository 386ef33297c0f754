import { format } from 'node:util';
import { pino } from 'pino';
import { afterAll, afterEach, beforeEach, expect } from 'vitest';
import { logger } from '../../app/utils/logger.server';

/**
 * Tests fail on a console.error or console.warn nobody expected (house style; decision 037). This is
 * vitest's setup file for every project (vitest.config.ts), so it runs before each test file.
 *
 * A test that expects one says so: expectConsoleError(/pattern/) inside the test (it must then
 * happen, at least once), or allowConsoleError(/pattern/) (it may happen; at file level, outside any
 * test, it holds for the whole file). Same for warnings. Messages still reach the output.
 * Logs outside any test (beforeAll, module load) are checked when the file ends.
 *
 * The web app's pino logger (app/utils/logger.server.ts, decision 036) is held to the same rule: an
 * error or warn line from it fails the test, unless the test reads it with captureLogs() (./logs.ts).
 */

type Level = 'error' | 'warn';
interface Allowance {
  level: Level;
  pattern: RegExp;
  required: boolean;
  seen: number;
}
interface GuardState {
  test: Allowance[];
  file: Allowance[];
  unexpectedInTest: string[];
  unexpectedInFile: string[];
}

// On globalThis: the setup file and a test file importing these helpers may get separate module instances.
const KEY = Symbol.for('custom-room.console-guard');
const globals = globalThis as typeof globalThis & { [KEY]?: GuardState };
const state: GuardState = (globals[KEY] ??= { test: [], file: [], unexpectedInTest: [], unexpectedInFile: [] });

const inTest = () => expect.getState().currentTestName !== undefined;

function allow(level: Level, pattern: RegExp, required: boolean) {
  const allowance = { level, pattern, required, seen: 0 };
  (inTest() ? state.test : state.file).push(allowance);
}

/** This test logs a console.error matching pattern (and fails if it does not). */
export const expectConsoleError = (pattern: RegExp) => allow('error', pattern, true);
/** This test (or, outside a test, this file) may log a console.error matching pattern. */
export const allowConsoleError = (pattern: RegExp) => allow('error', pattern, false);
/** This test logs a console.warn matching pattern (and fails if it does not). */
export const expectConsoleWarn = (pattern: RegExp) => allow('warn', pattern, true);
/** This test (or, outside a test, this file) may log a console.warn matching pattern. */
export const allowConsoleWarn = (pattern: RegExp) => allow('warn', pattern, false);

function install() {
  const marker = Symbol.for('custom-room.console-guard.installed');
  const target = console as Console & { [marker]?: boolean };
  if (target[marker]) return;
  target[marker] = true;
  for (const level of ['error', 'warn'] as const) {
    const original = console[level].bind(console);
    console[level] = (...args: unknown[]) => {
      const message = format(...args);
      const allowance = [...state.test, ...state.file].find((a) => a.level === level && a.pattern.test(message));
      if (allowance) allowance.seen += 1;
      else (inTest() ? state.unexpectedInTest : state.unexpectedInFile).push(`console.${level}: ${message}`);
      original(...args);
    };
  }
}
install();

/** The web logger's error/warn lines count as unexpected; captureLogs() takes the destination over, so they never get here. */
function installForWebLogger() {
  const marker = Symbol.for('custom-room.console-guard.web-logger');
  const destination = (logger as unknown as Record<symbol, { write(line: string): unknown; [marker]?: boolean }>)[pino.symbols.streamSym];
  if (destination[marker]) return;
  destination[marker] = true;
  const original = destination.write.bind(destination);
  destination.write = (line: string) => {
    const level = /"level":"(warn|error|fatal)"/.exec(line)?.[1];
    if (level) (inTest() ? state.unexpectedInTest : state.unexpectedInFile).push(`web logger ${level}: ${line.trim()}`);
    return original(line);
  };
}
installForWebLogger();

const report = (what: string, messages: string[]) =>
  `${what}: ${messages.length} unexpected console message(s) or web log line(s); a test that expects one calls expectConsoleError/expectConsoleWarn (tests/support/console-guard.ts) or reads the log with captureLogs() (tests/support/logs.ts):\n${messages.map((m) => `  ${m.split('\n').slice(0, 6).join('\n    ')}`).join('\n')}`;

beforeEach(() => {
  state.test = [];
  state.unexpectedInTest = [];
});

afterEach(() => {
  const unexpected = state.unexpectedInTest.splice(0);
  const missing = state.test.filter((a) => a.required && a.seen === 0);
  state.test = [];
  if (unexpected.length) throw new Error(report('this test', unexpected));
  if (missing.length)
    throw new Error(`this test expected ${missing.map((a) => `a console.${a.level} matching ${a.pattern}`).join(' and ')}, and none came`);
});

afterAll(() => {
  const unexpected = state.unexpectedInFile.splice(0);
  state.file = [];
  if (unexpected.length) throw new Error(report('outside any test (module load, beforeAll, afterAll)', unexpected));
});
