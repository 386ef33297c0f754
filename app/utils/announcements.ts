import type { Announcement } from '@custom-room/contract';
import { formatDateTime } from './format';

/** Issue 29: an announcement as the pages show it (server side: the time in the site's zone). */
export interface AnnouncementView {
  id: number;
  body: string;
  when: string;
  at: string;
  audience: string;
  author: string;
}

export function announcementView(a: Announcement, timeZone: string): AnnouncementView {
  return { id: a.id, body: a.body, when: formatDateTime(a.at, timeZone), at: a.at, audience: a.audience, author: a.author };
}

/**
 * Which announcements a page lists (decision 070): the tournament's page those to everyone and to a
 * stage; a group's page those to the group, to its stage and to everyone. A group's message is on its
 * own page only, as it reached only that group's teams.
 */
export function forTournamentPage(items: readonly Announcement[]): Announcement[] {
  return items.filter((a) => a.groupId === null);
}

export function forGroupPage(items: readonly Announcement[], stageId: number, groupId: number): Announcement[] {
  return items.filter((a) => a.groupId === groupId || (a.groupId === null && (a.stageId === null || a.stageId === stageId)));
}
