import type { GroupMatchKey } from './reports.js';
import type { Trx } from './types.js';

/** Issue 30 (decisions 071, 072): screenshots kept once, and the reports whose screenshots look the same. */

export interface StoredScreenshot {
  id: string;
  contentType: string;
  width: number;
  height: number;
  data: Buffer;
  hash: string;
}

/** Keeps a screenshot (nothing when the same bytes are already kept). */
export async function storeScreenshot(trx: Trx, shot: StoredScreenshot, at: string): Promise<void> {
  await trx
    .insertInto('screenshots')
    .values({
      id: shot.id,
      content_type: shot.contentType,
      width: shot.width,
      height: shot.height,
      data: shot.data,
      hash: shot.hash,
      created_at: at,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

export async function screenshotData(db: Trx, id: string): Promise<{ content_type: string; data: Buffer } | undefined> {
  return db.selectFrom('screenshots').select(['content_type', 'data']).where('id', '=', id).executeTakeFirst();
}

/** At most this many earlier reports are compared with a new screenshot. */
export const LOOKALIKE_CANDIDATES = 200;

/**
 * The reports a new screenshot of a team's report is compared with (decision 071): the other reports of
 * its group-match, and every report of a team sharing one of its players (its own other matches, and the
 * same players' teams in other tournaments), newest first.
 */
export async function lookalikeCandidates(db: Trx, key: GroupMatchKey, registrationId: number, exceptReportId: number) {
  return lookalikeCandidatesQuery(db, key, registrationId, exceptReportId).execute();
}

/** lookalikeCandidates' query, for its plan (tests/gateway/query-plans.test.ts: each part an index search). */
export function lookalikeCandidatesQuery(db: Trx, key: GroupMatchKey, registrationId: number, exceptReportId: number) {
  return db
    .selectFrom('match_reports as mr')
    .innerJoin('screenshots as s', 's.id', 'mr.screenshot_id')
    .select(['mr.id', 'mr.screenshot_id', 's.hash'])
    .where('mr.id', '!=', exceptReportId)
    .where((eb) =>
      eb.or([
        eb.and([
          eb('mr.tournament_id', '=', key.tournamentId),
          eb('mr.group_id', '=', key.groupId),
          eb('mr.day', '=', key.day),
          eb('mr.match_no', '=', key.match),
        ]),
        eb('mr.registration_id', '=', registrationId),
        eb(
          'mr.registration_id',
          'in',
          eb
            .selectFrom('registration_igns as other')
            .innerJoin('registration_igns as mine', 'mine.ign_lower', 'other.ign_lower')
            .select('other.registration_id')
            .where('mine.registration_id', '=', registrationId),
        ),
      ]),
    )
    .orderBy('mr.id', 'desc')
    .limit(LOOKALIKE_CANDIDATES);
}

/** Makes a report's look-alikes exactly these (each pair kept both ways). */
export async function replaceLookalikes(trx: Trx, reportId: number, found: readonly { reportId: number; distance: number }[]) {
  await trx
    .deleteFrom('report_lookalikes')
    .where((eb) => eb.or([eb('report_id', '=', reportId), eb('other_report_id', '=', reportId)]))
    .execute();
  if (found.length === 0) return;
  const rows = found.flatMap((f) => [
    { report_id: reportId, other_report_id: f.reportId, distance: f.distance },
    { report_id: f.reportId, other_report_id: reportId, distance: f.distance },
  ]);
  await trx
    .insertInto('report_lookalikes')
    .values(rows)
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** The look-alikes of these reports, with where each other report was filed. */
export async function lookalikesOf(db: Trx, reportIds: readonly number[]) {
  if (reportIds.length === 0) return [];
  return db
    .selectFrom('report_lookalikes as l')
    .innerJoin('match_reports as mr', 'mr.id', 'l.other_report_id')
    .innerJoin('registrations as r', 'r.id', 'mr.registration_id')
    .leftJoin('stage_groups as g', 'g.id', 'mr.group_id')
    .select(['l.report_id', 'mr.id', 'mr.tournament_id', 'mr.day', 'mr.match_no', 'mr.created_at', 'r.team_name', 'g.name as group_name'])
    .where('l.report_id', 'in', reportIds)
    .orderBy('mr.id')
    .execute();
}

// --- Comparisons still to run (decision 077) ---

/** A report whose screenshot is still to compare: what the comparison needs. */
export async function uncheckedReport(db: Trx, reportId: number) {
  return db
    .selectFrom('match_reports as mr')
    .innerJoin('screenshots as s', 's.id', 'mr.screenshot_id')
    .select(['mr.id', 'mr.tournament_id', 'mr.group_id', 'mr.day', 'mr.match_no', 'mr.registration_id', 'mr.screenshot_id', 's.hash'])
    .where('mr.id', '=', reportId)
    .where('mr.screenshot_checked_at', 'is', null)
    .executeTakeFirst();
}

/** Reports whose comparison is overdue (sent before `before` and still unchecked): what a stopped process left. */
export async function overdueChecks(db: Trx, before: string, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('match_reports')
    .select('id')
    .where('screenshot_checked_at', 'is', null)
    .where('updated_at', '<', before)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => Number(r.id));
}

/** Marks a report's screenshot compared, unless another screenshot has replaced it since (that one is compared in its turn). */
export async function markChecked(trx: Trx, reportId: number, screenshotId: string, at: string): Promise<boolean> {
  const result = await trx
    .updateTable('match_reports')
    .set({ screenshot_checked_at: at })
    .where('id', '=', reportId)
    .where('screenshot_id', '=', screenshotId)
    .where('screenshot_checked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
