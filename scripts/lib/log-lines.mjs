import readline from 'node:readline';

/**
 * `npm start` in a terminal (issue 27): the parts' JSON log lines (pino, decision 036) as one readable line
 * each, "12:03:04 WARN  web      request refused  status=400 reason=…". A line that is not one of
 * ours (not JSON, or no level) is printed as it came. Output that is not a terminal stays JSON, as containers and
 * log collectors want; LOG_FORMAT=json keeps JSON in a terminal too. No pino-pretty: these few lines of
 * our own cover our own fields, and a dependency would be one more to keep in the image.
 */

const LEVELS = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
const COLORS = { trace: 90, debug: 90, info: 32, warn: 33, error: 31, fatal: 35 };
/** Fields every line has, or that the line's words already say. */
const SKIP = new Set(['level', 'time', 'pid', 'hostname', 'name', 'role', 'msg', 'req', 'res', 'responseTime', 'err', 'reqId']);

/** Whether the parts' lines are printed readable: only to a terminal, unless LOG_FORMAT=json. */
export function readableLogs(stream = process.stdout, env = process.env) {
  return Boolean(stream.isTTY) && env.LOG_FORMAT !== 'json';
}

const text = (value) => {
  const s = typeof value === 'string' ? value : JSON.stringify(value);
  return /^[^\s"=]+$/.test(s) ? s : JSON.stringify(s);
};

/**
 * One JSON log line of a part as a readable line (several when it carries an error's stack).
 * @param {string} line
 * @param {string} part the part's short name ("gateway", "web", "worker")
 * @param {{ color?: boolean }} [options]
 */
export function formatLogLine(line, part, options = {}) {
  let entry;
  try {
    entry = line.startsWith('{') ? JSON.parse(line) : undefined;
  } catch {
    entry = undefined;
  }
  if (!entry || typeof entry !== 'object' || entry.level === undefined) return line;
  const level = String(LEVELS[entry.level] ?? entry.level);
  const at = new Date(typeof entry.time === 'number' ? entry.time : Date.parse(entry.time ?? ''));
  const clock = Number.isNaN(at.getTime()) ? '--:--:--' : at.toTimeString().slice(0, 8);
  const paint = (code, s) => (options.color ? `\u001b[${code}m${s}\u001b[0m` : s);
  let words = String(entry.msg ?? '');
  // Fastify's own lines ("incoming request", "request completed") say what in their fields.
  if (entry.req?.method && entry.req?.url && !words.includes(entry.req.url)) words += ` ${entry.req.method} ${entry.req.url}`;
  if (entry.res?.statusCode && !new RegExp(`\\b${entry.res.statusCode}\\b`).test(words)) words += ` ${entry.res.statusCode}`;
  if (typeof entry.responseTime === 'number') words += ` (${Math.round(entry.responseTime)} ms)`;
  const extras = Object.entries(entry)
    .filter(([key, value]) => !SKIP.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${text(value)}`);
  if (typeof entry.reqId === 'string') extras.push(`req=${entry.reqId.slice(0, 8)}`);
  const head = `${clock} ${paint(COLORS[level] ?? 0, level.toUpperCase().padEnd(5))} ${part.padEnd(8)} ${words}`;
  const out = [extras.length ? `${head}  ${paint(90, extras.join(' '))}` : head];
  const err = entry.err;
  if (err && typeof err === 'object') {
    const stack = typeof err.stack === 'string' ? err.stack : `${err.type ?? 'Error'}: ${err.message ?? ''}`;
    out.push(...stack.split('\n').map((l) => `    ${l}`));
  }
  return out.join('\n');
}

/**
 * Prints a part's stdout readable, line by line, to out.
 * @param {import('node:stream').Readable} input
 * @param {string} part
 * @param {NodeJS.WriteStream} [out]
 */
export function printReadable(input, part, out = process.stdout) {
  const color = Boolean(out.isTTY) && !process.env.NO_COLOR;
  readline.createInterface({ input, crlfDelay: Infinity }).on('line', (line) => out.write(`${formatLogLine(line, part, { color })}\n`));
}
