import { type MyPrize, ordinal, type Payouts, type PrizeWinner, TOURNAMENT_NOT_FOUND } from '@custom-room/contract';
import { bumpGeneration } from '../../db/generation.js';
import { enqueueEvent } from '../../db/outbox.js';
import { askPanOf, insertPayout, lastStageRanks, payeesOf, payoutsOf, placedTeams, replaceAwards, upsertPayee } from '../../db/payouts.js';
import { prizeRows } from '../../db/prizes.js';
import { findRegistrationsByIds, findUserRegistration } from '../../db/registrations.js';
import { teamStandings } from '../../db/results.js';
import { getTournament, phaseOf, type TournamentRow } from '../../db/tournaments.js';
import type { Trx } from '../../db/types.js';
import { isoAt } from '../../lib/clock.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { rankStandings } from '../../lib/ranking.js';
import { rupeesText } from '../../lib/rupees.js';
import type { ServiceDeps } from '../deps.js';
import { lockLiveTournamentOr404 } from '../live-tournament.js';

/**
 * Decision 085: prize payouts. Once the final standings are in (the last stage completed; a tournament
 * without stages completed, ranked by its overall table), each team whose final rank has a prize, and each
 * team named for a special prize, is a winner. Its captain gives the UPI ID to be paid (and the PAN when the
 * organiser asks for it); the organiser pays outside the site and records the payout once, with its UTR and
 * the TDS withheld (amounts only: the site makes no tax decision). The team is told and sees it.
 */

export const NOT_FINAL = 'The final standings are not in yet: prizes are paid once the last stage (or the tournament) is completed.';
export const NO_PRIZE = 'This team won no prize in this tournament.';
export const PRIZE_PAID = "This team's prize is already paid: its payout is recorded.";
export const NO_PAYEE = "The team's captain has not given the UPI ID to be paid yet. Ask the winners from this page.";
export const PAN_NEEDED = 'Enter the PAN of the person to be paid: the organiser asks for it.';
const TEAM_NOT_FOUND = 'Team not found in this tournament.';

type Db = ServiceDeps['store']['db'] | Trx;

interface Team {
  registrationId: number;
  teamName: string;
  rank: number | null;
}

/** The final standings (when in) and every placed team, ranked ones first. */
async function standingsOf(db: Db, row: TournamentRow, now: number): Promise<{ final: boolean; teams: Team[] }> {
  const tournamentId = Number(row.id);
  const phase = phaseOf(row, now);
  const placed = await placedTeams(db, tournamentId);
  let ranked: { registrationId: number; rank: number }[] = [];
  let final = false;
  if (phase === 'completed') {
    if (Number(row.stage_count ?? 0) > 0) {
      const last = await lastStageRanks(db, tournamentId);
      final = last !== null;
      ranked = last ?? [];
    } else {
      final = true;
      const placedIds = new Set(placed.map((t) => t.registrationId));
      ranked = rankStandings(await teamStandings(db, tournamentId))
        .filter((r) => placedIds.has(r.teamId))
        .map((r) => ({ registrationId: r.teamId, rank: r.rank }));
    }
  }
  const rankOf = new Map(ranked.map((r) => [r.registrationId, r.rank]));
  const teams = placed
    .map((t) => ({ ...t, rank: rankOf.get(t.registrationId) ?? null }))
    .sort((a, b) => (a.rank ?? Infinity) - (b.rank ?? Infinity) || a.teamName.localeCompare(b.teamName));
  return { final, teams };
}

interface Ledger {
  final: boolean;
  askPan: boolean;
  teams: Team[];
  specials: { label: string; amountPaise: number; registrationId: number | null }[];
  winners: PrizeWinner[];
}

/**
 * Everything a payout needs, read at once (inside a write transaction when given one). `tournament`: its row when
 * the caller has read it already. `winnersOnly`: the caller wants the winners, not the team list, so a tournament
 * without a prize table (most of them) is not ranked at all (the team page asks on every view once it is over).
 */
async function ledgerOf(
  db: Db,
  tournamentId: number,
  now: number,
  { tournament, winnersOnly = false }: { tournament?: TournamentRow; winnersOnly?: boolean } = {},
): Promise<Ledger> {
  const row = tournament ?? (await getTournament(db, tournamentId));
  if (!row) throw notFound(TOURNAMENT_NOT_FOUND);
  const [table, askPan, payees, payouts] = await Promise.all([
    prizeRows(db, tournamentId),
    askPanOf(db, tournamentId),
    payeesOf(db, tournamentId),
    payoutsOf(db, tournamentId),
  ]);
  const { final, teams } = winnersOnly && table.length === 0 ? { final: false, teams: [] } : await standingsOf(db, row, now);
  const byRank = new Map(table.filter((p) => p.rank !== null).map((p) => [p.rank!, p.amountPaise]));
  const specials = table
    .filter((p) => p.rank === null)
    .map((p) => ({ label: p.label, amountPaise: p.amountPaise, registrationId: p.awardedTo }));
  const winners: PrizeWinner[] = [];
  if (final) {
    for (const team of teams) {
      const prizes = [];
      if (team.rank !== null && byRank.has(team.rank))
        prizes.push({ label: `${ordinal(team.rank)} place`, amountPaise: byRank.get(team.rank)! });
      for (const s of specials) if (s.registrationId === team.registrationId) prizes.push({ label: s.label, amountPaise: s.amountPaise });
      if (prizes.length === 0) continue;
      const payee = payees.get(team.registrationId);
      winners.push({
        registrationId: team.registrationId,
        teamName: team.teamName,
        rank: team.rank !== null && byRank.has(team.rank) ? team.rank : null,
        prizes,
        owedPaise: prizes.reduce((sum, p) => sum + p.amountPaise, 0),
        payee: payee ? { upiId: payee.upiId, pan: payee.pan, at: payee.at } : null,
        payout: payouts.get(team.registrationId) ?? null,
      });
    }
  }
  return { final, askPan, teams, specials, winners };
}

const answer = (l: Ledger): Payouts => ({ final: l.final, askPan: l.askPan, winners: l.winners, specials: l.specials, teams: l.teams });

export async function listPayouts(deps: ServiceDeps, tournamentId: number): Promise<Payouts> {
  return answer(await ledgerOf(deps.store.db, tournamentId, deps.clock.now()));
}

/** Names each special prize's winner; a paid team's prizes stay as they were. */
export async function awardPrizes(
  deps: ServiceDeps,
  tournamentId: number,
  body: { awards: { label: string; registrationId: number | null }[] },
): Promise<Payouts> {
  const { store, clock } = deps;
  await store.writeTransaction(async (trx) => {
    await lockLiveTournamentOr404(store, trx, tournamentId);
    const ledger = await ledgerOf(trx, tournamentId, clock.now());
    const teamIds = new Set(ledger.teams.map((t) => t.registrationId));
    const paid = new Set(ledger.winners.filter((w) => w.payout).map((w) => w.registrationId));
    const wanted = new Map(body.awards.map((a) => [a.label, a.registrationId]));
    for (const [label, rid] of wanted) {
      if (!ledger.specials.some((s) => s.label === label)) throw badRequest(`The prize table has no special prize named ${label}.`);
      if (rid !== null && !teamIds.has(rid)) throw badRequest(`Team ${rid} is not a placed team of this tournament.`);
    }
    const next = ledger.specials.map((s) => ({
      label: s.label,
      registrationId: wanted.has(s.label) ? wanted.get(s.label)! : s.registrationId,
    }));
    for (const [i, s] of ledger.specials.entries()) {
      const to = next[i]!.registrationId;
      if (to !== s.registrationId && ((s.registrationId !== null && paid.has(s.registrationId)) || (to !== null && paid.has(to))))
        throw conflict(`${s.label} cannot change hands: the prize of the team it involves is already paid.`);
    }
    await replaceAwards(
      trx,
      tournamentId,
      next.filter((a): a is { label: string; registrationId: number } => a.registrationId !== null),
    );
    await bumpGeneration(trx, tournamentId); // the tournament page names the winners
  });
  return listPayouts(deps, tournamentId);
}

/** Asks the winners who have not said where to be paid (one notification each). */
export async function remindWinners(deps: ServiceDeps, tournamentId: number): Promise<{ asked: number; message: string }> {
  const { store, clock } = deps;
  return store.writeTransaction(async (trx) => {
    await lockLiveTournamentOr404(store, trx, tournamentId);
    const ledger = await ledgerOf(trx, tournamentId, clock.now());
    if (!ledger.final) throw conflict(NOT_FINAL);
    const waiting = ledger.winners.filter((w) => !w.payee && !w.payout).map((w) => w.registrationId);
    if (waiting.length > 0)
      await enqueueEvent(trx, { kind: 'prize-won', tournamentId, audience: { registrations: waiting }, data: {} }, clock.now());
    const asked = waiting.length;
    const message =
      asked === 0
        ? 'Every winner has given a UPI ID: nobody was asked.'
        : `Asked ${asked} winning team${asked === 1 ? '' : 's'} for the UPI ID to be paid.`;
    return { asked, message };
  });
}

/** Records a winner's payout once, with its UTR and the TDS withheld; the team is told in the same transaction. */
export async function recordPayout(
  deps: ServiceDeps,
  tournamentId: number,
  rid: number,
  caller: { id: number; username: string },
  body: { upiReference: string; tds?: number },
): Promise<PrizeWinner> {
  const { store, clock } = deps;
  const tdsPaise = Math.round((body.tds ?? 0) * 100);
  await store.writeTransaction(async (trx) => {
    await lockLiveTournamentOr404(store, trx, tournamentId);
    const ledger = await ledgerOf(trx, tournamentId, clock.now());
    if (!ledger.teams.some((t) => t.registrationId === rid)) {
      const [team] = await findRegistrationsByIds(trx, tournamentId, [rid]);
      if (!team) throw notFound(TEAM_NOT_FOUND);
    }
    if (!ledger.final) throw conflict(NOT_FINAL);
    const winner = ledger.winners.find((w) => w.registrationId === rid);
    if (!winner) throw conflict(NO_PRIZE);
    if (winner.payout) throw conflict(PRIZE_PAID);
    if (!winner.payee) throw conflict(NO_PAYEE);
    if (tdsPaise > winner.owedPaise) {
      const message = `The TDS cannot be more than the prize, ${rupeesText(winner.owedPaise)}.`;
      throw badRequest(message, { tds: message });
    }
    const inserted = await insertPayout(
      trx,
      {
        registrationId: rid,
        tournamentId,
        grossPaise: winner.owedPaise,
        tdsPaise,
        upiId: winner.payee.upiId,
        utr: body.upiReference,
        by: caller.id,
        byName: caller.username,
      },
      isoAt(clock.now()),
    );
    if (!inserted) throw conflict(PRIZE_PAID);
    await enqueueEvent(
      trx,
      {
        kind: 'prize-paid',
        tournamentId,
        audience: { registrations: [rid] },
        data: {
          teamName: winner.teamName,
          grossPaise: winner.owedPaise,
          tdsPaise,
          netPaise: winner.owedPaise - tdsPaise,
          utr: body.upiReference,
        },
      },
      clock.now(),
    );
  });
  const ledger = await ledgerOf(store.db, tournamentId, clock.now());
  return ledger.winners.find((w) => w.registrationId === rid)!;
}

/** The team's prize as its captain sees it (null: it won none, or the standings are not final). */
export async function prizeOfTeam(deps: ServiceDeps, tournament: TournamentRow, registrationId: number): Promise<MyPrize | null> {
  const ledger = await ledgerOf(deps.store.db, Number(tournament.id), deps.clock.now(), { tournament, winnersOnly: true });
  const winner = ledger.winners.find((w) => w.registrationId === registrationId);
  if (!winner) return null;
  return {
    rank: winner.rank,
    prizes: winner.prizes,
    owedPaise: winner.owedPaise,
    askPan: ledger.askPan,
    payee: winner.payee ? { upiId: winner.payee.upiId, panGiven: Boolean(winner.payee.pan), at: winner.payee.at } : null,
    payout: winner.payout,
  };
}

/** The captain of a winning team says where its prize goes (changeable until it is paid). */
export async function setPrizePayee(
  deps: ServiceDeps,
  tournamentId: number,
  userId: number,
  body: { upiId: string; pan?: string },
): Promise<void> {
  const { store, clock } = deps;
  const team = await findUserRegistration(store.db, tournamentId, userId);
  if (!(await getTournament(store.db, tournamentId))) throw notFound(TOURNAMENT_NOT_FOUND);
  if (!team) throw notFound('You have no team in this tournament.');
  await store.writeTransaction(async (trx) => {
    await lockLiveTournamentOr404(store, trx, tournamentId);
    const ledger = await ledgerOf(trx, tournamentId, clock.now());
    if (!ledger.final) throw conflict(NOT_FINAL);
    const winner = ledger.winners.find((w) => w.registrationId === team.id);
    if (!winner) throw conflict(NO_PRIZE);
    if (winner.payout) throw conflict(PRIZE_PAID);
    const pan = body.pan ? body.pan : null;
    if (ledger.askPan && !pan) throw badRequest(PAN_NEEDED, { pan: PAN_NEEDED });
    await upsertPayee(
      trx,
      { registrationId: team.id, tournamentId, upiId: body.upiId, pan: ledger.askPan ? pan : null },
      isoAt(clock.now()),
    );
  });
}
