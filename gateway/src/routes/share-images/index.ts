import crypto from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { InFlight } from '@custom-room/toolkit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  endpoints,
  GROUP_NOT_FOUND,
  phaseChangesAt,
  qualifyingNote,
  STAGE_NOT_FOUND,
  TOURNAMENT_NOT_FOUND,
  type TournamentPhase,
} from '@custom-room/contract';
import type { DatabaseHandle, Trx } from '../../db/index.js';
import { currentStage, findGroup, findStageRow, groupMembers } from '../../db/stages.js';
import { getTournament, phaseOf } from '../../db/tournaments.js';
import { getTournamentTeams } from '../../db/results.js';
import { HttpError, notFound, tooManyRequests } from '../../lib/errors.js';
import {
  LINK_CARD,
  PORTRAIT,
  renderTableCard,
  SHARE_RENDERER_VERSION,
  shareImageStats,
  tableCardSvg,
  type CardSize,
  type TableCard,
  type TableRow,
} from '../../lib/share-image.js';
import { pointsTable } from '../../services/points/tables.js';
import { binaryDocTransform, matchesEtag } from '../images/index.js';

/** The site's name on the images, as in the web app's titles. */
export const SITE_NAME = 'Custom Room';

/**
 * A CDN or browser keeps an image a minute, then serves it stale while it asks again (a 304 when the
 * results did not change). Results change during a match day, so not longer than that.
 */
export const SHARE_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=600';

const pngDocTransform = binaryDocTransform('image/png');

interface SharePng {
  /** The strong ETag: a hash of the renderer version and the SVG, which holds everything the image shows. */
  etag: string;
  png: Buffer;
  filename: string;
  /** The stage of the group the image is of: a URL naming another stage with this group is refused. */
  stageId?: number;
}

interface Described {
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

  constructor(store: DatabaseHandle, options: ShareImageCacheOptions = { queueMax: 16 }, now: () => number = Date.now) {
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

/** The image, or the refusal with its Retry-After (and not to be kept by a CDN). */
async function serve(reply: FastifyReply, get: () => Promise<SharePng>): Promise<SharePng> {
  try {
    return await get();
  } catch (err) {
    if (err instanceof RetryLater) reply.header('retry-after', String(err.retryAfterSeconds)).header('cache-control', 'no-store');
    throw err;
  }
}

function sendPng(request: FastifyRequest, reply: FastifyReply, image: SharePng) {
  reply.header('cache-control', SHARE_CACHE_CONTROL).header('etag', image.etag).header('x-content-type-options', 'nosniff');
  if (matchesEtag(request.headers['if-none-match'], image.etag)) return reply.code(304).send();
  return reply.type('image/png').header('content-disposition', `inline; filename="${image.filename}"`).send(image.png);
}

const dayLabel = (day: number | undefined) => (day === undefined ? 'Overall' : `Day ${day}`);
const MEDALS = [undefined, 1, 2, 3] as const;

/** A link card is shown a third of its size in a chat: its type at 1.8 times the table images'. */
const LINK_SCALE = 1.8;

/** ₹1,00,000 (Indian grouping, whole rupees), as the web app writes fees. */
const rupees = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 0 });

/** "5 Mar 2026" in the app's time zone, as the web app's formatShortDate. */
function shortDate(iso: string | null | undefined, timeZone: string): string {
  const d = iso ? new Date(iso) : null;
  if (!d || Number.isNaN(d.getTime())) return '';
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone }).format(d).replace('Sept', 'Sep');
}

/** The tournament's phase (decision 051) in the web app's words (registrationStateWords, without the opening time). */
const CARD_PHASE_WORDS: Record<TournamentPhase, string> = {
  upcoming: 'Registration opens soon',
  'registration-open': 'Registration open',
  'registration-closed': 'Registration closed',
  'in-progress': 'In progress',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

/**
 * The cache key of a points table's image: a group's table is keyed by the group alone, since the
 * group names its stage (issue 27 item 16: `?group=` and `?stage=&group=` are one image, drawn once).
 */
const pointsKey = (kind: string, tid: number, day: number | undefined, stage: number | undefined, group: number | undefined) =>
  group !== undefined ? `${kind}:${tid}:${day ?? 'overall'}:group:${group}` : `${kind}:${tid}:${day ?? 'overall'}:${stage ?? ''}`;

/** The scope a points image is drawn for: a group's without the stage the URL named (checked by checkStage). */
const pointsScope = (stage: number | undefined, group: number | undefined): [number | undefined, number | undefined] =>
  group !== undefined ? [undefined, group] : [stage, undefined];

/** A URL naming a stage with a group of another stage is refused, as the day table refuses it. */
function checkStage(image: SharePng, stage: number | undefined): SharePng {
  if (stage !== undefined && image.stageId !== undefined && image.stageId !== stage) throw notFound(GROUP_NOT_FOUND);
  return image;
}

const routes: FastifyPluginAsyncZod = async (app) => {
  const cache = new ShareImageCache(app.store, { queueMax: app.config.SHARE_RENDER_QUEUE_MAX }, () => app.clock.now());
  // Renders one client may start in a window (issue 27 item 16): images already drawn are served to
  // anyone without limit; drawing new ones is what costs. request.ip is the browser's address behind
  // the web app (TRUST_PROXY, decision 020), so one client's flood does not use up another's turn.
  const renderCount = app.config.RATE_LIMIT
    ? app.createRateLimit({
        max: app.config.SHARE_RENDER_CLIENT_MAX,
        timeWindow: app.config.RATE_LIMIT_WINDOW_SECONDS * 1000,
        keyGenerator: (request) => `share-render:${request.ip}`,
      })
    : undefined;
  const admit = (request: FastifyRequest) => async () => {
    if (!renderCount) return;
    const result = await renderCount(request);
    if (result.isAllowed || !result.isExceeded) return;
    throw new RetryLater(429, tooManyRequests(result.ttlInSeconds).message, result.ttlInSeconds);
  };
  const webUrl = app.config.WEB_URL.replace(/\/$/, '');
  const timeZone = app.config.APP_TIME_ZONE;

  const requireTournament = async (db: Trx, tid: number) => {
    const t = await getTournament(db, tid);
    if (!t) throw notFound(TOURNAMENT_NOT_FOUND);
    return t;
  };

  /** The points table of a scope (decision 041's tables) as a card: the share image, or its top rows for a link card. */
  const describePoints = async (db: Trx, tid: number, day: number | undefined, stage?: number, group?: number) => {
    const t = await requireTournament(db, tid);
    // The same table and ranking as the page's call (the day or overall table of this scope).
    const rows = await pointsTable(db, tid, day, { stage, group });
    // Which stage and group the table is of, for its label: the one named, else the current stage.
    const scope: string[] = [];
    let groupStage: number | undefined;
    // A group's overall table shows its qualifying places (issue 27 item 23): the stage's top N of each group.
    let cut: Pick<TableCard, 'cut' | 'note'> = {};
    if (group !== undefined) {
      const g = await findGroup(db, tid, group);
      if (!g) throw notFound(GROUP_NOT_FOUND);
      scope.push(g.stage.name, `Group ${g.name}`);
      groupStage = g.stageId;
      const perGroup = Number(g.stage.advance_per_group);
      if (day === undefined && perGroup > 0 && rows.length > perGroup)
        cut = { cut: perGroup, note: qualifyingNote(perGroup, Number(g.stage.advance_best)) };
    } else {
      const s = stage !== undefined ? await findStageRow(db, tid, stage) : await currentStage(db, tid);
      if (stage !== undefined && !s) throw notFound(STAGE_NOT_FOUND);
      if (s) scope.push(s.name);
    }
    const query = new URLSearchParams();
    if (day) query.set('day', String(day));
    // A group's stage is named whether the request named it or not: ?group= and ?stage=&group= are one image.
    const stageOfUrl = groupStage ?? stage;
    if (stageOfUrl !== undefined) query.set('stage', String(stageOfUrl));
    if (group !== undefined) query.set('group', String(group));
    const search = query.toString() ? `?${query}` : '';
    const card: TableCard = {
      site: SITE_NAME,
      title: t.name,
      subtitle: [t.game, ...scope, dayLabel(day)].join(' · '),
      columns: [
        { label: '#', align: 'center', width: 76 },
        { label: 'Team', align: 'start', width: 'fill' },
        { label: 'M', align: 'end', width: 64 },
        { label: 'Place', align: 'end', width: 100 },
        { label: 'Fin.', align: 'end', width: 84 },
        { label: 'Wins', align: 'end', width: 84 },
        { label: 'Total', align: 'end', width: 104, bold: true },
      ],
      rows: rows.map((r): TableRow => ({
        cells: [r.rank, r.teamName, r.matchesPlayed, r.positionPoints, r.finishes, r.wins, r.totalPoints].map(String),
        // The top three marked, as on the page.
        ...(r.rank <= 3 ? { medal: MEDALS[r.rank] } : {}),
      })),
      ...cut,
      url: `${webUrl}/tournaments/${tid}/points-table${search}`,
      more: (hidden) => `and ${hidden} more ${hidden === 1 ? 'team' : 'teams'}: see the full table at the address below`,
      empty: 'No results yet.',
    };
    const scopeName = group !== undefined ? `-group-${group}` : stage !== undefined ? `-stage-${stage}` : '';
    return { card, name: `${tid}${scopeName}-${day ? `day-${day}` : 'overall'}`, stageId: groupStage };
  };

  app.get(
    endpoints.pointsTableImage.url,
    { config: { swaggerTransform: pngDocTransform }, schema: endpoints.pointsTableImage.schema },
    async (request, reply) => {
      const tid = request.params.id;
      const { stage, group } = request.query;
      const day = request.query.day ? request.query.day : undefined;
      const image = await serve(reply, () =>
        cache.get(
          pointsKey('points', tid, day, stage, group),
          tid,
          async (db) => {
            const { card, name, stageId } = await describePoints(db, tid, day, ...pointsScope(stage, group));
            return { card, filename: `points-table-${name}.png`, stageId };
          },
          admit(request),
        ),
      );
      return sendPng(request, reply, checkStage(image, stage));
    },
  );

  // Link previews (issue 20): 1200×630 cards for og:image, the same renderer at a larger type scale.
  app.get(
    endpoints.pointsCardImage.url,
    { config: { swaggerTransform: pngDocTransform }, schema: endpoints.pointsCardImage.schema },
    async (request, reply) => {
      const tid = request.params.id;
      const { stage, group } = request.query;
      const day = request.query.day ? request.query.day : undefined;
      const image = await serve(reply, () =>
        cache.get(
          pointsKey('points-card', tid, day, stage, group),
          tid,
          async (db) => {
            const { card, name, stageId } = await describePoints(db, tid, day, ...pointsScope(stage, group));
            // The current top three with their totals, large enough to read in a chat's preview.
            const top: TableCard = {
              ...card,
              columns: [
                { label: '#', align: 'center', width: 76 },
                { label: 'Team', align: 'start', width: 'fill' },
                { label: 'M', align: 'end', width: 64 },
                { label: 'Total', align: 'end', width: 120, bold: true },
              ],
              rows: card.rows.map((r) => ({ ...r, cells: [r.cells[0]!, r.cells[1]!, r.cells[2]!, r.cells[6]!] })),
              more: (hidden) => `and ${hidden} more ${hidden === 1 ? 'team' : 'teams'}`,
              maxRows: 3,
              scale: LINK_SCALE,
              // The top three only: no cut line nor its note.
              cut: undefined,
              note: undefined,
            };
            return { card: top, filename: `points-card-${name}.png`, size: LINK_CARD, stageId };
          },
          admit(request),
        ),
      );
      return sendPng(request, reply, checkStage(image, stage));
    },
  );

  app.get(
    endpoints.tournamentCardImage.url,
    { config: { swaggerTransform: pngDocTransform }, schema: endpoints.tournamentCardImage.schema },
    async (request, reply) => {
      const tid = request.params.id;
      const image = await serve(reply, () =>
        cache.get(
          `card:${tid}`,
          tid,
          async (db) => {
            const t = await requireTournament(db, tid);
            const now = app.clock.now();
            const fee = Number(t.entry_fee);
            const starts = shortDate(t.start_date, timeZone);
            const ends = shortDate(t.end_date, timeZone);
            const facts: [string, string][] = [
              ['Entry fee', fee > 0 ? rupees.format(fee) : 'Free'],
              ['Prize pool', t.prize_pool ?? ''],
              ['Dates', starts && ends && starts !== ends ? `${starts} to ${ends}` : starts],
              ['Status', CARD_PHASE_WORDS[phaseOf(t, now)]],
            ];
            const card: TableCard = {
              site: SITE_NAME,
              title: t.name,
              subtitle: t.game,
              header: false,
              columns: [
                { label: '', align: 'start', width: 300 },
                { label: '', align: 'start', width: 'fill', bold: true },
              ],
              rows: facts.filter(([, value]) => value).map(([label, value]) => ({ cells: [label, value] })),
              url: `${webUrl}/tournaments/${tid}`,
              more: () => '',
              empty: '',
              scale: LINK_SCALE,
            };
            const edges = phaseChangesAt(
              {
                status: t.status,
                registrationOpen: t.registration_open,
                registrationClose: t.registration_close,
                startDate: t.start_date,
                endDate: t.end_date,
              },
              now,
            );
            return { card, filename: `tournament-card-${tid}.png`, size: LINK_CARD, ...(edges === null ? {} : { until: edges }) };
          },
          admit(request),
        ),
      );
      return sendPng(request, reply, image);
    },
  );

  app.get(
    endpoints.slotListImage.url,
    { config: { swaggerTransform: pngDocTransform }, schema: endpoints.slotListImage.schema },
    async (request, reply) => {
      const tid = request.params.id;
      const { group: groupId } = request.query;
      const image = await serve(reply, () =>
        cache.get(
          `slots:${tid}:${groupId}`,
          tid,
          async (db) => {
            const t = await requireTournament(db, tid);
            const group = await findGroup(db, tid, groupId);
            // A draft stage's groups are the organiser's work in progress: no public slot list (decision 041).
            if (!group || group.stage.state === 'draft') throw notFound(GROUP_NOT_FOUND);
            const members = [...(await groupMembers(db, group.id))].sort(([, a], [, b]) => a - b);
            const names = await getTournamentTeams(
              db,
              tid,
              members.map(([rid]) => rid),
            );
            const card: TableCard = {
              site: SITE_NAME,
              title: t.name,
              subtitle: [t.game, group.stage.name, `Group ${group.name}`, 'Slot list'].join(' · '),
              columns: [
                { label: 'Slot', align: 'center', width: 110 },
                { label: 'Team', align: 'start', width: 'fill' },
                { label: 'Group', align: 'center', width: 150 },
              ],
              rows: members.map(([rid, slot]) => ({ cells: [String(slot), names.get(rid) ?? '', group.name] })),
              url: `${webUrl}/tournaments/${tid}/stages/${group.stageId}/groups/${group.id}`,
              more: (hidden) => `and ${hidden} more ${hidden === 1 ? 'slot' : 'slots'}: see the full list at the address below`,
              empty: 'No teams in this group yet.',
            };
            return { card, filename: `slot-list-${tid}-group-${group.id}.png` };
          },
          admit(request),
        ),
      );
      return sendPng(request, reply, image);
    },
  );
};

export default routes;
