import type { MoneySummary } from '@custom-room/contract';
import { TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { pageError } from './errors.server';
import { formatPaise } from './format';
import { call, gateway, GatewayError } from './gateway.server';
import { csvResponse, plain } from './stage-csv.server';
import { paymentWords } from './team';

/**
 * Decision 083: the tournament's money page and its CSV for the organiser's accountant: fees expected,
 * received on the statements, verified, refunded and prizes paid (with TDS, decision 085), and one line per team. Amounts in the CSV are rupees
 * with two decimals, never formatted, so a sheet adds them up.
 */

const PLACE_WORDS: Record<string, string> = { placed: 'Placed', waitlist: 'Waitlist', released: 'Released', withdrawn: 'Withdrew' };

export async function loadMoney(request: Request, tid: number) {
  const [t, money] = await Promise.all([gateway.getTournament(request, tid), call(request, 'moneySummary', { params: { id: tid } })]).catch(
    (err) => pageError(err, TOURNAMENT_NOT_FOUND),
  );
  return {
    t: { id: t.id, name: t.name },
    figures: [
      { term: 'Entry fee', value: formatPaise(money.feePaise) },
      { term: 'Expected (placed teams)', value: formatPaise(money.expectedPaise) },
      {
        term: `Received (on ${money.statements} ${money.statements === 1 ? 'statement' : 'statements'})`,
        value: formatPaise(money.receivedPaise),
      },
      { term: 'Verified', value: formatPaise(money.verifiedPaise) },
      { term: 'Refunded', value: formatPaise(money.refundedPaise) },
      // Decision 085: prizes paid, before tax, and the TDS withheld from them.
      {
        term: 'Prizes paid',
        value: `${formatPaise(money.prizesPaidPaise)}${money.prizesTdsPaise > 0 ? ` (${formatPaise(money.prizesTdsPaise)} TDS withheld)` : ''}`,
      },
    ],
    teams: money.teams.map((m) => ({
      rid: m.registrationId,
      team: m.teamName,
      state: `${PLACE_WORDS[m.place] ?? m.place} · payment ${paymentWords(m.paymentStatus).label.toLowerCase()}`,
      utr: m.upiReference,
      received: m.receivedPaise === null ? 'Not on a statement' : `Received ${formatPaise(m.receivedPaise)}`,
      payer: [m.payerName, m.payerVpa].filter(Boolean).join(' · '),
      refund: m.refundPaise === null ? null : `Refunded ${formatPaise(m.refundPaise)} (UTR ${m.refundUtr})`,
      prize:
        m.prizeGrossPaise === null
          ? null
          : `Prize ${formatPaise(m.prizeGrossPaise)} paid${m.prizeTdsPaise ? `, ${formatPaise(m.prizeTdsPaise)} TDS` : ''} (UTR ${m.prizeUtr})`,
    })),
  };
}

const rupees = (paise: number | null) => (paise === null ? '' : (paise / 100).toFixed(2));

export function moneyCsvRows(money: MoneySummary): (string | number | null)[][] {
  return [
    [
      'rid',
      'teamName',
      'place',
      'paymentStatus',
      'utr',
      'receivedRupees',
      'payerName',
      'payerUpiId',
      'refundRupees',
      'refundUtr',
      // Decision 085: the prize before tax, the TDS withheld, what was sent, where, and the PAN given.
      'prizeRupees',
      'tdsRupees',
      'prizeNetRupees',
      'prizeUtr',
      'prizeUpiId',
      'pan',
    ],
    ...money.teams.map((m) => [
      m.registrationId,
      m.teamName,
      m.place,
      m.paymentStatus,
      m.upiReference,
      rupees(m.receivedPaise),
      m.payerName,
      m.payerVpa,
      rupees(m.refundPaise),
      m.refundUtr,
      rupees(m.prizeGrossPaise),
      rupees(m.prizeTdsPaise),
      m.prizeGrossPaise === null ? '' : rupees(m.prizeGrossPaise - (m.prizeTdsPaise ?? 0)),
      m.prizeUtr,
      m.prizeUpiId,
      m.prizePan,
    ]),
    [],
    [
      'total',
      '',
      '',
      '',
      '',
      rupees(money.receivedPaise),
      '',
      '',
      rupees(money.refundedPaise),
      '',
      rupees(money.prizesPaidPaise),
      rupees(money.prizesTdsPaise),
      rupees(money.prizesPaidPaise - money.prizesTdsPaise),
      '',
      '',
      '',
    ],
    ['expectedRupees', rupees(money.expectedPaise)],
    ['verifiedRupees', rupees(money.verifiedPaise)],
  ];
}

/** The CSV, or a plain-text refusal (as the other exports). */
export async function moneyCsv(request: Request, tid: number): Promise<Response> {
  try {
    const [t, money] = await Promise.all([gateway.getTournament(request, tid), call(request, 'moneySummary', { params: { id: tid } })]);
    return csvResponse(moneyCsvRows(money), `${t.name}-money`);
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    return plain(err.message || 'Failed to load the money summary. Please try again.', err.unavailable ? 503 : err.status);
  }
}
