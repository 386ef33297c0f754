import { getEnv } from '~/utils/env.server';
import { formatShortDate } from '~/utils/format';
import { entryFeeLabel } from '~/utils/tournament';

/**
 * The origin absolute og:url and og:image start with (issue 20, decision 049): PUBLIC_URL when it is set,
 * so a page kept by the page cache or a CDN never carries an address a request's Host header chose;
 * unset, the request's own origin (Host, or a trusted proxy's X-Forwarded-Host/-Proto, decision 020).
 */
export function publicOrigin(request: Request): string {
  return getEnv().PUBLIC_URL ?? new URL(request.url).origin;
}

interface TournamentFacts {
  game: string;
  entryFee: number;
  prizePool?: string | null;
  startDate: string;
  endDate: string;
}

/** "BGMI · Entry ₹100 · Prize pool ₹10,000 · 5 Mar 2026 to 7 Mar 2026": what a link preview says of a tournament. */
export function tournamentFacts(t: TournamentFacts, timeZone = getEnv().APP_TIME_ZONE): string[] {
  const starts = formatShortDate(t.startDate, timeZone);
  const ends = formatShortDate(t.endDate, timeZone);
  return [
    t.game,
    t.entryFee > 0 ? `Entry ${entryFeeLabel(t.entryFee)}` : 'Free entry',
    t.prizePool ? `Prize pool ${t.prizePool}` : '',
    starts && ends && starts !== ends ? `${starts} to ${ends}` : starts,
  ].filter(Boolean);
}
