import { Link } from '@remix-run/react';

/** What both schedules (by day, by stage) show: the time zone, why there are no rooms, the headings. */

/** "Day 1 · Sat 12 Dec" (the date left out when it cannot be known). */
export const dayTitle = (day: number, dates: Record<number, string>) => (dates[day] ? `Day ${day} · ${dates[day]}` : `Day ${day}`);
/** "Day 1 · Match 2 · Sat 12 Dec", where no "Day 1" heading stands above the match. */
export const matchTitle = (m: { day: number; matchNo: number }, dates: Record<number, string>) =>
  `Day ${m.day} · Match ${m.matchNo}${dates[m.day] ? ` · ${dates[m.day]}` : ''}`;

/** The time zone of every time shown, and, for a visitor without a team, how to get the room details. */
export function ScheduleIntro({ zone, tid, roomsShown }: { zone: { short: string; long: string }; tid: number; roomsShown: boolean }) {
  return (
    <>
      <p className="fine">
        Times are {zone.long} ({zone.short}).
      </p>
      {roomsShown ? null : (
        <p className="notice">
          Room IDs and passwords are only for registered teams. <Link to={`/tournaments/${tid}`}>Register your team</Link> to get them here
          before each match.
        </p>
      )}
    </>
  );
}
