import fs from 'node:fs';
import path from 'node:path';
import { Agent, request } from 'undici';
import webpush from 'web-push';

/** The VAPID key pair (URL-safe base64), from VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY or generated once into DATA_DIR. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

export function loadVapidKeys(options: {
  publicKey?: string;
  privateKey?: string;
  subject?: string;
  dataDir: string;
  webUrl: string;
  adminEmail: string;
}): VapidKeys {
  const subject = options.subject ?? (options.webUrl.startsWith('https://') ? options.webUrl : `mailto:${options.adminEmail}`);
  if (options.publicKey && options.privateKey) return { publicKey: options.publicKey, privateKey: options.privateKey, subject };
  const file = path.join(options.dataDir, 'vapid.json');
  if (fs.existsSync(file)) {
    const keys = JSON.parse(fs.readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string };
    return { ...keys, subject };
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  const keys = webpush.generateVAPIDKeys();
  // wx: two processes starting at once on one DATA_DIR keep the first one's keys.
  try {
    fs.writeFileSync(file, JSON.stringify(keys), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as { code?: string }).code !== 'EEXIST') throw err;
    return { ...(JSON.parse(fs.readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string }), subject };
  }
  return { ...keys, subject };
}

/**
 * The push services browsers subscribe with (decision 044): the gateway POSTs to a subscription's endpoint,
 * so it accepts only these hosts (a server-side request forgery otherwise). `*.` is any subdomain.
 * Chrome, Opera, Samsung Internet and Edge on Android: FCM (fcm.googleapis.com/fcm/send/…, /wp/…);
 * Firefox: Mozilla autopush (updates.push.services.mozilla.com/wpush/v2/…); Edge on Windows: WNS
 * (e.g. wns2-par02p.notify.windows.com/w/?token=…); Safari on macOS and iOS: Apple (web.push.apple.com).
 */
export const PUSH_SERVICE_HOSTS = [
  'fcm.googleapis.com',
  '*.push.services.mozilla.com',
  '*.notify.windows.com',
  '*.push.apple.com',
] as const;

/** The field message for an endpoint that is not one of the push services. */
export const NOT_A_PUSH_SERVICE = 'Must be a browser push service URL.';

/** This machine: a local test push service, accepted over http only with PUSH_ALLOW_HTTP=on. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

const hostMatches = (host: string, pattern: string) =>
  pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1 : host === pattern;

/**
 * Whether the gateway may send pushes to endpoint: https on the default port, no user info, a host of
 * PUSH_SERVICE_HOSTS. allowLoopbackHttp (PUSH_ALLOW_HTTP=on, tests and benches) adds http:// on this
 * machine only, never another address.
 */
export function isPushServiceUrl(endpoint: string, options: { allowLoopbackHttp: boolean }): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === 'http:') return options.allowLoopbackHttp && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' || url.port !== '') return false;
  return PUSH_SERVICE_HOSTS.some((pattern) => hostMatches(url.hostname, pattern));
}

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** What a push service said: sent, gone (the browser unsubscribed: drop the subscription), or failed (retry). */
export type PushOutcome = { ok: true } | { ok: false; gone: boolean; error: string };

/**
 * Sends web pushes: web-push encrypts the payload (aes128gcm) and signs the VAPID header; the request goes
 * out on undici's pooled connections. The VAPID header is signed once per push service origin and reused
 * for 6 hours (its JWT is valid for 12; push services accept at most 24), so a burst costs one ECDH and one AES per message.
 */
export class PushSender {
  private readonly agent = new Agent({ connections: 32, pipelining: 1, keepAliveTimeout: 10_000 });
  private readonly headers = new Map<string, { value: Record<string, string>; until: number }>();

  constructor(private readonly keys: VapidKeys) {}

  private vapidHeaders(endpoint: string): Record<string, string> {
    const audience = new URL(endpoint).origin;
    // The real time, not the gateway's clock: push services check the VAPID JWT's exp against theirs.
    const now = Date.now();
    const cached = this.headers.get(audience);
    if (cached && cached.until > now) return cached.value;
    const expiration = Math.floor(now / 1000) + 12 * 60 * 60;
    const value = webpush.getVapidHeaders(audience, this.keys.subject, this.keys.publicKey, this.keys.privateKey, 'aes128gcm', expiration);
    this.headers.set(audience, { value: value as Record<string, string>, until: now + 6 * 60 * 60 * 1000 });
    return value as Record<string, string>;
  }

  async send(target: PushTarget, payload: string, options: { ttlSeconds: number; timeoutMs: number }): Promise<PushOutcome> {
    let body: Buffer;
    try {
      body = webpush.encrypt(target.p256dh, target.auth, payload, 'aes128gcm').cipherText;
    } catch (err) {
      // Keys the browser never made: nothing to retry.
      return { ok: false, gone: true, error: `The subscription's keys are not valid: ${(err as Error).message}` };
    }
    try {
      const res = await request(target.endpoint, {
        method: 'POST',
        dispatcher: this.agent,
        headers: {
          ...this.vapidHeaders(target.endpoint),
          TTL: String(options.ttlSeconds),
          Urgency: 'high',
          'Content-Encoding': 'aes128gcm',
          'Content-Type': 'application/octet-stream',
          'Content-Length': String(body.length),
        },
        body,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
      const text = await res.body.text();
      if (res.statusCode >= 200 && res.statusCode < 300) return { ok: true };
      const gone = res.statusCode === 404 || res.statusCode === 410;
      return { ok: false, gone, error: `Push service answered ${res.statusCode}${text ? `: ${text.slice(0, 200)}` : ''}` };
    } catch (err) {
      return { ok: false, gone: false, error: `Push service not reached: ${(err as Error).message}` };
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
