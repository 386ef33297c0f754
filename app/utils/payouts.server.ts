import { MAX_SPECIAL_PRIZES, type PrizeWinner } from '@custom-room/contract';
import { TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { getEnv } from './env.server';
import { pageError } from './errors.server';
import { formatPaise } from './format';
import { formEntries, formFailure, submitToGateway, typedRupees } from './forms.server';
import { call, gateway, GatewayError } from './gateway.server';
import { awardField, awardLabelField, PAYOUT_FIELDS, payoutsPath, prizePaidWords } from './payouts';
import { flash } from './session.server';

/**
 * Decision 085: the prize winners once the final standings are in, where each captain asked to be paid (and
 * the PAN when asked), a form per winner to record the payout's UTR and TDS, the special prizes' winners, and
 * a reminder for the winners who have not said where to be paid. Works without JavaScript.
 */

export const PAYOUT_FAILED = 'The payout was not recorded. Please try again.';
const AWARDS_FAILED = 'The special prizes were not saved. Please try again.';

const view = (w: PrizeWinner, timeZone: string) => ({
  rid: w.registrationId,
  team: w.teamName,
  prizes: w.prizes.map((p) => `${p.label} ${formatPaise(p.amountPaise)}`).join(' · '),
  owed: formatPaise(w.owedPaise),
  payee: w.payee ? { upiId: w.payee.upiId, pan: w.payee.pan } : null,
  paid: w.payout ? `${prizePaidWords(w.payout, timeZone)}, to ${w.payout.upiId}, recorded by ${w.payout.by}` : null,
});

export async function loadPayouts(request: Request, tid: number) {
  const [t, payouts] = await Promise.all([
    gateway.getTournament(request, tid),
    call(request, 'listPayouts', { params: { id: tid } }),
  ]).catch((err) => pageError(err, TOURNAMENT_NOT_FOUND));
  const timeZone = getEnv().APP_TIME_ZONE;
  const rows = payouts.winners.map((w) => view(w, timeZone));
  return {
    t: { id: t.id, name: t.name },
    final: payouts.final,
    askPan: payouts.askPan,
    toPay: rows.filter((r) => !r.paid),
    paid: rows.filter((r) => r.paid),
    waiting: payouts.winners.filter((w) => !w.payee && !w.payout).length,
    specials: payouts.specials.map((s, i) => ({
      i,
      label: s.label,
      amount: formatPaise(s.amountPaise),
      winner: s.registrationId === null ? '' : String(s.registrationId),
    })),
    teams: payouts.teams.map((team) => ({
      value: String(team.registrationId),
      label: team.rank === null ? team.teamName : `${team.teamName} (rank ${team.rank})`,
    })),
  };
}
export type PayoutsPage = Awaited<ReturnType<typeof loadPayouts>>;

/** The page's three forms: record a payout, name the special prizes' winners, remind the winners. */
export async function payoutAction(request: Request, tid: number) {
  const entries = formEntries(await request.formData());
  if (entries.intent === 'remind') return remind(request, tid);
  if (entries.intent === 'awards') return awards(request, tid, entries);
  return record(request, tid, entries);
}

async function remind(request: Request, tid: number) {
  try {
    const { message } = await call(request, 'remindWinners', { params: { id: tid } });
    return flash(request, message, payoutsPath(tid));
  } catch (err) {
    if (!(err instanceof GatewayError) || err.unavailable) throw err;
    return flash(request, err.message || 'The winners were not asked. Please try again.', payoutsPath(tid));
  }
}

async function awards(request: Request, tid: number, entries: Record<string, string>) {
  const list: { label: string; registrationId: number | null }[] = [];
  const values: Record<string, string> = { intent: 'awards' };
  for (let i = 0; i < MAX_SPECIAL_PRIZES; i++) {
    const label = entries[awardLabelField(i)];
    if (label === undefined) continue;
    const raw = entries[awardField(i)] ?? '';
    values[awardField(i)] = raw;
    const rid = Number(raw);
    list.push({ label, registrationId: raw === '' || !Number.isInteger(rid) || rid <= 0 ? null : rid });
  }
  const sent = await submitToGateway(() => call(request, 'awardPrizes', { params: { id: tid }, body: { awards: list } }), {
    values,
    fields: [],
    fallback: AWARDS_FAILED,
  });
  if (!sent.ok) return sent.failure;
  return flash(request, 'Special prizes saved.', payoutsPath(tid));
}

async function record(request: Request, tid: number, entries: Record<string, string>) {
  const rid = Number(entries.rid);
  const values = { rid: entries.rid ?? '', upiReference: entries.upiReference ?? '', tds: entries.tds ?? '' };
  if (!Number.isInteger(rid) || rid <= 0) return formFailure({ values, formError: 'Choose a team.' });
  const tds = typedRupees(values.tds);
  if (tds && !Number.isFinite(Number(tds))) return formFailure({ values, fieldErrors: { tds: 'The TDS must be a number of rupees.' } });
  const body = { upiReference: values.upiReference, ...(tds ? { tds: Number(tds) } : {}) };
  const sent = await submitToGateway(() => call(request, 'recordPayout', { params: { id: tid, rid }, body }), {
    values,
    fields: PAYOUT_FIELDS,
    fallback: PAYOUT_FAILED,
  });
  if (!sent.ok) return sent.failure;
  const w = sent.value;
  return flash(
    request,
    `${w.teamName}: prize of ${formatPaise(w.owedPaise)} recorded (UTR ${w.payout!.utr}). The team is told.`,
    payoutsPath(tid),
  );
}
