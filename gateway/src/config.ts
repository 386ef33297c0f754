import { z } from 'zod';
import { TimeZoneSchema } from '@custom-room/contract';

const onOff = z.enum(['on', 'off', 'true', 'false', '1', '0']).transform((v) => v === 'on' || v === 'true' || v === '1');

const positiveInt = z.coerce.number().int().positive();

export const ConfigSchema = z
  .object({
    GATEWAY_PORT: z.coerce.number().int().min(0).max(65535).default(4000),
    GATEWAY_HOST: z.string().min(1).default('127.0.0.1'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// (unset it to use SQLite)')
      .optional(),
    JWT_PRIVATE_KEY: z.string().optional(),
    JWT_PRIVATE_KEY_FILE: z.string().optional(),
    JWT_TTL_SECONDS: positiveInt.default(12 * 60 * 60),
    ADMIN_EMAIL: z.string().email().default('admin@example.com'),
    ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
    ADMIN_USERNAME: z.string().min(3).default('admin'),
    ADMIN_PHONE: z.string().default('9000000000'),
    SEED_DEMO: onOff.default('1'),
    RATE_LIMIT: onOff.default('on'),
    // Decision 022: per address, ceilings a registration-day crowd behind one carrier NAT never reaches;
    // per account, a lockout that only attempts without that account's device token can trigger.
    RATE_LIMIT_LOGIN_MAX: positiveInt.default(300),
    RATE_LIMIT_LOGIN_FAILURES_MAX: positiveInt.default(100),
    RATE_LIMIT_ACCOUNT_FAILURES_MAX: positiveInt.default(10),
    RATE_LIMIT_DEVICE_FAILURES_MAX: positiveInt.default(10),
    RATE_LIMIT_LOCKOUT_SECONDS: positiveInt.default(15 * 60),
    RATE_LIMIT_REGISTER_MAX: positiveInt.default(200),
    RATE_LIMIT_RESET_MAX: positiveInt.default(5),
    RATE_LIMIT_RESET_CLIENT_MAX: positiveInt.default(20),
    RATE_LIMIT_WINDOW_SECONDS: positiveInt.default(60),
    // Decision 056: share images one address may have drawn per window (images already drawn are served
    // without limit), and the renders waiting or under way at most before a new one is answered 503.
    SHARE_RENDER_CLIENT_MAX: positiveInt.default(60),
    SHARE_RENDER_QUEUE_MAX: positiveInt.default(16),
    TRUST_PROXY: z.string().default('127.0.0.1,::1'),
    WEB_URL: z.string().url().default('http://localhost:3000'),
    SMTP_URL: z.string().url().optional(),
    SMTP_FROM: z.string().default('Custom Room <no-reply@localhost>'),
    // Issue 19 (decision 044): notifications. The worker runs inside the gateway unless turned off here.
    NOTIFY_WORKER: onOff.default('on'),
    NOTIFY_POLL_MS: positiveInt.default(1000),
    // The worker's own process (gateway/dist/worker.js, ROLE=worker): its niceness (19, the lowest CPU
    // priority), and a loopback port for its /healthz (the container's HEALTHCHECK; unset: none).
    NOTIFY_WORKER_NICE: z.coerce.number().int().min(0).max(19).default(19),
    NOTIFY_HEALTH_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    // Match reminders read a match's time as wall-clock time in this zone (decision 016), like the web app.
    APP_TIME_ZONE: TimeZoneSchema,
    // Web push: VAPID keys (URL-safe base64, as web-push makes them); generated into DATA_DIR when unset.
    VAPID_PUBLIC_KEY: z.string().optional(),
    VAPID_PRIVATE_KEY: z.string().optional(),
    VAPID_SUBJECT: z
      .string()
      .regex(/^(mailto:|https:\/\/)/, 'must be a mailto: address or an https:// URL')
      .optional(),
    // Push endpoints must be https:// at a browser push service (lib/push.ts PUSH_SERVICE_HOSTS). Tests and
    // benches with a local push service turn this on: http:// on this machine (127.0.0.1, localhost, [::1])
    // is accepted too, never any other address. Off unless set.
    PUSH_ALLOW_HTTP: onOff.default('off'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    // Decision 030: a client that sends its request slowly is cut off. The web app, the usual client, sends
    // every request (a 5 MB cover included) over a fast link within its own 4 s gateway timeout.
    GATEWAY_HEADERS_TIMEOUT_MS: positiveInt.default(30_000),
    GATEWAY_REQUEST_TIMEOUT_MS: positiveInt.default(120_000),
    GATEWAY_IDLE_TIMEOUT_MS: positiveInt.default(30_000),
    // Decision 043: how often each gateway process releases the teams whose payment deadline has passed.
    PAYMENT_SWEEP_INTERVAL_MS: positiveInt.default(30_000),
  })
  .superRefine((config, ctx) => {
    // Node refuses to start a server whose headers may take longer than the whole request.
    if (!!config.VAPID_PUBLIC_KEY !== !!config.VAPID_PRIVATE_KEY) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: [config.VAPID_PUBLIC_KEY ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY'],
        message: 'set both VAPID keys, or neither (they are then generated into DATA_DIR)',
      });
    }
    if (config.GATEWAY_HEADERS_TIMEOUT_MS > config.GATEWAY_REQUEST_TIMEOUT_MS) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['GATEWAY_HEADERS_TIMEOUT_MS'],
        message: 'must not be more than GATEWAY_REQUEST_TIMEOUT_MS',
      });
    }
  });

export type Config = z.infer<typeof ConfigSchema>;

/** Reads the environment once; a bad value fails with one line naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ConfigSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}
