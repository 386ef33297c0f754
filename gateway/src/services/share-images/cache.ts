import crypto from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { InFlight } from '@custom-room/toolkit';
import type { DatabaseHandle, Trx } from '../../db/index.js';
import { HttpError } from '../../lib/errors.js';
import {
  PORTRAIT,
  renderTableCard,
  SHARE_RENDERER_VERSION,
  shareImageStats,
  tableCardSvg,
  type CardSize,
  type TableCard,
} from '../../lib/share-image.js';

export interface SharePng {
  /** The strong ETag: a hash of the renderer version and the SVG, which holds everything the image shows. */
  etag: string;
  png: Buffer;
  filename: string;
  /** The stage of the group the image is of: a URL naming another stage with this group is refused. */
  stageId?: number;
}

/** What an image shows, read from the database: the card and how to name and keep it. */
export interface Described {
  card: TableCard;
  filename: string;
  /** The picture's size: the 1080×1350 share images by default, 1200×630 for the link cards. */
  size?: CardSize;
  stageId?: number;
  /** A picture that reads the clock (the link card's phase, decision 051): stale from this instant (ms) on. */
  until?: number;
}

/** A render refused for now (issue 27 item 16): the answer carries Retry-After. */
export class RetryLater extends HttpError {
  constructor(
    statusCode: 429 | 503,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(statusCode, message);
  }
}

/** The render queue is full: 503, the client asks again in about the time the queue takes to empty. */
const queueFull = (seconds: number) =>
  new RetryLater(503, `Images are being drawn for many people right now. Please try again in ${seconds} seconds.`, seconds);

export interface ShareImageCacheOptions {
  /** Renders waiting or under way at most; one more is refused with 503 and Retry-After. */
  queueMax: number;
}

/**
 * Rendered share images by URL scope, kept while the tournament's cache generation (decision 023) is
 * unchanged. A crowd arriving after a write reads the data once and renders once (InFlight keyed by
 * generation stamp and key, the response cache's argument, decision 038), and a write that did not
 * change what the image shows (another tournament of the same generation shard, a payment) costs a
 * read and no render: the new SVG hashes the same, so the PNG and its ETag are kept.
 */
export class ShareImageCache {
  readonly #entries = new LRUCache<string, { stamp: string; image: SharePng; until?: number }>({
    max: 500,
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (e) => e.image.png.length + 200,
  });
  readonly #building = new InFlight<string, SharePng>();
  readonly #store: DatabaseHandle;
  readonly #queueMax: number;
  readonly #now: () => number;
  /** Renders waiting for their turn or under way (share images only; covers have their own limits). */
  #rendering = 0;

  /** now: the injected clock's time (ms), which link cards that read the clock go stale by. */
  constructor(store: DatabaseHandle, options: ShareImageCacheOptions, now: () => number) {
    this.#store = store;
    this.#queueMax = options.queueMax;
    this.#now = now;
  }

  /**
   * The image for key. admit() is asked before this request starts a build of its own (no image of the
   * current generation kept, none being built): it throws to refuse (the client's render limit).
   */
  async get(
    key: string,
    tournamentId: number,
    describe: (db: Trx) => Promise<Described>,
    admit: () => Promise<void> | void = () => {},
  ): Promise<SharePng> {
    const stamp = (await this.#store.generation()).of(tournamentId);
    const entry = this.#entries.get(key);
    if (entry && entry.stamp === stamp && (entry.until === undefined || this.#now() < entry.until)) return entry.image;
    const buildKey = `${stamp}\n${key}`;
    if (!this.#building.has(buildKey)) await admit();
    return this.#building.run(buildKey, async () => {
      const { card, filename, size = PORTRAIT, stageId, until } = await describe(this.#store.db);
      const svg = tableCardSvg(card, size);
      const etag = `"png${SHARE_RENDERER_VERSION}-${crypto.createHash('sha1').update(svg).digest('base64url')}"`;
      const prior = this.#entries.get(key)?.image;
      const image = prior && prior.etag === etag ? prior : { etag, png: await this.#render(card, size), filename, stageId };
      this.#entries.set(key, until === undefined ? { stamp, image } : { stamp, image, until });
      return image;
    });
  }

  /** One render in the bounded queue: a full queue answers at once rather than making everyone wait longer. */
  async #render(card: TableCard, size: CardSize): Promise<Buffer> {
    if (this.#rendering >= this.#queueMax) {
      // About the time the queue takes to empty, in whole seconds.
      throw queueFull(Math.min(30, Math.max(1, Math.ceil((this.#rendering * shareImageStats.renderMs) / 1000))));
    }
    this.#rendering += 1;
    try {
      return await renderTableCard(card, size);
    } finally {
      this.#rendering -= 1;
    }
  }
}
