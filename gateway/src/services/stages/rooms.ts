import type { Match, StageRooms } from '@custom-room/contract';
import { bumpGeneration } from '../../db/generation.js';
import { enqueueRoomPosted } from '../../db/notify-events.js';
import { matchRowsById, setMatchRoom, stageMatchIds } from '../../db/stage-matches.js';
import { isoAt } from '../../lib/clock.js';
import { badRequest } from '../../lib/errors.js';
import { stageMatches } from './json.js';
import { type StageDeps, writeStage } from './stage.js';

/** Posting the rooms (room id and password) of a stage's group matches. */
export function setStageRooms(deps: StageDeps, tid: number, stageId: number, { rooms }: StageRooms): Promise<Match[]> {
  return writeStage(deps, tid, stageId, async ({ trx, stage }) => {
    const ids = rooms.map((r) => r.id);
    const own = await stageMatchIds(trx, stage.id, ids);
    const errors: Record<string, string> = {};
    for (const [i, r] of rooms.entries()) if (!own.has(r.id)) errors[`rooms.${i}.id`] = `Match ${r.id} is not a match of ${stage.name}.`;
    if (Object.keys(errors).length > 0) throw badRequest(Object.values(errors)[0], errors);
    const now = deps.clock.now();
    let changed = false;
    const before = await matchRowsById(trx, ids);
    for (const r of rooms) {
      const updated = await setMatchRoom(trx, r.id, r, isoAt(now));
      changed ||= updated;
      // Issue 19: each group whose room is new or changed hears of it (only once its stage is published).
      const old = before.get(r.id);
      if (old && updated) await enqueueRoomPosted(trx, { ...old, room_id: r.matchId, room_password: r.password }, old, now);
    }
    if (changed) await bumpGeneration(trx, tid);
    return stageMatches(trx, stage.id);
  });
}
