import { PHASE_WORDS, tournamentPhase, type PhaseFacts, type TournamentPhase } from '@custom-room/contract/constants';
import { formatRupees } from './format';

/** Small rules about tournaments shared by the public screens (pure: safe in the browser bundle). */

/**
 * Where a tournament stands now: the contract's one rule (decision 051) over the gateway's facts, recomputed at
 * render time so a page kept for a while never shows a phase its dates have left behind.
 */
export const phaseOf = (t: PhaseFacts, now = Date.now()): TournamentPhase => tournamentPhase(t, now);

/**
 * The phase of a summary that lacks some dates (a registration's tournament, the admin list): the gateway's
 * derived phase when it sent one, else the rule over what there is.
 */
export function summaryPhase(
  t: {
    status: string;
    phase?: TournamentPhase;
    startDate?: string;
    endDate?: string;
    registrationOpen?: string;
    registrationClose?: string;
  },
  now = Date.now(),
): TournamentPhase {
  return (
    t.phase ??
    phaseOf(
      {
        status: t.status,
        startDate: t.startDate ?? '',
        endDate: t.endDate ?? '',
        registrationOpen: t.registrationOpen ?? '',
        registrationClose: t.registrationClose ?? '',
      },
      now,
    )
  );
}

/** Players may register only while the phase is "registration open" (the gateway refuses otherwise). */
export const canRegister = (t: PhaseFacts, now = Date.now()) => phaseOf(t, now) === 'registration-open';

/** The phase in the product's words ("In progress", "Completed"…). */
export const phaseWords = (phase: TournamentPhase) => PHASE_WORDS[phase];

export type StatusTone = 'open' | 'soon' | 'live' | 'closed' | 'done' | 'off';

/** A colour family for a phase's badge. */
export function statusTone(phase: TournamentPhase): StatusTone {
  switch (phase) {
    case 'registration-open':
      return 'open';
    case 'upcoming':
      return 'soon';
    case 'in-progress':
      return 'live';
    case 'registration-closed':
      return 'closed';
    case 'completed':
      return 'done';
    default:
      return 'off';
  }
}

/** A tournament id from the URL: a positive whole number (no signs, no exponents), else null. */
export function parseTournamentId(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 ? id : null;
}

/** The phase filter of the public list (?show=): one group of phases each, in the list's order. */
export const LIST_FILTERS = [
  { key: 'open', label: 'Open', phases: ['registration-open'] },
  { key: 'upcoming', label: 'Upcoming', phases: ['upcoming', 'registration-closed'] },
  { key: 'ongoing', label: 'Ongoing', phases: ['in-progress'] },
  { key: 'completed', label: 'Completed', phases: ['completed'] },
] as const satisfies readonly { key: string; label: string; phases: readonly TournamentPhase[] }[];
export type ListFilter = (typeof LIST_FILTERS)[number]['key'];

/** A ?show= value as a filter, or null (everything) for none or one we do not know. */
export function listFilterOf(raw: string | null | undefined): ListFilter | null {
  return LIST_FILTERS.find((f) => f.key === raw)?.key ?? null;
}

/** Where a phase sits in the public lists: open first, then upcoming (or closed before the start), in progress, completed, cancelled. */
function listRank(phase: TournamentPhase): number {
  const group = LIST_FILTERS.findIndex((f) => (f.phases as readonly TournamentPhase[]).includes(phase));
  return group >= 0 ? group : LIST_FILTERS.length;
}

/**
 * The public lists' order (home carousel, /tournaments): by listRank, the gateway's order (soonest
 * start first) kept within a rank. With a filter, only that group's tournaments.
 */
export function listOrder<T extends PhaseFacts>(tournaments: T[], filter: ListFilter | null = null, now = Date.now()): T[] {
  const phases: readonly TournamentPhase[] | null = filter ? LIST_FILTERS.find((f) => f.key === filter)!.phases : null;
  return tournaments
    .map((t, i) => ({ t, i, phase: phaseOf(t, now) }))
    .filter(({ phase }) => !phases || phases.includes(phase))
    .map((x) => ({ ...x, rank: listRank(x.phase) }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map(({ t }) => t);
}

/**
 * Where registration stands, in words, for a tournament that is not open (cards and the detail page show
 * this instead of a Register button). `opens`: the registration opening, already formatted, or ''.
 */
export function registrationStateWords(phase: TournamentPhase, opens = ''): string {
  switch (phase) {
    case 'registration-open':
      return 'Registration open';
    case 'upcoming':
      return opens ? `Registration opens ${opens}` : 'Registration opens soon';
    case 'registration-closed':
      return 'Registration closed';
    case 'in-progress':
      return 'Registration closed: matches under way';
    case 'completed':
      return 'Completed: see the final points';
    case 'cancelled':
      return 'Cancelled';
  }
}

/** "Free" for a zero fee, else rupees with Indian grouping (₹1,00,000). */
export function entryFeeLabel(fee: number): string {
  return fee === 0 ? 'Free' : formatRupees(fee);
}
