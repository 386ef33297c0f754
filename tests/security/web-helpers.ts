// The web security suite's helpers: a real gateway + web server pair (tests/e2e/support/stack.mjs,
// on the production build), and what the attacks need around it: logging in through the web form,
// reading the web server's memory and log, and listing the site's pages from app/routes.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ROOT } from '../e2e/support/stack.mjs';

export { Stack, snapshotBuild } from '../e2e/support/stack.mjs';
export { GatewayApi } from '../e2e/support/api';

export const FORM = 'application/x-www-form-urlencoded';

/** Posts a form the way a browser on the site does (Origin of the site itself). */
export function postForm(webUrl: string, pathname: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(webUrl + pathname, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: webUrl, 'content-type': FORM, ...headers },
    body: new URLSearchParams(fields),
  });
}

/** Logs in through the web form; the session cookie ("name=value") and the response. */
export async function webLogin(webUrl: string, email: string, password: string, headers: Record<string, string> = {}) {
  const res = await postForm(webUrl, '/login', { emailOrPhone: email, password, redirectTo: '/' }, headers);
  if (res.status !== 302) throw new Error(`web login failed: ${res.status}`);
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { cookie: setCookie.split(';')[0]!, setCookie, res };
}

/** The process's resident memory in bytes (Linux /proc). */
export function rssBytes(pid: number): number {
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (!kb) throw new Error(`no VmRSS for ${pid}`);
  return Number(kb) * 1024;
}

/** What a log file gained since `from` (a byte offset taken with logSize). */
export const logSize = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0);
export function logSince(file: string, from: number): string {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const buf = Buffer.alloc(Math.max(0, size - from));
    fs.readSync(fd, buf, 0, buf.length, from);
    return buf.toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * What the web server's log gained since `from`, once it holds the lines of every request made before
 * this call: a marker request goes last, and the log is read until the marker's access line is in it
 * (the server writes its lines in order), never a fixed sleep. Throws when the deadline passes first.
 */
export async function caughtUpLogSince(info: { webUrl: string; webLog: string }, from: number, timeoutMs = 10_000): Promise<string> {
  const marker = `/log-marker-${crypto.randomUUID()}`;
  await (await fetch(info.webUrl + marker, { redirect: 'manual' })).text();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const log = logSince(info.webLog, from);
    if (log.includes(`GET ${marker} `)) return log;
    if (Date.now() > deadline) throw new Error(`no log line for ${marker} in ${info.webLog} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Lines that belong in an error log: error-level JSON lines, errors and stack frames. */
export const errorLines = (log: string) => log.split('\n').filter((line) => /"level":"error"|\b\w*Error\b|^\s+at /.test(line));

/** Route files (app/routes) that answer something other than an HTML page. */
const NOT_PAGES = new Set([
  'healthz',
  'images.$file',
  'tournaments.$tournamentId_.points-table[.png]',
  'tournaments.$tournamentId_.slot-list[.png]',
  'tournaments.$tournamentId_.card[.png]',
  'tournaments.$tournamentId_.points-card[.png]',
  'tournaments.$tournamentId_.points-table_.players[.png]',
  'admin.$tournamentId.registrations[.csv]',
  'admin.$tournamentId.money[.csv]',
  'admin.$tournamentId.stages.$stageId_.slots[.csv]',
  'admin.$tournamentId.stages.$stageId_.results[.csv]',
  'tournament.$tournamentId.matches[.ics]',
  'screenshots.report.$tournamentId.$reportId',
  'screenshots.dispute.$tournamentId.$disputeId',
]);

/** Every route module of app/routes (a file, or a folder's route.tsx): its route name and whether it has an action. */
export function routeFiles(): { name: string; hasAction: boolean }[] {
  const dir = path.join(ROOT, 'app', 'routes');
  return fs.readdirSync(dir).flatMap((f) => {
    const file = path.join(dir, /\.tsx?$/.test(f) ? f : path.join(f, 'route.tsx'));
    if (!fs.existsSync(file)) return [];
    return [{ name: f.replace(/\.tsx?$/, ''), hasAction: /export (async function|const) action\b/.test(fs.readFileSync(file, 'utf8')) }];
  });
}

/**
 * The URL of a flat route file (Remix v2 conventions): dots are slashes (not inside [brackets]),
 * `_index` and pathless `_layouts` add nothing, a trailing `_` is dropped, `$param` is filled in
 * from params and the splat `$` is a page that does not exist.
 */
/**
 * Ids of things no test here creates (issue 18's stages and groups, issue 29's invitations): the page
 * answers its own 404. The Site organiser exists on every database (migration 019).
 */
const UNKNOWN_IDS: Record<string, string> = {
  stageId: '999999',
  groupId: '999999',
  token: 'x'.repeat(32),
  slug: 'site',
  // Issue 30: a group-match no team here plays, and reports and disputes nobody filed.
  day: '1',
  match: '1',
  reportId: '999999',
  disputeId: '999999',
  // Issue 31: a statement nobody uploaded.
  statementId: '999999',
};

export function routeUrl(name: string, params: Record<string, string>): string {
  const parts: string[] = [];
  for (const segment of name.split(/\.(?![^[]*\])/)) {
    if (segment === '_index' || segment.startsWith('_')) continue;
    const plain = segment.replace(/_$/, '').replace(/\[(.*?)\]/g, '$1');
    if (plain === '$') parts.push('no-such-page-here');
    else if (plain.startsWith('$')) {
      const value = params[plain.slice(1)] ?? UNKNOWN_IDS[plain.slice(1)];
      if (value === undefined) throw new Error(`no value for ${plain} in route ${name}`);
      parts.push(value);
    } else parts.push(plain);
  }
  return `/${parts.join('/')}`;
}

export const pageRoutes = () => routeFiles().filter((r) => !NOT_PAGES.has(r.name));

/**
 * A pass-through in front of the gateway that records the X-Forwarded-For of every call: what the
 * gateway's rate limits count by, seen from the gateway's side.
 */
export async function startRecordingProxy(target: string) {
  const seen: { method: string; path: string; forwardedFor: string | undefined }[] = [];
  const server = http.createServer((req, res) => {
    const forwardedFor = req.headers['x-forwarded-for'];
    seen.push({
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      forwardedFor: Array.isArray(forwardedFor) ? forwardedFor.join(', ') : forwardedFor,
    });
    const upstream = http.request(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Every route module of app/routes with the URL it answers for these parameters (reused by the access, XSS and fuzz tests). */
export const routeUrls = (params: Record<string, string>) => routeFiles().map((r) => ({ ...r, url: routeUrl(r.name, params) }));

/** A GET with an optional session cookie, redirects not followed. */
export const getPage = (webUrl: string, pathname: string, cookie = '') =>
  fetch(webUrl + pathname, { headers: cookie ? { cookie } : {}, redirect: 'manual' });

// --- a small HTML tokenizer (enough for server-rendered pages; no dependency) ---

export interface HtmlElement {
  tag: string;
  attrs: { name: string; value: string }[];
  /** Raw content of <script>/<style>; decoded content of <title>/<textarea>. */
  content: string;
}

const RAW_TEXT = new Set(['script', 'style']);
const RCDATA = new Set(['title', 'textarea']);

/** Decodes the character references the server emits (named basics and numeric). */
export function decodeEntities(s: string): string {
  const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: '\u00a0' };
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return String.fromCodePoint(code);
    }
    return named[ref.toLowerCase()] ?? m;
  });
}

/**
 * Splits a page the way a browser's tokenizer would (start tags with attributes, raw-text and
 * RCDATA elements ended only by their own end tag, comments), so a payload that broke out of a
 * text node, an attribute or a script shows up as an element or attribute of its own.
 */
export function parseHtml(html: string): { elements: HtmlElement[]; text: string } {
  const elements: HtmlElement[] = [];
  let text = '';
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      text += decodeEntities(html.slice(i));
      break;
    }
    text += decodeEntities(html.slice(i, lt));
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      i = end < 0 ? html.length : end + 3;
      continue;
    }
    if (/^<[!?/]/.test(html.slice(lt, lt + 2))) {
      const end = html.indexOf('>', lt);
      i = end < 0 ? html.length : end + 1;
      continue;
    }
    const name = /^<([a-zA-Z][^\s/>]*)/.exec(html.slice(lt, lt + 64));
    if (!name) {
      text += '<';
      i = lt + 1;
      continue;
    }
    const tag = name[1]!.toLowerCase();
    let j = lt + name[0].length;
    const attrs: HtmlElement['attrs'] = [];
    for (;;) {
      while (j < html.length && /[\s/]/.test(html[j]!)) j++;
      if (j >= html.length || html[j] === '>') break;
      const attr = /^[^\s/>=]+/.exec(html.slice(j, j + 256))?.[0] ?? html[j]!;
      j += attr.length;
      while (/\s/.test(html[j] ?? '')) j++;
      let value = '';
      if (html[j] === '=') {
        j++;
        while (/\s/.test(html[j] ?? '')) j++;
        const quote = html[j];
        if (quote === '"' || quote === "'") {
          const end = html.indexOf(quote, j + 1);
          value = html.slice(j + 1, end < 0 ? html.length : end);
          j = end < 0 ? html.length : end + 1;
        } else {
          const raw = /^[^\s>]*/.exec(html.slice(j))![0];
          value = raw;
          j += raw.length;
        }
      }
      attrs.push({ name: attr.toLowerCase(), value: decodeEntities(value) });
    }
    i = j + 1;
    let content = '';
    if (RAW_TEXT.has(tag) || RCDATA.has(tag)) {
      const close = new RegExp(`</${tag}[\\s/>]`, 'i').exec(html.slice(i));
      const end = close ? i + close.index : html.length;
      content = html.slice(i, end);
      if (RCDATA.has(tag)) {
        content = decodeEntities(content);
        text += content;
      }
      i = end;
    }
    elements.push({ tag, attrs, content });
  }
  return { elements, text };
}

/** The attribute's value, or undefined. */
export const attr = (el: HtmlElement, name: string) => el.attrs.find((a) => a.name === name)?.value;
