import { GROUP_NOT_FOUND } from '@custom-room/contract';
import type { DatabaseHandle } from '../../db/index.js';
import type { Clock } from '../../lib/clock.js';
import { notFound } from '../../lib/errors.js';
import { LINK_CARD } from '../../lib/share-image.js';
import { ShareImageCache, type Described, type SharePng } from './cache.js';
import type { CardContext } from './card-context.js';
import { playersCard, type PlayersImageScope } from './player-cards.js';
import { pointsCard, topThree, type PointsDrawing, type PointsImageScope } from './points-cards.js';
import { slotListCard, tournamentCard } from './tournament-cards.js';

/** Asked before a request starts a render of its own: throws to refuse it (the client's render limit). */
export type Admit = () => Promise<void> | void;

/**
 * The cache key of a points table's image: a group's table is keyed by the group alone, since the
 * group names its stage (issue 27 item 16: `?group=` and `?stage=&group=` are one image, drawn once).
 */
const pointsKey = (kind: string, { tid, day, stage, group }: PointsImageScope) =>
  group !== undefined ? `${kind}:${tid}:${day ?? 'overall'}:group:${group}` : `${kind}:${tid}:${day ?? 'overall'}:${stage ?? ''}`;

/** The scope a points image is drawn for: a group's without the stage the URL named (checked by checkStage). */
const drawnScope = (where: PointsImageScope): PointsImageScope =>
  where.group !== undefined
    ? { tid: where.tid, day: where.day, group: where.group }
    : { tid: where.tid, day: where.day, stage: where.stage };

/** A URL naming a stage with a group of another stage is refused, as the day table refuses it. */
function checkStage(image: SharePng, stage: number | undefined): SharePng {
  if (stage !== undefined && image.stageId !== undefined && image.stageId !== stage) throw notFound(GROUP_NOT_FOUND);
  return image;
}

/** The share images and link cards (issues 20 and 27, decision 049): each drawn once per change of what it shows. */
export class ShareImages {
  readonly #cache: ShareImageCache;
  readonly #context: CardContext;
  readonly #clock: Clock;

  constructor(store: DatabaseHandle, options: CardContext & { queueMax: number }, clock: Clock) {
    this.#cache = new ShareImageCache(store, { queueMax: options.queueMax }, () => clock.now());
    this.#context = { webUrl: options.webUrl.replace(/\/$/, ''), timeZone: options.timeZone };
    this.#clock = clock;
  }

  /** A points table's share image (1080×1350). */
  pointsTable(where: PointsImageScope, admit: Admit): Promise<SharePng> {
    return this.#points('points', where, admit, ({ card, name, stageId }) => ({ card, filename: `points-table-${name}.png`, stageId }));
  }

  /** A points table's link card (1200×630, issue 20): its top three, large. */
  pointsCard(where: PointsImageScope, admit: Admit): Promise<SharePng> {
    return this.#points('points-card', where, admit, ({ card, name, stageId }) => ({
      card: topThree(card),
      filename: `points-card-${name}.png`,
      size: LINK_CARD,
      stageId,
    }));
  }

  /** Top fraggers' share image (issue 30, decision 076): kept, like the table's, while the tournament's generation stands. */
  players(where: PlayersImageScope, admit: Admit): Promise<SharePng> {
    const { tid, stage, group } = where;
    return this.#cache.get(
      `players:${tid}:${stage ?? ''}:${group ?? ''}`,
      tid,
      async (db) => {
        const { card, name } = await playersCard(db, this.#context, where);
        return { card, filename: `top-fraggers-${name}.png` };
      },
      admit,
    );
  }

  /** A tournament's link card: its fee, prize pool, dates and phase. */
  tournamentCard(tid: number, admit: Admit): Promise<SharePng> {
    return this.#cache.get(`card:${tid}`, tid, (db) => tournamentCard(db, this.#context, tid, this.#clock.now()), admit);
  }

  /** A published group's slot list. */
  slotList(tid: number, groupId: number, admit: Admit): Promise<SharePng> {
    return this.#cache.get(`slots:${tid}:${groupId}`, tid, (db) => slotListCard(db, this.#context, tid, groupId), admit);
  }

  /** A points image of one kind: the scope's table drawn as toImage says, refused for a group of another stage. */
  async #points(kind: string, where: PointsImageScope, admit: Admit, toImage: (drawn: PointsDrawing) => Described): Promise<SharePng> {
    const image = await this.#cache.get(
      pointsKey(kind, where),
      where.tid,
      async (db) => toImage(await pointsCard(db, this.#context, drawnScope(where))),
      admit,
    );
    return checkStage(image, where.stage);
  }
}
