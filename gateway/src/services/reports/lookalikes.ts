import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/index.js';
import { lookalikeCandidates, markChecked, overdueChecks, replaceLookalikes, uncheckedReport } from '../../db/screenshots.js';
import { isoAt, type Clock } from '../../lib/clock.js';
import { hashDistanceWithin, SAME_SCREENSHOT_DISTANCE } from '../../lib/screenshots.js';

/** One comparison takes a few milliseconds of JavaScript: let other requests in between. */
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Under constant load a comparison still runs at least this often (a lobby's 24 in a few seconds). */
export const QUIET_CAP_MS = 100;

export interface CheckDeps {
  store: DatabaseHandle;
  clock: Clock;
  /** Resolves at a quiet moment (no request being answered, or after capMs): comparisons yield to answers. */
  quiet?: (capMs: number) => Promise<void>;
}

/**
 * Compares a report's screenshot with the reports it could have been taken from (decision 071: its match's
 * other reports; the reports of teams sharing a player, in any tournament) by decision 072's distance,
 * keeps the look-alikes both ways (replacing what the report had) and marks the report checked, in one
 * transaction, unless the report has another screenshot by then (that one is compared in its turn). The
 * same bytes are the same at once. Answers the look-alikes found, or null when there was nothing to do.
 */
export async function checkScreenshot(deps: CheckDeps, reportId: number): Promise<number | null> {
  const db = deps.store.db;
  const report = await uncheckedReport(db, reportId);
  if (!report) return null;
  const key = {
    tournamentId: Number(report.tournament_id),
    groupId: Number(report.group_id),
    day: Number(report.day),
    match: Number(report.match_no),
  };
  const candidates = await lookalikeCandidates(db, key, Number(report.registration_id), reportId);
  const found: { reportId: number; distance: number }[] = [];
  for (const c of candidates) {
    if (c.screenshot_id === report.screenshot_id) {
      found.push({ reportId: Number(c.id), distance: 0 });
      continue;
    }
    await (deps.quiet ? deps.quiet(QUIET_CAP_MS) : yieldToOthers());
    const distance = hashDistanceWithin(report.hash, c.hash, SAME_SCREENSHOT_DISTANCE);
    if (distance <= SAME_SCREENSHOT_DISTANCE) found.push({ reportId: Number(c.id), distance });
  }
  const stamp = isoAt(deps.clock.now());
  const kept = await deps.store.writeTransaction(async (trx) => {
    if (!(await markChecked(trx, reportId, report.screenshot_id, stamp))) return false;
    await replaceLookalikes(trx, reportId, found);
    return true;
  });
  return kept ? found.length : null;
}

/**
 * Decision 077: the comparisons run after the report is answered, one at a time per process (each is up to
 * 200 alignments of a few milliseconds: a lobby's 25 captains sending at once must not wait for 300 of
 * them). What a stopped process leaves unchecked, the notification worker runs (checkOverdueScreenshots).
 */
let queued: Promise<void> = Promise.resolve();

export function checkScreenshotSoon(deps: CheckDeps, reportId: number, log?: FastifyBaseLogger): Promise<void> {
  queued = queued
    .then(() => checkScreenshot(deps, reportId))
    .then(
      () => undefined,
      // Left unchecked: the worker's sweep takes it up again.
      (err: unknown) => log?.error({ err, reportId }, 'screenshot comparison failed'),
    );
  return queued; // never rejects: a closing app waits for it (app.afterAnswer)
}

/** A report still unchecked this long after it was sent was left by a process that stopped. */
export const OVERDUE_CHECK_MS = 2 * 60_000;
const OVERDUE_BATCH = 50;

/** The worker's sweep: runs the comparisons left overdue. Answers how many reports were checked. */
export async function checkOverdueScreenshots(deps: CheckDeps, now: number): Promise<number> {
  let checked = 0;
  for (const id of await overdueChecks(deps.store.db, isoAt(now - OVERDUE_CHECK_MS), OVERDUE_BATCH)) {
    if ((await checkScreenshot(deps, id)) !== null) checked += 1;
  }
  return checked;
}
