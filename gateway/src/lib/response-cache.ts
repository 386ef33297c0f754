import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { ZodType } from 'zod';
import { InFlight } from '@custom-room/toolkit';
import type { Generation } from '../db/generation.js';
import type { DatabaseHandle } from '../db/index.js';

/** What Fastify itself sends for a JSON answer. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

interface Entry {
  stamp: string;
  body: Buffer;
  etag: string;
  /** Milliseconds: from then on the entry is stale whatever the generation (an answer that reads the clock). */
  until?: number;
}

export interface CachedAnswer {
  /** Unique per answer: route and parameters. Only answers that are the same for every caller may be cached. */
  key: string;
  /** The tournament the answer is about (its writes invalidate it); none for answers about every tournament. */
  tournamentId?: number;
  /** Builds the answer from the database; called only on a miss, after the generation was read. */
  build: () => Promise<unknown>;
  /**
   * The route answers some callers differently (an admin's token shows drafts): the cached answer is
   * for callers without a token, and a request with an Authorization header always goes to the route.
   */
  personal?: boolean;
  /** Checked on every build when the app validates responses (tests). */
  schema?: ZodType;
  /**
   * An answer that reads the clock (a tournament's phase, decision 051): the instant (ms) its value may change
   * with no write at all, or null for never; given the built value and the cache's clock when the build began.
   */
  changesAt?: (value: unknown, now: number) => number | null;
}

/**
 * Serialized answers of the public reads, kept while the database's cache generation (decision 023)
 * is unchanged. Each answer is stored with the generation read BEFORE its data was read, and served
 * only while a generation read after the request arrived still equals it, so no process serves an
 * answer older than a write whose response was already sent, by this process or another.
 */
export class ResponseCache {
  /** At most maxEntries answers, the least recently used dropped first. */
  readonly #entries: LRUCache<string, Entry>;
  /**
   * Builds under way by stamp and key, so a crowd arriving after a write builds each answer once.
   * Joining one is as strict as building: equal stamps mean no bump committed between its generation
   * read and ours, and its data was read after its generation.
   */
  readonly #building = new InFlight<string, Entry>();
  readonly #store: DatabaseHandle;
  readonly #validate: boolean;
  readonly #now: () => number;
  /**
   * The exact URLs of GETs this cache answered, each with its answer: such a URL passed its route's
   * validation before, so a repeat can be answered in onRequest, without parsing, validating or
   * running the handler again (a quarter of the time of a hit on the day table, which has a query).
   */
  readonly #urls: LRUCache<string, { key: string; tournamentId?: number; personal?: boolean }>;

  constructor(store: DatabaseHandle, options: { validate?: boolean; maxEntries?: number; now?: () => number } = {}) {
    this.#store = store;
    this.#now = options.now ?? Date.now;
    this.#validate = options.validate ?? false;
    const max = options.maxEntries ?? 5_000;
    this.#entries = new LRUCache({ max });
    this.#urls = new LRUCache({ max });
  }

  /**
   * onRequest hook (callback style: no promise on the paths that go on): a GET of a URL answered
   * before is answered from the cache when its entry is still current under a generation read
   * after the request arrived; anything else (a stale or dropped entry, a database error) goes on
   * to the route, which reads, builds and answers as usual.
   */
  readonly onRequest = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const seen = request.method === 'GET' ? this.#urls.get(request.url) : undefined;
    if (!seen || (seen.personal && request.headers.authorization)) return done();
    this.#store.generation().then(
      (generation) => {
        const entry = this.#entries.get(seen.key);
        const stamp = seen.tournamentId === undefined ? generation.value : generation.of(seen.tournamentId);
        if (entry && this.#current(entry, stamp)) this.#write(entry, request, reply);
        else done();
      },
      () => done(),
    );
  };

  /** Answers from the cache, or builds, stores and answers; settles once the answer is written. */
  async send(request: FastifyRequest, reply: FastifyReply, answer: CachedAnswer): Promise<void> {
    if (request.method === 'GET' && !this.#urls.has(request.url))
      this.#urls.set(request.url, { key: answer.key, tournamentId: answer.tournamentId, personal: answer.personal });
    const generation = await this.#store.generation();
    // Fastify must not see the promise settle before the answer is written (await reply: at once when it was).
    await (this.#sendFor(generation, request, reply, answer) ?? reply);
  }

  #sendFor(generation: Generation, request: FastifyRequest, reply: FastifyReply, answer: CachedAnswer): void | Promise<void> {
    const stamp = answer.tournamentId === undefined ? generation.value : generation.of(answer.tournamentId);
    const entry = this.#entries.get(answer.key);
    if (entry && this.#current(entry, stamp)) return this.#write(entry, request, reply);
    const built = this.#building.run(`${stamp}\n${answer.key}`, () => this.#build(answer, stamp));
    return built.then(async (fresh) => {
      this.#write(fresh, request, reply);
      await reply;
    });
  }

  #current(entry: Entry, stamp: string): boolean {
    return entry.stamp === stamp && (entry.until === undefined || this.#now() < entry.until);
  }

  #write(entry: Entry, request: FastifyRequest, reply: FastifyReply): void {
    reply.header('etag', entry.etag);
    if (request.headers['if-none-match'] === entry.etag) reply.code(304).send();
    else reply.header('content-type', JSON_CONTENT_TYPE).send(entry.body);
  }

  async #build(answer: CachedAnswer, stamp: string): Promise<Entry> {
    const now = this.#now();
    const value = await answer.build();
    if (this.#validate && answer.schema) answer.schema.parse(value);
    const body = Buffer.from(JSON.stringify(value));
    const entry: Entry = { stamp, body, etag: `"${crypto.createHash('sha1').update(body).digest('base64url')}"` };
    const until = answer.changesAt?.(value, now);
    if (until != null) entry.until = until;
    // Stamps are not ordered: the last build to finish wins; an older one only costs the next request a rebuild.
    this.#entries.set(answer.key, entry);
    return entry;
  }
}
