import { readMoney } from './amounts.js';
import { parseStatementDate } from './dates.js';
import { isVpa, payerInNarration, registrationIdIn, utrIn, vpaIn } from './references.js';
import { cellText } from './text.js';
import { type Cell, type Credit, type Layout, type Table } from './types.js';

/**
 * The credits among a statement's rows (decision 080). Debits, failed payments, blank rows, totals and the
 * footer are counted in `skipped`; `rows` is every row after the header, so credits + skipped = rows.
 */

// A status that says the money did not arrive (or went back).
const NOT_DONE = /fail|pend|refund|revers|declin|cancel|reject|expire|timed?\s*out|initiat|processing|dispute|abort|error/i;
// The row where the table ends: a footer's first words, in a row with no money. The rows after it are not read.
const FOOTER =
  /^(?:\*+\s*)?(?:statement summary|summary of|end of (?:the )?statement|this is a (?:computer|system)[- ]?generated|legends?(?:\s+used|\s*:|$)|abbreviations used)/i;
// A totals or balance row, when one of its cells says only that.
const TOTALS =
  /^(?:(?:grand|sub)\s*)?totals?(?:\s+(?:credits?|debits?|deposits?|withdrawals?|amount))?\s*[:-]?$|^(?:opening|closing)\s+bal(?:ance)?\.?\s*[:-]?$|^(?:balance\s+)?[bc]\/f$/i;

/** A type column's word for the direction of a row: 'CR', 'Credit', 'Received', '+' or 'DR', 'Debit', 'Paid', 'Sent', '-'. */
function direction(text: string): 'credit' | 'debit' | null {
  const t = text.trim().toLowerCase();
  if (t === '') return null;
  if (/^(?:dr|d|out|outgoing|-)\.?$/.test(t) || /debit|paid|sent|refund|withdraw|revers/.test(t)) return 'debit';
  if (/^(?:cr|c|in|incoming|\+)\.?$/.test(t) || /credit|receive|deposit|collect/.test(t)) return 'credit';
  return null;
}

/** The row's amount in paise when the row is a credit, else null. */
function creditPaise(row: Cell[], texts: string[], layout: Layout): number | null {
  const { columns } = layout;
  if (columns.credit !== undefined) {
    const money = readMoney(row[columns.credit] ?? null);
    if (money && !money.negative && money.side !== 'dr' && money.paise > 0) return money.paise;
  }
  if (columns.amount === undefined || columns.amount === columns.credit) return null;
  const money = readMoney(row[columns.amount] ?? null);
  if (!money || money.paise <= 0) return null;
  const said = columns.type === undefined ? null : direction(texts[columns.type] ?? '');
  if (said === 'debit' || money.negative || money.side === 'dr') return null;
  if (said === 'credit' || money.side === 'cr') return money.paise;
  return columns.type === undefined && columns.debit === undefined ? money.paise : null;
}

/** A credit row's other facts: UTR, date, payer, remarks and the payment note's registration id. */
function creditOf(row: Cell[], texts: string[], layout: Layout, line: number, amountPaise: number): Credit | null {
  const { columns } = layout;
  const text = (col: number | undefined) => (col === undefined ? '' : (texts[col] ?? ''));
  const remarks = text(columns.remarks);
  const reference = text(columns.reference);
  const payer = text(columns.payer);
  const dateCell = columns.date === undefined ? null : (row[columns.date] ?? null);
  // A row naming nothing but amounts is a summary's figures, not a payment.
  if (!remarks && !reference && !payer && !text(columns.vpa) && cellText(dateCell) === '') return null;
  let utr = utrIn(reference);
  for (const col of layout.references) utr ??= utrIn(text(col));
  utr ??= utrIn(remarks);
  const date =
    dateCell instanceof Date || typeof dateCell === 'number' ? parseStatementDate(dateCell) : parseStatementDate(cellText(dateCell));
  return {
    line,
    utr,
    amountPaise,
    date,
    payerName: payer && !isVpa(payer) ? payer : payerInNarration(remarks),
    payerVpa: vpaIn(text(columns.vpa)) ?? vpaIn(payer) ?? vpaIn(remarks),
    remarks,
    registrationId: registrationIdIn(remarks) ?? registrationIdIn(reference),
  };
}

/** Whether a row is a footer's first line: its first text says so, and no money column has an amount. */
function isFooter(row: Cell[], texts: string[], layout: Layout): boolean {
  const first = texts.find((t) => t !== '');
  if (first === undefined || !FOOTER.test(first)) return false;
  const { amount, credit, debit } = layout.columns;
  return [amount, credit, debit].every((col) => col === undefined || !(readMoney(row[col] ?? null)?.paise ?? 0));
}

/** The credits in the rows after the header row (an index into table.rows); `allTexts` is each row's cells as text. */
export function readCredits(
  table: Table,
  allTexts: string[][],
  headerIndex: number,
  layout: Layout,
): { credits: Credit[]; rows: number; skipped: number } {
  const credits: Credit[] = [];
  let rows = 0;
  let ended = false;
  for (let i = headerIndex + 1; i < table.rows.length; i++) {
    rows++;
    const row = table.rows[i]!;
    const texts = allTexts[i]!;
    if (ended || texts.every((t) => t === '')) continue;
    if (isFooter(row, texts, layout)) {
      ended = true;
      continue;
    }
    if (texts.some((t) => TOTALS.test(t))) continue;
    if (layout.status !== undefined && NOT_DONE.test(texts[layout.status] ?? '')) continue;
    const paise = creditPaise(row, texts, layout);
    const credit = paise === null ? null : creditOf(row, texts, layout, table.lines[i]!, paise);
    if (credit) credits.push(credit);
  }
  return { credits, rows, skipped: rows - credits.length };
}
