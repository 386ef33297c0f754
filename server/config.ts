import os from 'node:os';
import { z } from 'zod';

/**
 * What the web server reads from its environment (decision 036). The web app's own variables
 * (GATEWAY_URL, SESSION_SECRET, TRUST_PROXY …) are checked by the build (app/utils/env.server.ts) when
 * it is imported; these are the server's. A bad value stops the start with one line naming it.
 */

const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/)
    .transform(Number)
    .refine((n) => Number.isSafeInteger(n) && n >= min && n <= max);

const schema = z
  .object({
    PORT: z
      .string()
      .regex(/^\d{1,5}$/)
      .transform(Number)
      .refine((n) => n >= 1 && n <= 65535)
      .default('3000'),
    /** Unset: every interface, as Node's listen() does. */
    HOST: z.string().optional(),
    NODE_ENV: z.string().default('production'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Requests inside Remix at once (decisions 026, 031). */
    WEB_MAX_ACTIVE_REQUESTS: wholeNumber(1, 10_000).default('32'),
    /** Of those, at most this many for one client (an account, else an address); default a quarter of them. */
    WEB_MAX_ACTIVE_PER_CLIENT: wholeNumber(1, 10_000).optional(),
    /** Web processes on this port (decision 086): default one per core. Each has these limits and its own page cache. */
    WEB_CONCURRENCY: wholeNumber(1, 64).default(String(Math.min(64, Math.max(1, os.availableParallelism())))),
  })
  .transform((env, ctx) => {
    const perClient = env.WEB_MAX_ACTIVE_PER_CLIENT ?? Math.max(1, Math.floor(env.WEB_MAX_ACTIVE_REQUESTS / 4));
    if (perClient > env.WEB_MAX_ACTIVE_REQUESTS) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['WEB_MAX_ACTIVE_PER_CLIENT'] });
      return z.NEVER;
    }
    return { ...env, HOST: env.HOST || undefined, WEB_MAX_ACTIVE_PER_CLIENT: perClient };
  });

export type ServerConfig = z.output<typeof schema>;

/** What each variable must be, as the one line names it. */
const RULES: Record<string, (env: Record<string, string | undefined>) => string> = {
  PORT: () => 'must be a port number from 1 to 65535',
  LOG_LEVEL: () => 'must be one of fatal, error, warn, info, debug, trace, silent',
  WEB_MAX_ACTIVE_REQUESTS: () => 'must be a whole number from 1 to 10000',
  WEB_CONCURRENCY: () => 'must be a whole number of processes from 1 to 64',
  WEB_MAX_ACTIVE_PER_CLIENT: (env) => `must be a whole number from 1 to WEB_MAX_ACTIVE_REQUESTS (${env.WEB_MAX_ACTIVE_REQUESTS || 32})`,
};

export class ConfigError extends Error {}

/** The server's configuration, or a ConfigError whose message is the one line to print. */
export function readServerConfig(env: Record<string, string | undefined> = process.env): ServerConfig {
  // An empty variable counts as unset, as it always has for these.
  const given = Object.fromEntries(Object.keys(schema._def.schema.shape).map((name) => [name, env[name] || undefined]));
  const parsed = schema.safeParse(given);
  if (parsed.success) return parsed.data;
  const name = String(parsed.error.issues[0]?.path[0] ?? '');
  const rule = RULES[name]?.(env) ?? parsed.error.issues[0]?.message ?? 'invalid';
  throw new ConfigError(`bad configuration: ${name}: ${rule} (got "${env[name]}")`);
}
