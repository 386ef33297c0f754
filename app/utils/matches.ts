import { timeZoneName } from '@custom-room/contract/constants';
import { formatMatchTime } from './format';

/** The match schedule: grouping by day and the WhatsApp text for the squad. Pure: safe in the browser bundle. */

export interface ScheduleMatch {
  id: number;
  day: number;
  matchNo: number;
  map: string;
  time: string;
  /** Room ID: null when this viewer may not see it, '' when the organiser has not set it yet. */
  matchId: string | null;
  password: string | null;
}

export interface ScheduleDay<M extends ScheduleMatch = ScheduleMatch> {
  day: number;
  matches: M[];
}

/** Days in order, each with its matches by match number (then time, for another gateway's duplicates). */
export function groupByDay<M extends ScheduleMatch>(matches: readonly M[]): ScheduleDay<M>[] {
  const sorted = [...matches].sort((a, b) => a.day - b.day || a.matchNo - b.matchNo || a.time.localeCompare(b.time));
  const days: ScheduleDay<M>[] = [];
  for (const m of sorted) {
    const last = days.at(-1);
    if (last && last.day === m.day) last.matches.push(m);
    else days.push({ day: m.day, matches: [m] });
  }
  return days;
}

/** The gateway fills room details (possibly '') only for registered teams and admins, null for others. */
export const seesRoomDetails = (matches: readonly ScheduleMatch[]) => matches.some((m) => m.matchId !== null || m.password !== null);

/** The organiser has set the room ID or the password (a viewer without rights gets neither). */
export const hasRoom = (m: ScheduleMatch) => Boolean(m.matchId || m.password);

/** Both are set: worth forwarding to the squad. */
export const canShareRoom = (m: ScheduleMatch) => Boolean(m.matchId && m.password);

/** The ready message a player forwards to the squad. */
export function roomShareText(tournamentName: string, m: ScheduleMatch, zoneLabel: string): string {
  const time = [formatMatchTime(m.time), zoneLabel].filter(Boolean).join(' ');
  return [
    `${tournamentName}`,
    `Day ${m.day} · Match ${m.matchNo} · ${m.map} · ${time}`,
    `Room ID: ${m.matchId ?? ''}`,
    `Password: ${m.password ?? ''}`,
  ].join('\n');
}

export const whatsAppShareUrl = (text: string) => `https://wa.me/?text=${encodeURIComponent(text)}`;

/** "IST" / "India Standard Time" for a zone now (the contract's): match times are wall-clock times in the organiser's zone. */
export { timeZoneName };
