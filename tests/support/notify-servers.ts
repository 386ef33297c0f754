// Real protocol ends for the notification tests (decision 044): an SMTP server and a web push service,
// both inside the test process. The push service decrypts each message with the subscription's own keys
// (RFC 8291, aes128gcm) and checks its VAPID signature, as a browser vendor's service would.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { importJWK, jwtVerify } from 'jose';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  raw: string;
}

export interface SmtpSink {
  url: string;
  mails: ReceivedMail[];
  /** The next n messages are refused with a temporary error (451). */
  refuseNext(n: number): void;
  close(): Promise<void>;
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => `%${h}`);
  try {
    return decodeURIComponent(bytes);
  } catch {
    return bytes;
  }
}

/** Parses the one-part text mail nodemailer sends: headers, a blank line, the body (7bit or quoted-printable). */
export function parseMail(raw: string, to: string[]): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const qp = /quoted-printable/i.test(header('Content-Transfer-Encoding'));
  return { to, subject: header('Subject'), text: (qp ? decodeQuotedPrintable(body) : body).replace(/\r\n/g, '\n').trimEnd(), raw };
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  let refuse = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (refuse > 0) {
          refuse -= 1;
          const err = Object.assign(new Error('Mailbox busy, try later'), { responseCode: 451 });
          return callback(err);
        }
        mails.push(
          parseMail(
            Buffer.concat(chunks).toString('utf8'),
            session.envelope.rcptTo.map((r) => r.address),
          ),
        );
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    refuseNext: (n) => (refuse = n),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A browser's side of a push subscription: its ECDH key pair and auth secret. */
export interface TestSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  ecdh: crypto.ECDH;
}

export interface ReceivedPush {
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The decrypted payload (JSON text). */
  payload: string;
  /** The VAPID JWT's claims, verified with the key in the header. */
  vapid: { aud: string; sub: string; exp: number; publicKey: string };
}

export interface PushService {
  url: string;
  received: ReceivedPush[];
  /** Requests that could not be decrypted or verified (must stay empty). */
  problems: string[];
  /** A new subscription at this service; status is what the service answers for it (201, or 410 once unsubscribed). */
  subscribe(status?: number): TestSubscription;
  setStatus(sub: TestSubscription, status: number): void;
  close(): Promise<void>;
}

const hmac = (key: Buffer, data: Buffer) => crypto.createHmac('sha256', key).update(data).digest();

/** RFC 8291 + RFC 8188: decrypts an aes128gcm web push body with the subscription's private key and auth secret. */
export function decryptPush(body: Buffer, sub: Pick<TestSubscription, 'ecdh' | 'keys'>): string {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const senderPublic = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  if (ciphertext.length > rs) throw new Error('more than one record');
  const receiverPublic = sub.ecdh.getPublicKey();
  const shared = sub.ecdh.computeSecret(senderPublic);
  const auth = Buffer.from(sub.keys.auth, 'base64url');
  const prkKey = hmac(auth, shared);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), receiverPublic, senderPublic, Buffer.from([1])]);
  const ikm = hmac(prkKey, keyInfo);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
  const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const plain = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = plain.length;
  while (end > 0 && plain[end - 1] === 0) end -= 1;
  if (plain[end - 1] !== 2) throw new Error('no last-record delimiter');
  return plain.subarray(0, end - 1).toString('utf8');
}

async function verifyVapid(header: string | undefined) {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!m) throw new Error(`no VAPID authorization: ${header}`);
  const raw = Buffer.from(m[2]!, 'base64url');
  const key = await importJWK(
    { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33, 65).toString('base64url') },
    'ES256',
  );
  const { payload } = await jwtVerify(m[1]!, key);
  return { aud: String(payload.aud), sub: String(payload.sub), exp: Number(payload.exp), publicKey: m[2]! };
}

export async function startPushService(): Promise<PushService> {
  const received: ReceivedPush[] = [];
  const problems: string[] = [];
  const subs = new Map<string, { sub: TestSubscription; status: number }>();
  let next = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const path = req.url ?? '';
      const entry = subs.get(path);
      if (!entry) {
        res.writeHead(404).end();
        return;
      }
      if (entry.status !== 201) {
        res.writeHead(entry.status).end('unsubscribed');
        return;
      }
      try {
        if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error(`content-encoding ${req.headers['content-encoding']}`);
        const vapid = await verifyVapid(req.headers.authorization);
        const payload = decryptPush(Buffer.concat(chunks), entry.sub);
        received.push({ path, headers: req.headers, payload, vapid });
        res.writeHead(201).end();
      } catch (err) {
        problems.push(`${path}: ${(err as Error).message}`);
        res.writeHead(400).end();
      }
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    received,
    problems,
    subscribe(status = 201) {
      const ecdh = crypto.createECDH('prime256v1');
      ecdh.generateKeys();
      const path = `/push/${++next}-${crypto.randomBytes(4).toString('hex')}`;
      const sub = {
        endpoint: `${url}${path}`,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: crypto.randomBytes(16).toString('base64url') },
        ecdh,
      };
      subs.set(path, { sub, status });
      return sub;
    },
    setStatus(sub, status) {
      subs.get(new URL(sub.endpoint).pathname)!.status = status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
