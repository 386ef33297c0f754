import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { PAYEE_NAME_MAX, PLACEHOLDER_UPI_ID, TimeZoneSchema, UPI_ID_PATTERN } from '@custom-room/contract';

/**
 * The web app's TRUST_PROXY, as express's `trust proxy` takes it: whose X-Forwarded-* headers
 * the web server believes. `false` trusts nobody (the socket address is the client); a whole number N
 * trusts the N hops nearest to us (only when nothing else can reach the web app); otherwise a
 * comma-separated list of addresses, CIDR ranges (or netmasks) and the names `loopback`,
 * `linklocal`, `uniquelocal`, as the gateway's TRUST_PROXY lists the web app. `true` (every hop) is
 * refused: it would let any client choose its own address.
 */
export type TrustProxy = false | number | string[];

const NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function validEntry(entry: string): boolean {
  if (NAMES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const kind = address ? net.isIP(address) : 0;
  if (!kind || rest.length) return false;
  if (prefix === undefined) return true;
  if (/^\d{1,3}$/.test(prefix)) return Number(prefix) <= (kind === 4 ? 32 : 128);
  return kind === 4 && net.isIPv4(prefix);
}

const TrustProxySchema = z
  .string()
  .trim()
  .transform((raw, ctx): TrustProxy => {
    if (raw === '' || raw.toLowerCase() === 'false') return false;
    if (/^\d{1,2}$/.test(raw)) return Number(raw);
    const entries = raw.split(',').map((entry) => entry.trim());
    const bad = entries.find((entry) => !validEntry(entry));
    if (bad !== undefined) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `must be false, a number of proxy hops, or a comma-separated list of addresses or CIDR ranges (not "${bad}")`,
      });
      return z.NEVER;
    }
    return entries;
  });

const optionalUrl = z
  .string()
  .url()
  .refine((v) => /^https?:\/\//.test(v), 'must be an http(s) URL')
  .optional();

/**
 * PUBLIC_URL: the site's address as visitors use it (https://play.example.in), an origin without a path,
 * query or credentials; the absolute og:url and og:image of link previews (issue 20, decision 049) start
 * with it. A trailing "/" is dropped.
 */
const PublicUrlSchema = z
  .string()
  .trim()
  .transform((raw, ctx) => {
    let url: URL | null = null;
    try {
      url = new URL(raw);
    } catch {
      url = null;
    }
    if (
      !url ||
      !/^https?:$/.test(url.protocol) ||
      url.username ||
      url.password ||
      url.pathname !== '/' ||
      url.search ||
      url.hash ||
      raw.includes('?') ||
      raw.includes('#')
    ) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be an http(s) origin without a path, such as https://play.example.in' });
      return z.NEVER;
    }
    return url.origin;
  })
  .optional();

const EnvSchema = z.object({
  NODE_ENV: z.enum(['production', 'development', 'test']).default('production'),
  GATEWAY_URL: z.string().url().default('http://127.0.0.1:4000'),
  GATEWAY_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(4000),
  // Anonymous public pages kept by the web server (decision 024); 0 turns the page cache off.
  PAGE_CACHE_ENTRIES: z.coerce.number().int().min(0).max(100_000).default(500),
  // Connections each web process keeps to the gateway (decision 026).
  GATEWAY_CONNECTIONS: z.coerce.number().int().min(1).max(1024).default(64),
  DATA_DIR: z.string().min(1).default('./data'),
  SESSION_SECRET: z.string().optional(),
  COOKIE_SECURE: z.enum(['auto', 'always', 'never']).default('auto'),
  // Whose X-Forwarded-For/-Proto/-Host the web server believes: nobody's unless a proxy is set here.
  TRUST_PROXY: TrustProxySchema.default('false'),
  APP_TIME_ZONE: TimeZoneSchema,
  // The site's public origin for link previews; unset: the request's own origin (decision 049).
  PUBLIC_URL: PublicUrlSchema,
  // The payee of new tournaments (each tournament has its own since issue 27) and of those without one.
  UPI_PAYEE_VPA: z.string().regex(UPI_ID_PATTERN, 'must be a UPI ID such as organiser@okaxis').default(PLACEHOLDER_UPI_ID),
  UPI_PAYEE_NAME: z.string().min(1).max(PAYEE_NAME_MAX).default('Custom Room Esports'),
  PAYMENT_FORM_URL: optionalUrl,
  YOUTUBE_API_KEY: z.string().optional(),
  YOUTUBE_CHANNEL_ID: z.string().optional(),
  YOUTUBE_API_BASE: z.string().url().default('https://www.googleapis.com/youtube/v3'),
  YOUTUBE_CACHE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(600),
  SOCIAL_INSTAGRAM_URL: optionalUrl,
  SOCIAL_YOUTUBE_URL: optionalUrl,
  SOCIAL_DISCORD_URL: optionalUrl,
  SOCIAL_WHATSAPP_URL: optionalUrl,
  SOCIAL_X_URL: optionalUrl,
});

export type Env = z.infer<typeof EnvSchema> & { sessionSecrets: string[] };

let cached: Env | undefined;

/** Validated once; a bad value throws an Error whose message names the variable. */
export function getEnv(): Env {
  if (cached) return cached;
  const raw = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${issue.path.join('.')}: ${issue.message}`);
  }
  const env = parsed.data;
  cached = { ...env, sessionSecrets: sessionSecrets(env.SESSION_SECRET, env.DATA_DIR) };
  return cached;
}

/** SESSION_SECRET may list several (comma-separated) for rotation; unset, one is generated into DATA_DIR once. */
function sessionSecrets(configured: string | undefined, dataDir: string): string[] {
  if (configured) {
    const secrets = configured
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (secrets.some((s) => s.length < 16)) throw new Error('SESSION_SECRET: each secret must be at least 16 characters');
    return secrets;
  }
  const file = path.join(dataDir, 'session-secret');
  if (fs.existsSync(file)) return [fs.readFileSync(file, 'utf8').trim()];
  fs.mkdirSync(dataDir, { recursive: true });
  // Several web processes may start at once (WEB_CONCURRENCY, decision 086): the secret is written whole to a
  // file of this process, then linked into place only if none is there yet; whoever lost reads the winner's.
  const secret = crypto.randomBytes(32).toString('base64url');
  const mine = `${file}.${process.pid}`;
  fs.writeFileSync(mine, secret + '\n', { mode: 0o600 });
  try {
    fs.linkSync(mine, file);
    return [secret];
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return [fs.readFileSync(file, 'utf8').trim()];
  } finally {
    fs.rmSync(mine, { force: true });
  }
}

/** The social links the footer shows, in a fixed order; only configured ones. */
export function socialLinks(env: Env): { label: string; href: string }[] {
  const links: [string, string | undefined][] = [
    ['Instagram', env.SOCIAL_INSTAGRAM_URL],
    ['YouTube', env.SOCIAL_YOUTUBE_URL],
    ['Discord', env.SOCIAL_DISCORD_URL],
    ['WhatsApp', env.SOCIAL_WHATSAPP_URL],
    ['X', env.SOCIAL_X_URL],
  ];
  return links.filter((l): l is [string, string] => !!l[1]).map(([label, href]) => ({ label, href }));
}

/** For tests: forget the cached environment. */
export function resetEnvForTests() {
  cached = undefined;
}
