import type { PaymentStatus, Place, StatementCredit, StatementMatch, StatementPreview } from '@custom-room/contract';

/**
 * A statement's credits against the tournament's teams (decision 081). Pure: the preview and the verify
 * action run the same function on what they read, so the verify refuses exactly what the preview would
 * no longer show as matched.
 */

export interface MatchTeam {
  registrationId: number;
  teamName: string;
  place: Place;
  paymentStatus: PaymentStatus;
  upiReference: string;
}

export type StatementMatching = Omit<StatementPreview, 'statement' | 'feePaise'>;

const team = (t: MatchTeam) => ({
  registrationId: t.registrationId,
  teamName: t.teamName,
  place: t.place,
  paymentStatus: t.paymentStatus,
  upiReference: t.upiReference,
});

/**
 * - matched: a placed team's UTR is credited once with the entry fee (or, for a placed team that sent no
 *   UTR, a credit carrying its payment note "CR-<rid>" has the fee), and it is not verified yet;
 * - alreadyVerified: the same, verified already;
 * - amountDiffers: the team's credit has another amount;
 * - noTeam: a credit no placed team's UTR names (team: the team it names that left, or whose note it has);
 * - notOnStatement: a placed team's submitted UTR that the statement lacks;
 * - duplicates: the second and later credits of one UTR.
 */
export function matchStatement(credits: readonly StatementCredit[], teams: readonly MatchTeam[], feePaise: number): StatementMatching {
  const out: StatementMatching = { matched: [], alreadyVerified: [], amountDiffers: [], noTeam: [], notOnStatement: [], duplicates: [] };
  const byUtr = new Map<string, MatchTeam>();
  const byId = new Map<number, MatchTeam>();
  for (const t of teams) {
    byId.set(t.registrationId, t);
    // A placed team's reference wins over a team that left with the same (older) reference.
    if (t.upiReference && (t.place === 'placed' || !byUtr.has(t.upiReference))) byUtr.set(t.upiReference, t);
  }
  const seen = new Set<string>();
  const used = new Set<number>();
  const firstCredit = new Map<string, StatementCredit>();
  const byNote: StatementCredit[] = [];
  for (const credit of credits) {
    if (credit.utr && seen.has(credit.utr)) {
      out.duplicates.push({ ...credit, team: teamOf(byUtr.get(credit.utr)) });
      continue;
    }
    if (credit.utr) {
      seen.add(credit.utr);
      firstCredit.set(credit.utr, credit);
    }
    const owner = credit.utr ? byUtr.get(credit.utr) : undefined;
    if (owner && owner.place === 'placed' && owner.paymentStatus !== 'pending') {
      used.add(owner.registrationId);
      const row: StatementMatch = { ...team(owner), credit, by: 'utr' };
      if (credit.amountPaise !== feePaise) out.amountDiffers.push(row);
      else if (owner.paymentStatus === 'verified') out.alreadyVerified.push(row);
      else out.matched.push(row);
      continue;
    }
    if (owner) {
      out.noTeam.push({ ...credit, team: team(owner) });
      continue;
    }
    byNote.push(credit);
  }
  for (const credit of byNote) {
    const noted = credit.registrationId == null ? undefined : byId.get(credit.registrationId);
    // A note matches a placed team that sent no UTR, once (a second noted credit is the team's second payment).
    if (noted && noted.place === 'placed' && noted.upiReference === '' && !used.has(noted.registrationId)) {
      used.add(noted.registrationId);
      const row: StatementMatch = { ...team(noted), credit, by: 'note' };
      if (credit.amountPaise !== feePaise) out.amountDiffers.push(row);
      else if (noted.paymentStatus === 'verified') out.alreadyVerified.push(row);
      else out.matched.push(row);
      continue;
    }
    out.noTeam.push({ ...credit, team: teamOf(noted) });
  }
  for (const t of teams) {
    if (t.place === 'placed' && t.paymentStatus === 'submitted' && t.upiReference && !firstCredit.has(t.upiReference)) {
      out.notOnStatement.push(team(t));
    }
  }
  return out;
}

const teamOf = (t: MatchTeam | undefined) => (t ? team(t) : null);
