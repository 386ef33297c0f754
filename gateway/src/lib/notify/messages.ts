import {
  ordinal,
  RELEASE_REASON_WORDS,
  STAFF_ROLE_LABELS,
  type NotificationKind,
  type ReleaseReason,
  type StaffRoleName,
} from '@custom-room/contract';
import { rupeesText } from '../rupees.js';

/** One account an event reaches, with what its line needs (decision 044). */
export interface Recipient {
  userId: number;
  teamName?: string;
  groupName?: string;
  slot?: number;
  /** Final standings (issue 27): the team's place in the last stage, of how many teams. */
  rank?: number;
  of?: number;
}

export interface Message {
  title: string;
  body: string;
  /** A path of the web app; emails and pushes make it absolute with WEB_URL. */
  link: string;
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** "26 Nov, 21:00" in the app's time zone, for an ISO instant (a promoted team's pay-by). */
function timeText(iso: string | undefined, timeZone: string): string | undefined {
  if (!iso || Number.isNaN(Date.parse(iso))) return undefined;
  return new Intl.DateTimeFormat('en-IN', {
    timeZone,
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  }).format(new Date(iso));
}

/** The team's report page of a match (issue 30): /team/{id}/reports/{day}/{match}, with its group when it has one. */
function reportLink(tournamentId: number, data: Record<string, unknown>): string {
  const day = num(data.day);
  const matchNo = num(data.matchNo);
  const group = num(data.groupId);
  if (!day || !matchNo) return `/team/${tournamentId}`;
  return `/team/${tournamentId}/reports/${day}/${matchNo}${group ? `?group=${group}` : ''}`;
}

/** "day 2 match 3 (Group B)". */
function matchWords(data: Record<string, unknown>, groupName?: string): string {
  const day = num(data.day);
  const matchNo = num(data.matchNo);
  const group = str(data.groupName) ?? groupName;
  const base = day && matchNo ? `day ${day} match ${matchNo}` : 'your next match';
  // "Group A", never a bare "(A)" (issue 27).
  return group ? `${base} (Group ${group})` : base;
}

/**
 * The words of a notification, the same on the list, in the email and in the push. Never a room ID or
 * password: room events only point to the room card (issue 19). data is the event's JSON; unknown fields
 * are ignored and missing ones leave their words out, so events written by other parts still read well.
 */
export function renderMessage(
  kind: NotificationKind,
  data: Record<string, unknown>,
  tournament: { id: number; name: string },
  to: Recipient,
  timeZone = 'Asia/Kolkata',
): Message {
  // One line each, whatever a name stored before the single-line rule holds (issue 27): a line break in a
  // name would start a line of its own in the mail's body.
  const m = words(kind, data, tournament, to, timeZone);
  return { ...m, title: oneLine(m.title), body: oneLine(m.body) };
}

const oneLine = (text: string) => text.replace(/\s*[\n\v\f\r\u0085\u2028\u2029]+\s*/gu, ' ');

function words(
  kind: NotificationKind,
  data: Record<string, unknown>,
  tournament: { id: number; name: string },
  to: Recipient,
  timeZone: string,
): Message {
  const t = tournament.name;
  const team = to.teamName ?? str(data.teamName) ?? 'Your team';
  const stage = str(data.stageName);
  const teamPage = `/team/${tournament.id}`;
  const rooms = `/tournament/${tournament.id}/matches`;
  switch (kind) {
    case 'payment-verified':
      return { title: 'Payment verified', body: `${team}: your payment for ${t} is verified. Your place is confirmed.`, link: teamPage };
    case 'refund-recorded':
    case 'prize-won':
    case 'prize-paid':
      return moneyWords(kind, data, t, team, teamPage);
    case 'payment-rejected':
      return {
        title: 'Payment not verified',
        body: `${team}: your payment for ${t} could not be verified. Check the UTR and pay again, or contact the organiser.`,
        link: teamPage,
      };
    case 'promoted': {
      const payBy = str(data.payByText) ?? timeText(str(data.payBy), timeZone);
      return {
        title: 'You have a place',
        body: `${team} is off the waitlist of ${t}.${payBy ? ` Pay by ${payBy} to keep the place.` : ''}`,
        link: teamPage,
      };
    }
    case 'released': {
      // Decision 043's reasons, in the words of the player's pages.
      const reason = str(data.reason);
      const why = reason && reason in RELEASE_REASON_WORDS ? RELEASE_REASON_WORDS[reason as ReleaseReason] : 'payment not verified in time';
      return { title: 'Place released', body: `${team}: your place in ${t} was released (${why}).`, link: teamPage };
    }
    case 'stage-published': {
      const group = to.groupName ?? str(data.groupName);
      const slot = to.slot ?? num(data.slot);
      const where = group ? `Group ${group}${slot ? `, slot ${slot}` : ''}` : 'its group';
      return {
        title: `${stage ?? 'Groups'}: your group and slot`,
        body: `${team} plays in ${where}${stage ? ` of ${stage}` : ''}, ${t}.`,
        link: rooms,
      };
    }
    case 'room-posted': {
      const changed = data.changed === true;
      return {
        title: changed ? 'Room details changed' : 'Room details are up',
        body: `${t}: the room for ${matchWords(data, to.groupName)} is ${changed ? 'changed' : 'up'}. Open the room card for the ID and password.`,
        link: rooms,
      };
    }
    case 'match-reminder': {
      const time = str(data.timeText);
      return {
        title: 'Match in 15 minutes',
        body: `${t}: ${matchWords(data, to.groupName)} starts${time ? ` at ${time}` : ' soon'}. The room details are on the room card.`,
        link: rooms,
      };
    }
    case 'qualified': {
      const next = str(data.nextStageName);
      return {
        title: `${team} qualified`,
        body: `${team} qualified from ${stage ?? 'the stage'} of ${t}${next ? ` for ${next}` : ''}.`,
        link: `/tournaments/${tournament.id}/stages`,
      };
    }
    case 'invited': {
      // Issue 27: a team the organiser put straight into a later stage.
      const checkIn = data.checkIn === true;
      return {
        title: `${team} is invited to ${stage ?? 'the next stage'}`,
        body: `${team} is invited to ${stage ?? 'the next stage'} of ${t}.${checkIn ? ' Check in for it in its check-in window to be drawn.' : ' Your group and slot follow when the groups are published.'}`,
        link: checkIn ? teamPage : `/tournaments/${tournament.id}/stages`,
      };
    }
    case 'seated': {
      // Decision 052: the organiser put the team in an empty slot after the draw.
      const group = str(data.groupName);
      const slot = num(data.slot);
      const where = group ? `Group ${group}${slot ? `, slot ${slot}` : ''}` : 'an empty slot';
      const payBy = timeText(str(data.payBy), timeZone);
      return {
        title: `${stage ?? 'Groups'}: your group and slot`,
        body: `${team} has a place in ${where}${stage ? ` of ${stage}` : ''}, ${t}.${payBy ? ` Pay by ${payBy} to play.` : ''}`,
        link: payBy ? teamPage : rooms,
      };
    }
    case 'final-standing':
      return finalStandingWords(data, tournament, to, team, stage);
    case 'eliminated':
      return {
        title: `${stage ?? 'The stage'} is over`,
        body: `${team} did not qualify from ${stage ?? 'the stage'} of ${t}. Thank you for playing.`,
        link: `/tournaments/${tournament.id}/stages`,
      };
    case 'report-filed':
    case 'report-reminder':
    case 'dispute-resolved':
      return reportWords(kind, data, tournament, to, team);
    case 'announcement': {
      // Issue 29: the crew's message, as written (one line; the schema caps it at 280 characters).
      const body = str(data.body);
      return {
        title: `${t}: announcement`,
        body: body ?? `News from the organisers of ${t}.`,
        link: `/tournaments/${tournament.id}#announcements`,
      };
    }
    case 'staff-invited': {
      // Issue 29: the link works only for the invited account (decision 065).
      const role = STAFF_ROLE_LABELS[data.role as StaffRoleName] ?? 'crew member';
      const by = str(data.by);
      const token = str(data.token);
      return {
        title: `Join the crew of ${t}`,
        body: `${by ? `${by} invites you` : 'You are invited'} to run ${t} as ${role.toLowerCase()}. Open the invitation to accept it.`,
        link: token ? `/staff-invitations/${encodeURIComponent(token)}` : '/desk',
      };
    }
  }
}

/** Issue 27: a team's final place (the last stage has no next one); decision 085: a prize asks where to be paid. */
function finalStandingWords(
  data: Record<string, unknown>,
  tournament: { id: number; name: string },
  to: Recipient,
  team: string,
  stage: string | undefined,
): Message {
  const t = tournament.name;
  // The last stage has no next one: nobody "qualifies" from it, every team has a final place.
  const rank = to.rank ?? num(data.rank);
  const of = to.of ?? num(data.of);
  const stageWords = stage ? ` in ${stage}` : '';
  // Decision 085: a rank with a prize asks the captain where to be paid, on the team page.
  const prize = rank ? prizeOf(data.prizes, rank) : undefined;
  const claim = prize ? ` Your prize is ${rupeesText(prize)}: give the UPI ID to be paid on your team page.` : '';
  const link = prize ? `/team/${tournament.id}` : `/tournaments/${tournament.id}`;
  if (rank === 1)
    return {
      title: `Champions of ${t}`,
      body: `${team} won ${t}: 1st${of ? ` of ${of}` : ''}${stageWords}. Congratulations!${claim}`,
      link,
    };
  if (!rank) return { title: `Final standings of ${t}`, body: `${t} is over: the final standings are up. Thank you for playing.`, link };
  const place = `${ordinal(rank)}${of ? ` of ${of}` : ''}`;
  return {
    title: `You finished ${place} in ${t}`,
    body: `${team} finished ${place}${stageWords} of ${t}. Thank you for playing.${claim}`,
    link,
  };
}

/** Issue 31: a refund recorded (decision 082), a prize to claim, a prize paid (decision 085). */
function moneyWords(
  kind: 'refund-recorded' | 'prize-won' | 'prize-paid',
  data: Record<string, unknown>,
  t: string,
  team: string,
  teamPage: string,
): Message {
  switch (kind) {
    case 'refund-recorded': {
      // Issue 31 (decision 082): the amount and the refund's UTR, as the team page shows them.
      const amount = typeof data.amountPaise === 'number' ? rupeesText(data.amountPaise) : 'Your entry fee';
      const utr = str(data.utr);
      return {
        title: 'Refund sent',
        body: `${team}: ${amount} for ${t} was refunded${utr ? ` (UTR ${utr})` : ''}.`,
        link: teamPage,
      };
    }
    case 'prize-won': {
      // Decision 085: the organiser asks the winners who have not said where to be paid.
      return {
        title: `${t}: claim your prize`,
        body: `${team} won a prize in ${t}. Give the UPI ID to be paid on your team page.`,
        link: teamPage,
      };
    }
    case 'prize-paid': {
      // Decision 085: what was sent, the TDS withheld, and the UTR, as the team page shows them.
      const net = num(data.netPaise);
      const tds = num(data.tdsPaise) ?? 0;
      const gross = num(data.grossPaise);
      const utr = str(data.utr);
      const amount = gross !== undefined ? rupeesText(gross) : 'Your prize';
      const taxWords = tds > 0 && net !== undefined ? `: ${rupeesText(net)} sent after ${rupeesText(tds)} TDS` : '';
      return {
        title: 'Prize paid',
        body: `${team}: ${amount} prize for ${t} was paid${taxWords}${utr ? ` (UTR ${utr})` : ''}.`,
        link: teamPage,
      };
    }
  }
}

/** Issue 30: a report filed by a member (to the captain), a report due, a dispute resolved. */
function reportWords(
  kind: 'report-filed' | 'report-reminder' | 'dispute-resolved',
  data: Record<string, unknown>,
  tournament: { id: number; name: string },
  to: Recipient,
  team: string,
): Message {
  const t = tournament.name;
  switch (kind) {
    case 'report-filed': {
      // Issue 30: another member reported the team's result; the captain is told, with who and what.
      const by = str(data.by);
      const position = num(data.position);
      return {
        title: `${team}: result reported`,
        body: `${by ?? 'A team member'} reported ${team}'s result for ${matchWords(data, to.groupName)} of ${t}${position ? `: ${ordinal(position)}` : ''}. You can change it until the staff confirm the lobby.`,
        link: reportLink(tournament.id, data),
      };
    }
    case 'report-reminder':
      return {
        title: 'Report your result',
        body: `${t}: ${team} has not reported its result for ${matchWords(data, to.groupName)}. Send your placement, finishes and a screenshot.`,
        link: reportLink(tournament.id, data),
      };
    case 'dispute-resolved': {
      const upheld = data.upheld === true;
      const reason = str(data.reason);
      return {
        title: upheld ? 'Dispute upheld' : 'Dispute dismissed',
        body: upheld
          ? `${t}: your dispute of ${matchWords(data, to.groupName)} was upheld and the result changed.${reason ? ` ${reason}` : ''}`
          : `${t}: your dispute of ${matchWords(data, to.groupName)} was dismissed: ${reason ?? 'the result stands'}.`,
        link: `/team/${tournament.id}/disputes`,
      };
    }
  }
}

/** The prize of a rank in a final-standing event's `prizes` ({rank: paise}), if any. */
function prizeOf(prizes: unknown, rank: number): number | undefined {
  if (!prizes || typeof prizes !== 'object') return undefined;
  return num((prizes as Record<string, unknown>)[String(rank)]);
}
