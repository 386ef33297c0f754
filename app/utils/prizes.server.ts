import { MAX_PRIZE_RANKS, MAX_SPECIAL_PRIZES } from '@custom-room/contract';
import { TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { pageError } from './errors.server';
import { formEntries, submitToGateway, typedRupees } from './forms.server';
import { call, gateway } from './gateway.server';
import { rankField, specialField } from './prizes';
import { flash } from './session.server';

/**
 * Decision 084: the prize table's form: one amount field per final rank (the table's ranks and a few
 * empty rows more, up to 20) and up to five special prizes (name and amount). Empty rows are left out.
 */

export const PRIZES_SAVED = 'Prizes saved. The tournament page lists them.';
const PRIZES_FAILED = 'The prizes were not saved. Please try again.';

/** Rupees as stored ("5000", "1500.5"), the form's text. */
const rupeesText = (paise: number) => (paise % 100 === 0 ? String(paise / 100) : (paise / 100).toFixed(2));

export async function loadPrizes(request: Request, tid: number) {
  const [t, table] = await Promise.all([gateway.getTournament(request, tid), call(request, 'getPrizes', { params: { id: tid } })]).catch(
    (err) => pageError(err, TOURNAMENT_NOT_FOUND),
  );
  const values: Record<string, string> = { askPan: table.askPan ? 'on' : '' };
  for (const r of table.ranks) values[rankField(r.rank)] = rupeesText(r.amountPaise);
  table.specials.forEach((s, i) => {
    values[specialField(i, 'label')] = s.label;
    values[specialField(i, 'amount')] = rupeesText(s.amountPaise);
  });
  const highest = Math.max(0, ...table.ranks.map((r) => r.rank));
  return {
    t: { id: t.id, name: t.name, prizePool: t.prizePool },
    values,
    rankRows: Math.min(MAX_PRIZE_RANKS, Math.max(5, highest + 3)),
    specialRows: Math.min(MAX_SPECIAL_PRIZES, Math.max(2, table.specials.length + 1)),
  };
}

export async function prizeAction(request: Request, tid: number) {
  const entries = formEntries(await request.formData());
  // Decision 085: a checkbox: absent means off.
  const values: Record<string, string> = { askPan: entries.askPan === 'on' ? 'on' : '' };
  const ranks: { rank: number; amount: string }[] = [];
  const specials: { label: string; amount: string }[] = [];
  const rankAt: number[] = [];
  const specialAt: number[] = [];
  for (let rank = 1; rank <= MAX_PRIZE_RANKS; rank++) {
    const raw = entries[rankField(rank)] ?? '';
    if (raw === '') continue;
    values[rankField(rank)] = raw;
    ranks.push({ rank, amount: typedRupees(raw) });
    rankAt.push(rank);
  }
  for (let i = 0; i < MAX_SPECIAL_PRIZES; i++) {
    const label = entries[specialField(i, 'label')] ?? '';
    const amount = entries[specialField(i, 'amount')] ?? '';
    if (label.trim() === '' && amount.trim() === '') continue;
    values[specialField(i, 'label')] = label;
    values[specialField(i, 'amount')] = amount;
    specials.push({ label, amount: typedRupees(amount) });
    specialAt.push(i);
  }
  // The gateway names rows by their place in the lists it was sent: back to this form's fields.
  const rename: Record<string, string> = {};
  rankAt.forEach((rank, n) => {
    rename[`ranks.${n}.amount`] = rankField(rank);
    rename[`ranks.${n}.rank`] = rankField(rank);
  });
  specialAt.forEach((i, n) => {
    rename[`specials.${n}.label`] = specialField(i, 'label');
    rename[`specials.${n}.amount`] = specialField(i, 'amount');
  });
  // Amounts go as typed (text): the gateway reads them with the contract's rules and names what is wrong.
  const asTyped = (amount: string) => amount as unknown as number;
  const body = {
    ranks: ranks.map((r) => ({ rank: r.rank, amount: asTyped(r.amount) })),
    specials: specials.map((s) => ({ label: s.label, amount: asTyped(s.amount) })),
    askPan: values.askPan === 'on',
  };
  const sent = await submitToGateway(() => call(request, 'setPrizes', { params: { id: tid }, body }), {
    values,
    fields: Object.values(rename),
    fallback: PRIZES_FAILED,
    rename,
  });
  if (!sent.ok) return sent.failure;
  return flash(request, PRIZES_SAVED, `/admin/${tid}/prizes`);
}
