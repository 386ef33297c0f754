// --- Where a tournament stands, derived from its facts (issue 27 item 3, decision 051) ---
import { REGISTRATION_OPEN_STATUS } from './tournaments.js';

/**
 * What every page, card, image and API answer shows about a tournament's state. The stored `status` stays the
 * organiser's free text (the spec's); this is derived from it and from the facts: dates, stages.
 */
export const TOURNAMENT_PHASES = ['upcoming', 'registration-open', 'registration-closed', 'in-progress', 'completed', 'cancelled'] as const;
export type TournamentPhase = (typeof TOURNAMENT_PHASES)[number];

export const PHASE_WORDS: Record<TournamentPhase, string> = {
  upcoming: 'Upcoming',
  'registration-open': 'Registration open',
  'registration-closed': 'Registration closed',
  'in-progress': 'In progress',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

/** The stages' part of the facts: how many, whether any is published (or completed), whether the last is completed. */
export interface StageProgress {
  stages: number;
  started: boolean;
  finished: boolean;
}

export const NO_STAGES: StageProgress = { stages: 0, started: false, finished: false };

export interface PhaseFacts {
  status: string;
  registrationOpen: string;
  registrationClose: string;
  startDate: string;
  endDate: string;
  /** Left out: no stages (an answer of an older gateway reads the same). */
  stageProgress?: StageProgress;
}

const at = (iso: string) => {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
};

/**
 * The one rule (decision 051), first match wins:
 * 1. status Cancelled: cancelled (the organiser's word always).
 * 2. With stages: the last stage completed: completed; a stage published: in progress. Registration and the
 *    waitlist close when the first stage is published, whatever the status says.
 * 3. status Completed, or (no stages) the end date passed: completed.
 * 4. status Ongoing, or (no stages) the start passed: in progress.
 * 5. status Registration Ongoing between registrationOpen and registrationClose: registration open. A full
 *    tournament stays open: its waitlist takes teams (decision 043).
 * 6. Before registrationOpen, or status Upcoming while registration would be open: upcoming.
 * 7. Anything else: registration closed.
 */
export function tournamentPhase(t: PhaseFacts, nowMs: number): TournamentPhase {
  if (t.status === 'Cancelled') return 'cancelled';
  const progress = t.stageProgress ?? NO_STAGES;
  if (progress.stages > 0) {
    if (progress.finished) return 'completed';
    if (progress.started) return 'in-progress';
  }
  const noStages = progress.stages === 0;
  const [opens, closes, starts, ends] = [at(t.registrationOpen), at(t.registrationClose), at(t.startDate), at(t.endDate)];
  if (t.status === 'Completed' || (noStages && ends !== undefined && nowMs >= ends)) return 'completed';
  if (t.status === 'Ongoing' || (noStages && starts !== undefined && nowMs >= starts)) return 'in-progress';
  const inWindow = opens !== undefined && closes !== undefined && nowMs >= opens && nowMs <= closes;
  if (t.status === REGISTRATION_OPEN_STATUS && inWindow) return 'registration-open';
  if ((opens !== undefined && nowMs < opens) || (t.status === 'Upcoming' && inWindow)) return 'upcoming';
  return 'registration-closed';
}

/** The next instant after nowMs at which the phase may change by time alone (a cache keeps it no longer), or null. */
export function phaseChangesAt(t: PhaseFacts, nowMs: number): number | null {
  const edges = [at(t.registrationOpen), closeEdge(t.registrationClose), at(t.startDate), at(t.endDate)];
  const later = edges.filter((ms): ms is number => ms !== undefined && ms > nowMs);
  return later.length > 0 ? Math.min(...later) : null;
}

/** Registration is open up to and including its closing instant: the phase changes just after it. */
function closeEdge(iso: string) {
  const ms = at(iso);
  return ms === undefined ? undefined : ms + 1;
}

/** Players may register (or join the waitlist) only while registration is open. */
export const phaseTakesTeams = (phase: TournamentPhase) => phase === 'registration-open';

/** A Completed or Cancelled tournament asks nobody to pay: no payment request, page or reminder (issue 27 item 2). */
export const phaseTakesPayments = (phase: TournamentPhase) => phase !== 'completed' && phase !== 'cancelled';

/** Why a tournament takes no payment (the payment page and the gateway's refusal say the same). */
export const paymentsClosedMessage = (phase: TournamentPhase) =>
  phase === 'cancelled'
    ? 'This tournament is cancelled: no entry fee is taken. Contact the organiser about a refund.'
    : 'This tournament is completed: no entry fee is taken any more.';
