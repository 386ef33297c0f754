import { sql, type CompiledQuery, type Selectable } from 'kysely';
import {
  DEFAULT_POINTS_SYSTEM,
  PLACEHOLDER_UPI_ID,
  tournamentPhase,
  type StageProgress,
  type TournamentAdminSummary,
  type TournamentJson,
  type TournamentPhase,
} from '@custom-room/contract';
import { imageUrl, logoUrl } from './images.js';
import type { TournamentsTable } from './schema.js';
import type { Trx } from './types.js';

/** What an admin sets on a tournament (dates as ISO UTC strings). */
export interface TournamentValues {
  name: string;
  game: string;
  description: string;
  startDate: string;
  endDate: string;
  registrationOpen: string;
  registrationClose: string;
  maxTeams: number;
  format: string;
  platform: string;
  entryFee: number;
  prizePool: string;
  status: string;
  overview: string;
  pointsSystem?: string;
  /** Decision 043: undefined keeps the stored value (an update from an older form), null clears it. */
  paymentDeadlineHours?: number | null;
  paymentDeadlineAt?: string | null;
  /** Decision 046: every named player must give a character ID (off when absent). */
  requireCharacterIds?: boolean;
  /** Issue 27: the payee (both or neither); undefined keeps the stored value, null clears it. */
  payeeUpiId?: string | null;
  payeeName?: string | null;
  /** An id already stored in images (see insertImage); null or absent for no cover. */
  coverImageId?: string | null;
}

export type TournamentRow = Selectable<TournamentsTable> & {
  registered_teams: number | string | bigint | null;
  cover_image_width: number | null;
  cover_image_height: number | null;
  /** Issue 27: the stages the derived phase reads (decision 051). */
  stage_count: number | string | bigint | null;
  stages_started: number | string | bigint | null;
  last_stage_state: string | null;
  /** Issue 29: the organiser's public reference. */
  organiser_slug: string | null;
  organiser_name: string | null;
  organiser_logo: string | null;
};

/**
 * Live tournaments with their team count and cover size, in one statement: the count uses the
 * (tournament_id, user_id) unique index and the cover size the images primary key, so a list
 * costs one index walk per row, never an extra query per tournament.
 */
function selectLive(db: Trx) {
  return db
    .selectFrom('tournaments as t')
    .leftJoin('organisers as o', 'o.id', 't.organiser_id')
    .selectAll('t')
    .select(['o.slug as organiser_slug', 'o.name as organiser_name', 'o.logo_image_id as organiser_logo'])
    .select((eb) => [
      eb
        .selectFrom('registrations as r')
        .whereRef('r.tournament_id', '=', 't.id')
        .where('r.place', '=', 'placed')
        .select(eb.fn.countAll().as('n'))
        .as('registered_teams'),
      eb
        .selectFrom('images as i')
        .whereRef('i.id', '=', 't.cover_image_id')
        .select('i.width')
        .orderBy('i.width', 'desc')
        .limit(1)
        .as('cover_image_width'),
      eb
        .selectFrom('images as i')
        .whereRef('i.id', '=', 't.cover_image_id')
        .select('i.height')
        .orderBy('i.width', 'desc')
        .limit(1)
        .as('cover_image_height'),
      // The stages' (tournament_id, ord) index answers each of these.
      eb.selectFrom('stages as s').whereRef('s.tournament_id', '=', 't.id').select(eb.fn.countAll().as('n')).as('stage_count'),
      eb
        .selectFrom('stages as s')
        .whereRef('s.tournament_id', '=', 't.id')
        .where('s.state', '<>', 'draft')
        .select(eb.fn.countAll().as('n'))
        .as('stages_started'),
      eb
        .selectFrom('stages as s')
        .whereRef('s.tournament_id', '=', 't.id')
        .select('s.state')
        .orderBy('s.ord', 'desc')
        .limit(1)
        .as('last_stage_state'),
    ])
    .where('t.deleted_at', 'is', null);
}

/** Live tournaments, soonest first (served by the tournaments_live_start index). */
export async function listTournaments(db: Trx): Promise<TournamentRow[]> {
  // The hottest read: compile its SQL once per database handle (building the query costs as much as running it).
  let compiled = compiledList.get(db);
  if (!compiled) {
    compiled = selectLive(db).orderBy('t.start_date', 'asc').orderBy('t.id', 'asc').compile();
    compiledList.set(db, compiled);
  }
  return (await db.executeQuery(compiled)).rows;
}
const compiledList = new WeakMap<Trx, CompiledQuery<TournamentRow>>();

/** An organiser's live tournaments, soonest first (issue 29: its page). */
export function listOrganiserTournaments(db: Trx, organiserId: number): Promise<TournamentRow[]> {
  return selectLive(db).where('t.organiser_id', '=', organiserId).orderBy('t.start_date', 'asc').orderBy('t.id', 'asc').execute();
}

/** One live tournament, or undefined when missing or soft-deleted. */
export async function getTournament(db: Trx, id: number): Promise<TournamentRow | undefined> {
  return selectLive(db).where('t.id', '=', id).executeTakeFirst();
}

type PhaseRow = Pick<
  TournamentRow,
  'status' | 'registration_open' | 'registration_close' | 'start_date' | 'end_date' | 'stage_count' | 'stages_started' | 'last_stage_state'
>;

/** The stages' facts of a row, for tournamentPhase. */
export function stageProgressOf(row: PhaseRow): StageProgress {
  const stages = Number(row.stage_count ?? 0);
  return { stages, started: Number(row.stages_started ?? 0) > 0, finished: stages > 0 && row.last_stage_state === 'completed' };
}

/** The phase of a row at nowMs (the contract's one rule, decision 051). */
export function phaseOf(row: PhaseRow, nowMs: number): TournamentPhase {
  return tournamentPhase(
    {
      status: row.status,
      registrationOpen: row.registration_open,
      registrationClose: row.registration_close,
      startDate: row.start_date,
      endDate: row.end_date,
      stageProgress: stageProgressOf(row),
    },
    nowMs,
  );
}

/** A tournament's answer; nowMs dates its derived phase (app.clock). */
export function toTournamentJson(row: TournamentRow, nowMs: number): TournamentJson {
  const progress = stageProgressOf(row);
  return {
    id: row.id,
    name: row.name,
    game: row.game,
    description: row.description,
    startDate: row.start_date,
    endDate: row.end_date,
    registrationOpen: row.registration_open,
    registrationClose: row.registration_close,
    maxTeams: row.max_teams,
    format: row.format,
    platform: row.platform,
    entryFee: Number(row.entry_fee),
    prizePool: row.prize_pool,
    coverImageUrl: row.cover_image_id ? imageUrl(row.cover_image_id) : null,
    coverImageWidth: row.cover_image_id && row.cover_image_width != null ? Number(row.cover_image_width) : null,
    coverImageHeight: row.cover_image_id && row.cover_image_height != null ? Number(row.cover_image_height) : null,
    status: row.status,
    overview: row.overview,
    pointsSystem: row.points_system,
    requireCharacterIds: Number(row.require_character_ids) === 1,
    registeredTeams: Number(row.registered_teams ?? 0),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.payment_deadline_hours != null ? { paymentDeadlineHours: Number(row.payment_deadline_hours) } : {}),
    ...(row.payment_deadline_at != null ? { paymentDeadlineAt: row.payment_deadline_at } : {}),
    ...(row.payee_upi_id != null ? { payeeUpiId: row.payee_upi_id, payeeName: row.payee_name ?? '' } : {}),
    phase: phaseOf(row, nowMs),
    ...(progress.stages > 0 ? { stageProgress: progress } : {}),
    ...(row.organiser_slug
      ? {
          organiser: {
            slug: row.organiser_slug,
            name: row.organiser_name ?? '',
            logoUrl: row.organiser_logo ? logoUrl(row.organiser_logo) : null,
          },
        }
      : {}),
  };
}

function toColumns(values: TournamentValues) {
  return {
    name: values.name,
    game: values.game,
    description: values.description,
    start_date: values.startDate,
    end_date: values.endDate,
    registration_open: values.registrationOpen,
    registration_close: values.registrationClose,
    max_teams: values.maxTeams,
    format: values.format,
    platform: values.platform,
    entry_fee: values.entryFee,
    prize_pool: values.prizePool,
    status: values.status,
    overview: values.overview,
    points_system: values.pointsSystem ?? DEFAULT_POINTS_SYSTEM,
    ...(values.paymentDeadlineHours !== undefined ? { payment_deadline_hours: values.paymentDeadlineHours } : {}),
    ...(values.paymentDeadlineAt !== undefined ? { payment_deadline_at: values.paymentDeadlineAt } : {}),
    require_character_ids: values.requireCharacterIds ? 1 : 0,
    ...(values.payeeUpiId !== undefined ? { payee_upi_id: values.payeeUpiId, payee_name: values.payeeName ?? null } : {}),
  };
}

/** Inserts a tournament of an organiser, made at `at` (ISO), and returns its id. */
export async function insertTournament(db: Trx, values: TournamentValues, at: string, organiserId: number): Promise<number> {
  const row = await db
    .insertInto('tournaments')
    .values({
      ...toColumns(values),
      cover_image_id: values.coverImageId ?? null,
      organiser_id: organiserId,
      deleted_at: null,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Updates a live tournament at `at`; coverImageId undefined keeps the current cover. False when there is none to update. */
export async function updateTournament(db: Trx, id: number, values: TournamentValues, at: string): Promise<boolean> {
  const result = await db
    .updateTable('tournaments')
    .set({
      ...toColumns(values),
      ...(values.coverImageId !== undefined ? { cover_image_id: values.coverImageId } : {}),
      updated_at: at,
    })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Hides a tournament at `at`; its registrations, matches and results stay for recovery. False when missing or already deleted. */
export async function softDeleteTournament(db: Trx, id: number, at: string): Promise<boolean> {
  const result = await db
    .updateTable('tournaments')
    .set({ deleted_at: at, updated_at: at })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The placed teams of a tournament that have not paid get a new pay-by (null: none). */
export async function setUnpaidPayBy(trx: Trx, tournamentId: number, payBy: string | null): Promise<void> {
  await trx
    .updateTable('registrations')
    .set({ pay_by: payBy })
    .where('tournament_id', '=', tournamentId)
    .where('place', '=', 'placed')
    .where('payment_status', '!=', 'verified')
    .execute();
}

/**
 * Every live tournament with its team count and payments by status, for the admin list, in one
 * statement: registrations are counted once per tournament, not once per tournament and status.
 */
export async function listTournamentSummaries(db: Trx, nowMs: number): Promise<TournamentAdminSummary[]> {
  // Decision 043: the counts are of placed teams; the waitlist is counted on its own.
  const byStatus = (status: string) =>
    sql<number | string>`sum(case when place = 'placed' and payment_status = ${status} then 1 else 0 end)`;
  const counts = db
    .selectFrom('registrations')
    .select([
      'tournament_id',
      sql<number | string>`sum(case when place = 'placed' then 1 else 0 end)`.as('registered'),
      sql<number | string>`sum(case when place = 'waitlist' then 1 else 0 end)`.as('waitlisted'),
      byStatus('pending').as('pending'),
      byStatus('submitted').as('submitted'),
      byStatus('verified').as('verified'),
      byStatus('rejected').as('rejected'),
    ])
    .groupBy('tournament_id');
  // Decision 044: deliveries that gave up, for the organiser's link to them.
  const failed = db
    .selectFrom('notification_deliveries')
    .select(['tournament_id', sql<number | string>`count(*)`.as('failed')])
    .where('state', '=', 'failed')
    .groupBy('tournament_id');
  const rows = await db
    .selectFrom('tournaments as t')
    .leftJoin(counts.as('c'), 'c.tournament_id', 't.id')
    .leftJoin(failed.as('f'), 'f.tournament_id', 't.id')
    .select([
      't.id',
      't.name',
      't.game',
      't.status',
      't.start_date',
      't.end_date',
      't.registration_open',
      't.registration_close',
      't.max_teams',
      't.entry_fee',
      't.points_system',
      't.payee_upi_id',
      'c.registered',
      'c.waitlisted',
      'c.pending',
      'c.submitted',
      'c.verified',
      'c.rejected',
      'f.failed',
      // Issue 27: the stages the phase reads, as selectLive.
      (eb) => eb.selectFrom('stages as s').whereRef('s.tournament_id', '=', 't.id').select(eb.fn.countAll().as('n')).as('stage_count'),
      (eb) =>
        eb
          .selectFrom('stages as s')
          .whereRef('s.tournament_id', '=', 't.id')
          .where('s.state', '<>', 'draft')
          .select(eb.fn.countAll().as('n'))
          .as('stages_started'),
      (eb) =>
        eb
          .selectFrom('stages as s')
          .whereRef('s.tournament_id', '=', 't.id')
          .select('s.state')
          .orderBy('s.ord', 'desc')
          .limit(1)
          .as('last_stage_state'),
    ])
    .where('t.deleted_at', 'is', null)
    .orderBy('t.start_date', 'asc')
    .orderBy('t.id', 'asc')
    .execute();
  // PostgreSQL returns count() and sum() as bigint strings; a tournament without teams has nulls.
  const n = (v: number | string | null) => Number(v ?? 0);
  return rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    game: r.game,
    status: r.status,
    startDate: r.start_date,
    endDate: r.end_date,
    registrationClose: r.registration_close,
    phase: phaseOf(r, nowMs),
    maxTeams: Number(r.max_teams),
    entryFee: Number(r.entry_fee),
    pointsSystem: r.points_system,
    registeredTeams: n(r.registered),
    ...(n(r.waitlisted) > 0 ? { waitlisted: n(r.waitlisted) } : {}),
    paymentsAwaiting: n(r.submitted),
    ...(n(r.failed) > 0 ? { failedDeliveries: n(r.failed) } : {}),
    ...(r.payee_upi_id != null ? { payeeUpiId: r.payee_upi_id } : {}),
    payments: { pending: n(r.pending), submitted: n(r.submitted), verified: n(r.verified), rejected: n(r.rejected) },
  }));
}

/**
 * Issue 27 (decision 055): live tournaments that take fees and pay the placeholder UPI ID, their own or, without
 * one, the site's default (UPI_PAYEE_VPA, the web's variable) when that is the placeholder too.
 */
export async function tournamentsPayingPlaceholder(db: Trx, siteDefaultUpiId: string): Promise<{ id: number; name: string }[]> {
  let query = db.selectFrom('tournaments').select(['id', 'name']).where('deleted_at', 'is', null).where('entry_fee', '>', 0);
  query =
    siteDefaultUpiId === PLACEHOLDER_UPI_ID
      ? query.where((eb) => eb.or([eb('payee_upi_id', 'is', null), eb('payee_upi_id', '=', PLACEHOLDER_UPI_ID)]))
      : query.where('payee_upi_id', '=', PLACEHOLDER_UPI_ID);
  const rows = await query.orderBy('start_date').orderBy('id').execute();
  return rows.map((r) => ({ id: Number(r.id), name: r.name }));
}
