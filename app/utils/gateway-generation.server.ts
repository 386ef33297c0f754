import http from 'node:http';
import https from 'node:https';
import { endpoints } from '@custom-room/contract';
import { coalesce } from '@custom-room/toolkit';

/** How long a page request waits for the gateway's generation before it is rendered the ordinary way. */
export const GENERATION_WAIT_MS = 500;
const MAX_GENERATION_LENGTH = 256;

/**
 * Reads `GET /generation` of the gateway: `{"generation":"<opaque>"}`, a value that changes whenever
 * an anonymous answer about tournaments, points or matches could have changed (decision 024). Plain
 * node:http over one kept-alive connection: it runs about once per gateway round trip under load.
 */
export function generationReader(gatewayUrl: string, timeoutMs: number): () => Promise<string> {
  const url = new URL(endpoints.generation.url, gatewayUrl);
  const client = url.protocol === 'https:' ? https : http;
  const agent = new client.Agent({ keepAlive: true, maxSockets: 2 });
  return () =>
    new Promise<string>((resolve, reject) => {
      const req = client.get(url, { agent, headers: { accept: 'application/json' }, timeout: timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > 4096) return void req.destroy(new Error('generation answer too large'));
          chunks.push(chunk);
        });
        res.on('end', () => {
          if (res.statusCode !== 200)
            return reject(Object.assign(new Error(`generation answered ${res.statusCode}`), { status: res.statusCode }));
          try {
            const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'))?.generation;
            if (typeof value === 'string' && value.length > 0 && value.length <= MAX_GENERATION_LENGTH) return resolve(value);
          } catch {
            // reported below
          }
          reject(new Error('generation answer not understood'));
        });
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`generation timed out after ${timeoutMs} ms`)));
      req.on('error', reject);
    });
}

/**
 * The gateway's current generation, fetched for many page requests at once but never older than the
 * request: `current()` answers with a read that STARTED after it was called. With no read in flight
 * one starts at once; otherwise the caller waits for the next read, which starts as soon as the one
 * in flight ends and is shared by everyone who arrived meanwhile (the toolkit's `coalesce`, decision
 * 038). Under load that is one read per gateway round trip, however many pages are asked for. null
 * when the read failed.
 */
export class GenerationSource {
  /** A gateway without the endpoint (404, an older or another gateway) is asked again only after this long. */
  static readonly NOT_SUPPORTED_RETRY_MS = 60_000;
  private notSupportedUntil = 0;
  private readonly shared: () => Promise<string | null>;
  /** How many reads were started (for tests and the benchmark's notes). */
  reads = 0;
  /** The value of the last read that succeeded. */
  latest: string | null = null;

  constructor(
    read: () => Promise<string>,
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    this.shared = coalesce(() => {
      this.reads++;
      return read().then(
        (value) => {
          this.latest = value;
          return value;
        },
        (err: unknown) => {
          if ((err as { status?: number }).status === 404) this.notSupportedUntil = Date.now() + GenerationSource.NOT_SUPPORTED_RETRY_MS;
          this.onError(err);
          return null;
        },
      );
    });
  }

  current(): Promise<string | null> {
    if (this.notSupportedUntil && Date.now() < this.notSupportedUntil) return Promise.resolve(null);
    return this.shared();
  }

  /** current(), or null once waitMs have passed: a slow gateway delays a page by at most that much. */
  currentWithin(waitMs: number): Promise<string | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(null), waitMs);
      this.current().then((value) => {
        clearTimeout(timer);
        resolve(value);
      });
    });
  }
}
