import type { Report } from '@custom-room/contract';
import type { GroupMatchKey } from '../../db/reports.js';
import { lookalikeCandidates, replaceLookalikes } from '../../db/screenshots.js';
import { hashDistance, SAME_SCREENSHOT_DISTANCE } from '../../lib/screenshots.js';
import type { ServiceDeps } from '../deps.js';

/** One comparison takes a few milliseconds of JavaScript: let other requests in between. */
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Finds the reports whose screenshot looks the same as a newly sent one (decision 072's distance) among
 * the candidates of decision 071 (its match's other reports; the reports of teams sharing a player, in any
 * tournament), and keeps them both ways, replacing what the report had. The same bytes are the same at once.
 */
export async function findLookalikes(
  deps: ServiceDeps,
  key: GroupMatchKey,
  report: Report,
  shot: { id: string; hash: string },
): Promise<number> {
  const candidates = await lookalikeCandidates(deps.store.db, key, report.teamId, report.id);
  const found: { reportId: number; distance: number }[] = [];
  for (const c of candidates) {
    if (c.screenshot_id === shot.id) {
      found.push({ reportId: Number(c.id), distance: 0 });
      continue;
    }
    await yieldToOthers();
    const distance = hashDistance(shot.hash, c.hash);
    if (distance <= SAME_SCREENSHOT_DISTANCE) found.push({ reportId: Number(c.id), distance });
  }
  await deps.store.writeTransaction((trx) => replaceLookalikes(trx, report.id, found));
  return found.length;
}
