import { parseAmount } from './amounts.js';
import { parseStatementDate } from './dates.js';
import { HEADER_SEARCH_ROWS } from './limits.js';
import { cellText, plain } from './text.js';
import { type Cell, type ColumnMap, type ColumnRole, type Layout } from './types.js';

/**
 * Which column is which, from the header row's texts (decision 080). A header is compared as a key: lower
 * case, currency words ('(INR)', '(₹)', 'in Rs.') dropped, every space and punctuation mark dropped, so
 * 'Chq./Ref.No.', 'Chq / Ref No' and 'CHQ REF NO' are one key. Known keys first; a column no key names
 * may still be guessed by the words in it ('Amount Received' is an amount).
 */

type Role = ColumnRole | 'status';

// Each known key with its role and a rank: for one role, the lower rank wins ('Txn Date' over 'Value Date',
// 'UTR No' over 'Transaction ID'). Reference-like columns are all kept, best first.
const KNOWN: [Role, number, string[]][] = [
  ['reference', 1, ['utr', 'utrno', 'utrnumber', 'utrnum', 'utrid', 'upiutr', 'upiutrno', 'rrn', 'rrnno', 'rrnnumber']],
  ['reference', 2, ['upirefno', 'upirefnumber', 'upiref', 'upireference', 'upireferenceno', 'upireferencenumber', 'upitransactionid']],
  ['reference', 2, ['upitxnid', 'upitransactionrefno', 'upitransactionreference']],
  ['reference', 3, ['bankreferenceno', 'bankrefno', 'bankreferencenumber', 'bankreference', 'transactionreference']],
  ['reference', 3, ['transactionreferenceno', 'transactionreferencenumber', 'txnrefno', 'txnreference', 'txnreferenceno']],
  ['reference', 4, ['referenceno', 'referencenumber', 'refno', 'refnumber', 'reference', 'refnochequeno', 'refnochqno']],
  ['reference', 4, ['chqrefno', 'chequerefno', 'chqrefnumber', 'chequereferenceno', 'refchqno', 'refchequeno']],
  ['reference', 6, ['transactionid', 'txnid', 'transactionno', 'txnno', 'transactionnumber']],
  ['reference', 8, ['chequenumber', 'chequeno', 'chqno', 'chqnumber']],
  ['amount', 1, ['amount', 'txnamount', 'transactionamount', 'amt', 'txnamt', 'transactionamt', 'paymentamount', 'amountrs']],
  ['credit', 1, ['credit', 'cr', 'creditamount', 'creditamt', 'credits', 'deposit', 'deposits', 'depositamt', 'depositamount']],
  ['credit', 2, ['receipts', 'moneyin', 'paidin', 'amountcredited', 'creditedamount']],
  ['debit', 1, ['debit', 'dr', 'debitamount', 'debitamt', 'debits', 'withdrawal', 'withdrawals', 'withdrawalamt']],
  ['debit', 1, ['withdrawalamount', 'moneyout', 'paidout', 'amountdebited', 'debitedamount']],
  ['type', 1, ['type', 'drcr', 'crdr', 'txntype', 'transactiontype', 'creditdebit', 'debitcredit', 'crdrindicator']],
  ['type', 1, ['drcrindicator', 'paymenttype']],
  ['status', 1, ['status', 'txnstatus', 'transactionstatus', 'paymentstatus']],
  ['date', 1, ['transactiondate', 'txndate', 'trandate', 'date', 'datetime', 'transactiondatetime', 'txndatetime']],
  ['date', 1, ['transactiondateandtime', 'dateandtime', 'paymentdate', 'txndateandtime']],
  ['date', 2, ['postingdate', 'postdate', 'bookingdate']],
  ['date', 3, ['valuedate', 'valuedt']],
  ['payer', 1, ['payername', 'customername', 'sendername', 'remittername']],
  ['payer', 2, ['payer', 'paidby', 'fromname', 'from', 'customer', 'sender']],
  ['payer', 4, ['name']],
  ['vpa', 1, ['payervpa', 'payerupiid', 'fromvpa', 'sendervpa', 'customervpa', 'customerupiid', 'senderupiid', 'payerupi']],
  ['vpa', 2, ['vpa', 'upiid', 'upihandle', 'upiaddress']],
  ['remarks', 1, ['remarks', 'remark', 'narration', 'narrative', 'description', 'particulars', 'transactionremarks']],
  ['remarks', 1, ['transactiondescription', 'txnremarks', 'txndescription', 'transactionparticulars']],
  ['remarks', 2, ['note', 'notes', 'message', 'paymentnote', 'transactionnote', 'transactiondetails', 'paymentremarks']],
  ['remarks', 3, ['details', 'comments', 'comment', 'purpose']],
];

const KNOWN_KEYS = new Map<string, { role: Role; rank: number }>(
  KNOWN.flatMap(([role, rank, keys]) => keys.map((key) => [key, { role, rank }] as const)),
);

/** A header text normalised: lower case, currency words dropped, punctuation runs as one space. */
export function normaliseHeader(text: string): string {
  return plain(text)
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\(\s*(?:in\s+)?(?:inr|rs\.?|₹|rupees?)\s*\.?\s*\)/g, ' ')
    .replace(/₹/g, ' ')
    .replace(/\b(?:in\s+)?(?:inr|rupees?)\b/g, ' ')
    .replace(/\b(?:in\s+)?rs\b\.?/g, ' ')
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, ' ')
    .trim();
}

/** The key a header is compared by: its normalised text without spaces. */
export function headerKey(text: string): string {
  return normaliseHeader(text).replaceAll(' ', '');
}

/** A stable key of a header row (normalised header texts joined), to remember an organiser's column choice per layout. */
export function headerSignature(headers: string[]): string {
  const names = headers.map((h) => normaliseHeader(String(h ?? '')));
  while (names.length > 0 && names[names.length - 1] === '') names.pop();
  return names.join('|');
}

/** The role a header's words suggest when no known key names it ('Amount Received', 'Sender UPI Handle'). */
function guessedRole(key: string): Role | undefined {
  const has = (...words: string[]) => words.some((w) => key.includes(w));
  if (has('balance')) return undefined;
  if (has('crdr', 'drcr', 'creditdebit', 'debitcredit')) return 'type';
  if (has('status')) return 'status';
  if (has('vpa', 'upiid', 'upihandle', 'upiaddress')) return 'vpa';
  if (has('utr', 'rrn', 'reference', 'transactionid', 'txnid') || (key.includes('ref') && !key.includes('refund'))) return 'reference';
  if (has('withdraw', 'debit')) return 'debit';
  if (has('deposit', 'credit')) return 'credit';
  if (has('amount', 'amt')) return 'amount';
  if (has('date')) return 'date';
  if (has('remark', 'narration', 'description', 'particular', 'note', 'message', 'detail', 'comment', 'purpose')) return 'remarks';
  if (has('payer', 'sender', 'remitter', 'customer', 'name')) return 'payer';
  if (has('type')) return 'type';
  return undefined;
}

/** The columns named by a header row: known keys first, then (for the roles still open) guessed ones. */
export function detectLayout(headers: string[]): Layout {
  const picks = new Map<Role, { col: number; rank: number }>();
  const references: { col: number; rank: number }[] = [];
  const take = (role: Role, rank: number, col: number) => {
    if (role === 'reference') references.push({ col, rank });
    else if ((picks.get(role)?.rank ?? Infinity) > rank) picks.set(role, { col, rank });
  };
  const keys = headers.map((h) => headerKey(h));
  const unknown: number[] = [];
  keys.forEach((key, col) => {
    const known = key === '' ? undefined : KNOWN_KEYS.get(key);
    if (known) take(known.role, known.rank, col);
    else if (key !== '') unknown.push(col);
  });
  for (const col of unknown) {
    const role = guessedRole(keys[col]!);
    if (role && (role === 'reference' || !picks.has(role))) take(role, 9, col);
  }
  references.sort((a, b) => a.rank - b.rank || a.col - b.col);
  const columns: ColumnMap = {};
  for (const [role, { col }] of picks) if (role !== 'status') columns[role] = col;
  if (references.length > 0) columns.reference = references[0]!.col;
  return { columns, status: picks.get('status')?.col, references: references.slice(1).map((r) => r.col) };
}

/** Whether the columns are enough to read credits: an amount (or credit) column and a reference or remarks column. */
export function readable(columns: ColumnMap): boolean {
  return (
    (columns.amount !== undefined || columns.credit !== undefined) && (columns.reference !== undefined || columns.remarks !== undefined)
  );
}

/** A row's cells as header texts. */
export function headerTexts(row: Cell[]): string[] {
  const texts = row.map((cell) => cellText(cell));
  while (texts.length > 0 && texts[texts.length - 1] === '') texts.pop();
  return texts;
}

/** The index of the header row: the first of the first 40 rows whose columns are readable; -1 when none is. */
export function findHeaderRow(rows: Cell[][]): number {
  const end = Math.min(rows.length, HEADER_SEARCH_ROWS);
  for (let i = 0; i < end; i++) {
    const texts = headerTexts(rows[i]!);
    if (texts.length >= 2 && readable(detectLayout(texts).columns)) return i;
  }
  return -1;
}

/** A cell that reads as a word, not a number, an amount or a date. */
function isWordCell(cell: Cell): boolean {
  if (typeof cell !== 'string') return false;
  const text = cellText(cell);
  return text !== '' && /\p{L}/u.test(text) && parseAmount(text) === null && parseStatementDate(text) === null;
}

/** The most likely header row when none is readable: the first of the first 40 rows with the most word cells. */
export function likelyHeaderRow(rows: Cell[][]): number {
  let best = 0;
  let most = -1;
  const end = Math.min(rows.length, HEADER_SEARCH_ROWS);
  for (let i = 0; i < end; i++) {
    const words = rows[i]!.filter(isWordCell).length;
    if (words > most) {
      most = words;
      best = i;
    }
  }
  return best;
}
