import { matchStartsAt, REPORT_REMINDER_MINUTES } from '@custom-room/contract';
import { takenDedupeKeys } from '../../db/deliveries.js';
import type { DatabaseHandle } from '../../db/index.js';
import { confirmedTeams } from '../../db/notify-events.js';
import { enqueueEvent } from '../../db/outbox.js';
import { reminderCandidates, reportedTeams } from '../../db/reports.js';
import { groupMembers } from '../../db/stages.js';
import { isoAt } from '../../lib/clock.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** A match this long past its reminder is not reminded any more (a worker that was down does not wake teams hours later). */
const TOO_LATE = 3 * 60 * MINUTE;

/**
 * Issue 30 (decision 071): a reminder to each team of a group-match that has not reported it, once,
 * REPORT_REMINDER_MINUTES after the match's expected end (its start plus the stage's match length),
 * while reporting is open. Answers how many matches were reminded.
 */
export async function enqueueReportReminders(store: DatabaseHandle, now: number, timeZone: string): Promise<number> {
  const candidates = await reminderCandidates(store.db, isoAt(now - 8 * DAY), isoAt(now + DAY));
  const due = candidates.filter((m) => {
    if (Number(m.group_id) !== 0 && m.stage_state !== 'published') return false;
    const start = matchStartsAt(m.start_date, Number(m.day), m.time, timeZone);
    if (start === null) return false;
    const at = start + (Number(m.stage_match_minutes ?? m.match_minutes) + REPORT_REMINDER_MINUTES) * MINUTE;
    return now >= at && now < at + TOO_LATE;
  });
  if (due.length === 0) return 0;
  const keyOf = (id: number) => `report-reminder:${id}`;
  const taken = await takenDedupeKeys(
    store.db,
    due.map((m) => keyOf(Number(m.id))),
  );
  let count = 0;
  for (const m of due.filter((d) => !taken.has(keyOf(Number(d.id))))) {
    const tid = Number(m.tournament_id);
    const key = { tournamentId: tid, groupId: Number(m.group_id), day: Number(m.day), match: Number(m.match_no) };
    const added = await store.writeTransaction(async (trx) => {
      const lobby =
        key.groupId === 0 ? await confirmedTeams(trx, tid, Number(m.entry_fee)) : [...(await groupMembers(trx, key.groupId)).keys()];
      const reported = await reportedTeams(trx, key);
      const late = lobby.filter((id) => !reported.has(id));
      if (late.length === 0) return false;
      return enqueueEvent(
        trx,
        {
          kind: 'report-reminder',
          tournamentId: tid,
          audience: { registrations: late },
          data: {
            day: key.day,
            matchNo: key.match,
            ...(key.groupId ? { groupId: key.groupId } : {}),
            ...(m.group_name ? { groupName: m.group_name } : {}),
          },
          dedupeKey: keyOf(Number(m.id)),
        },
        now,
      );
    });
    if (added) count += 1;
  }
  return count;
}
