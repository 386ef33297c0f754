import { GROUP_NOT_FOUND, phaseChangesAt, type TournamentPhase } from '@custom-room/contract';
import type { Trx } from '../../db/index.js';
import { getTournamentTeams } from '../../db/results.js';
import { findGroup, groupMembers } from '../../db/stages.js';
import { phaseOf, type TournamentRow } from '../../db/tournaments.js';
import { notFound } from '../../lib/errors.js';
import { LINK_CARD, type TableCard } from '../../lib/share-image.js';
import type { Described } from './cache.js';
import { cardTournament, LINK_SCALE, SITE_NAME, type CardContext } from './card-context.js';

/** ₹1,00,000 (Indian grouping, whole rupees), as the web app writes fees. */
const rupees = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 0 });

/** "5 Mar 2026" in the app's time zone, as the web app's formatShortDate. */
function shortDate(iso: string | null | undefined, timeZone: string): string {
  const d = iso ? new Date(iso) : null;
  if (!d || Number.isNaN(d.getTime())) return '';
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone }).format(d).replace('Sept', 'Sep');
}

/** The tournament's phase (decision 051) in the web app's words (registrationStateWords, without the opening time). */
const CARD_PHASE_WORDS: Record<TournamentPhase, string> = {
  upcoming: 'Registration opens soon',
  'registration-open': 'Registration open',
  'registration-closed': 'Registration closed',
  'in-progress': 'In progress',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

/**
 * The link card's label/value rows: fee, prize pool, dates, the phase at `now` and who organises it
 * (issue 29, decision 068: the ETag is the drawing's hash, so a renamed organiser is a new image);
 * empty values left out.
 */
function tournamentFacts(t: TournamentRow, timeZone: string, now: number): [string, string][] {
  const fee = Number(t.entry_fee);
  const starts = shortDate(t.start_date, timeZone);
  const ends = shortDate(t.end_date, timeZone);
  const facts: [string, string][] = [
    ['Entry fee', fee > 0 ? rupees.format(fee) : 'Free'],
    ['Prize pool', t.prize_pool ?? ''],
    ['Dates', starts && ends && starts !== ends ? `${starts} to ${ends}` : starts],
    ['Status', CARD_PHASE_WORDS[phaseOf(t, now)]],
    ['Organised by', t.organiser_name ?? ''],
  ];
  return facts.filter(([, value]) => value);
}

/** A tournament's link card (issue 20), stale when its phase next changes. now: the injected clock's time (ms). */
export async function tournamentCard(db: Trx, context: CardContext, tid: number, now: number): Promise<Described> {
  const t = await cardTournament(db, tid);
  const card: TableCard = {
    site: SITE_NAME,
    title: t.name,
    subtitle: t.game,
    header: false,
    columns: [
      { label: '', align: 'start', width: 300 },
      { label: '', align: 'start', width: 'fill', bold: true },
    ],
    rows: tournamentFacts(t, context.timeZone, now).map(([label, value]) => ({ cells: [label, value] })),
    url: `${context.webUrl}/tournaments/${tid}`,
    more: () => '',
    empty: '',
    scale: LINK_SCALE,
  };
  const edges = phaseChangesAt(
    {
      status: t.status,
      registrationOpen: t.registration_open,
      registrationClose: t.registration_close,
      startDate: t.start_date,
      endDate: t.end_date,
    },
    now,
  );
  return { card, filename: `tournament-card-${tid}.png`, size: LINK_CARD, ...(edges === null ? {} : { until: edges }) };
}

/** A published group's slot list: its teams by slot. A draft stage's groups are the organiser's work in progress (decision 041). */
export async function slotListCard(db: Trx, context: CardContext, tid: number, groupId: number): Promise<Described> {
  const t = await cardTournament(db, tid);
  const group = await findGroup(db, tid, groupId);
  if (!group || group.stage.state === 'draft') throw notFound(GROUP_NOT_FOUND);
  const members = [...(await groupMembers(db, group.id))].sort(([, a], [, b]) => a - b);
  const names = await getTournamentTeams(
    db,
    tid,
    members.map(([rid]) => rid),
  );
  const card: TableCard = {
    site: SITE_NAME,
    title: t.name,
    subtitle: [t.game, group.stage.name, `Group ${group.name}`, 'Slot list'].join(' · '),
    columns: [
      { label: 'Slot', align: 'center', width: 110 },
      { label: 'Team', align: 'start', width: 'fill' },
      { label: 'Group', align: 'center', width: 150 },
    ],
    rows: members.map(([rid, slot]) => ({ cells: [String(slot), names.get(rid) ?? '', group.name] })),
    url: `${context.webUrl}/tournaments/${tid}/stages/${group.stageId}/groups/${group.id}`,
    more: (hidden) => `and ${hidden} more ${hidden === 1 ? 'slot' : 'slots'}: see the full list at the address below`,
    empty: 'No teams in this group yet.',
  };
  return { card, filename: `slot-list-${tid}-group-${group.id}.png` };
}
