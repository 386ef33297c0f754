import { readFileSync } from 'node:fs';
import path from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import writeExcelFile from 'write-excel-file/node';
import {
  headerSignature,
  readStatement,
  STATEMENT_MAX_BYTES,
  STATEMENT_MAX_ROWS,
  utrIn,
  type Credit,
  type StatementRead,
} from '../../gateway/src/lib/statements/index.js';

// Decision 080: statements (CSV or XLSX) read into their credits. The fixtures and their traps are described
// in tests/fixtures/statements/README.md; every expected value below is written out by hand from the file.

const DIR = path.resolve(import.meta.dirname, '../fixtures/statements');
const fixture = (name: string) => readFileSync(path.join(DIR, name));
const csv = (text: string) => new TextEncoder().encode(text);

type Read = Extract<StatementRead, { kind: 'read' }>;
type Seen = [
  line: number,
  utr: string | null,
  paise: number,
  date: string | null,
  payer: string,
  vpa: string | null,
  registration: number | null,
];

function read(result: StatementRead): Read {
  if (result.kind !== 'read') throw new Error(`expected a read statement, got ${JSON.stringify(result).slice(0, 300)}`);
  return result;
}
function refusal(result: StatementRead): string {
  if (result.kind !== 'refused') throw new Error(`expected a refusal, got ${result.kind}`);
  return result.message;
}
const seen = (credits: Credit[]): Seen[] =>
  credits.map((c) => [c.line, c.utr, c.amountPaise, c.date, c.payerName, c.payerVpa, c.registrationId]);

describe('fixtures', () => {
  it('HDFC CSV: header block, asterisk rule, zero-padded references, UTRs and notes in the narration, summary footer', async () => {
    const r = read(await readStatement(fixture('hdfc-bank.csv')));
    expect(r.format).toBe('csv');
    expect(r.headerRow).toBe(15);
    expect(r.headers).toEqual(['Date', 'Narration', 'Chq./Ref.No.', 'Value Dt', 'Withdrawal Amt.', 'Deposit Amt.', 'Closing Balance']);
    expect(r.columns).toEqual({ date: 0, remarks: 1, reference: 2, debit: 4, credit: 5 });
    expect(seen(r.credits)).toEqual<Seen[]>([
      [17, '334511110001', 5000, '2026-11-26', 'ROHAN DAS', 'rohan.das@okicici', 41],
      [19, '334511110002', 5000, '2026-11-27', 'PRIYA NAIR', 'priyanair99@oksbi', 42],
      [20, '334511110003', 4000, '2026-11-27', 'KARAN SINGH', 'karan.s@ybl', 43],
      [21, null, 5000, '2026-11-27', '', null, 44],
      [22, '334511110005', 5000, '2026-11-28', '', null, 45],
      [23, '334511110006', 5000, '2026-11-28', 'ANJALI', '9876543210@ybl', null],
      [24, '334511110007', 5000, '2026-11-28', 'SURESH P', '919812345678@paytm', 46],
      [25, '334511110002', 5000, '2026-11-28', 'PRIYA NAIR', 'priyanair99@oksbi', 42],
      [27, '334511110008', 5000, '2026-11-28', 'NEHA GUPTA', 'neha.g@okhdfcbank', 47],
      [28, null, 1200, '2026-11-30', '', null, null],
    ]);
    expect(r.credits[0]!.remarks).toBe('UPI-ROHAN DAS-ROHAN.DAS@OKICICI-ICIC0000123-334511110001-CR-41 NIGHT OWLS');
    // Lines 16–35 follow the header: 10 credits; the rule, 2 debits, a blank, the footer's 7 lines skipped.
    expect(r.rows).toBe(20);
    expect(r.skipped).toBe(10);
  });

  it('SBI CSV: Txn Date over Value Date, Indian grouping, a UTR with spaces in the reference, account numbers not UTRs', async () => {
    const r = read(await readStatement(fixture('sbi-bank.csv')));
    expect(r.headerRow).toBe(17);
    expect(r.columns).toEqual({ date: 0, remarks: 2, reference: 3, debit: 4, credit: 5 });
    expect(seen(r.credits)).toEqual<Seen[]>([
      [18, '334522220001', 5000, '2026-11-27', 'AMIT VERMA', 'amitv@oksbi', 51],
      [19, '334522220002', 5000, '2026-11-27', '', null, 52],
      [21, '334522220003', 4000, '2026-11-28', 'NISHA RAO', 'nisha.rao@okhdfcbank', 53],
      [22, null, 10_000_000, '2026-11-28', '', null, null],
      [23, null, 5000, '2026-11-28', '', null, 54],
      [24, '334522220001', 5000, '2026-11-28', 'AMIT VERMA', 'amitv@oksbi', 51],
      [26, '334522220006', 5000, '2026-11-29', 'RAVI K', 'ravi.k-1@okaxis', 56],
      [27, '334522220007', 5000, '2026-11-30', 'FATIMA SHAIKH', 'fatima.s@okicici', 57],
    ]);
    expect(r.rows).toBe(12);
    expect(r.skipped).toBe(4);
  });

  it('ICICI XLSX: table from column B, Excel dates and text dates, 0.00 in the other column, UTR only in the remarks, legend footer', async () => {
    const r = read(await readStatement(fixture('icici-bank.xlsx')));
    expect(r.format).toBe('xlsx');
    expect(r.headerRow).toBe(12);
    expect(r.headers).toEqual([
      '',
      'S No.',
      'Value Date',
      'Transaction Date',
      'Cheque Number',
      'Transaction Remarks',
      'Withdrawal Amount (INR )',
      'Deposit Amount (INR )',
      'Balance (INR )',
    ]);
    expect(r.columns).toEqual({ date: 3, reference: 4, remarks: 5, debit: 6, credit: 7 });
    expect(seen(r.credits)).toEqual<Seen[]>([
      [13, '334533330001', 5000, '2026-11-26', '', 'sneha.r@okaxis', 61],
      [14, '334533330002', 5000, '2026-11-27', 'Kabir', 'kabir.j@ybl', null],
      [16, '334533330003', 4000, '2026-11-27', '', 'tanvi.d@oksbi', 63],
      [17, null, 5000, '2026-11-28', '', null, 64],
      [18, '334533330001', 5000, '2026-11-28', '', 'sneha.r@okaxis', 61],
      [19, '334533330007', 5000, '2026-11-29', '', null, 67],
      [20, '334533330008', 50_000, '2026-11-29', '', 'dev.m@okaxis', null],
    ]);
    expect(r.rows).toBe(14);
    expect(r.skipped).toBe(7);
  });

  it('PhonePe Business CSV: BOM, UTR No over the T… transaction id, FAILED/PENDING and DEBIT rows skipped, a UTR with dashes', async () => {
    const r = read(await readStatement(fixture('phonepe-business.csv')));
    expect(r.headerRow).toBe(1);
    expect(r.headers[0]).toBe('Date');
    expect(r.columns).toEqual({ date: 0, reference: 2, payer: 3, vpa: 4, amount: 5, type: 6 });
    expect(seen(r.credits)).toEqual<Seen[]>([
      [2, '334544440001', 5000, '2026-11-26', 'Ishaan Kapoor', 'ishaan.k@ybl', null],
      [4, '334544440003', 4000, '2026-11-27', 'Aditya Kulkarni', 'adi.kulkarni@axl', null],
      [5, '334544440001', 5000, '2026-11-27', 'Ishaan Kapoor', 'ishaan.k@ybl', null],
      [6, null, 5000, '2026-11-27', 'Zoya Ali', 'zoya.ali@ybl', null],
      [8, '334544440007', 5000, '2026-11-28', 'Ananya Iyer', 'ananya.iyer@ybl', null],
      [9, '334544440009', 5000, '2026-11-28', 'अर्जुन शर्मा', 'arjun.sharma@ibl', null],
    ]);
    expect(r.rows).toBe(9);
    expect(r.skipped).toBe(3);
  });

  it('Paytm for Business CSV: ₹ amounts, REFUNDED/FAILED skipped, ="…" and apostrophe text guards, a UTR Excel turned into 3.34556E+11', async () => {
    const r = read(await readStatement(fixture('paytm-business.csv')));
    expect(r.headerRow).toBe(5);
    expect(r.columns).toEqual({ date: 0, reference: 2, payer: 3, vpa: 4, amount: 5, remarks: 7 });
    expect(seen(r.credits)).toEqual<Seen[]>([
      [6, '334555550001', 5000, '2026-11-28', 'Diya Menon', 'diya.menon@paytm', 71],
      [9, '334555550001', 5000, '2026-11-28', 'Diya Menon', 'diya.menon@paytm', 71],
      [10, '334555550005', 4000, '2026-11-28', 'Om Prakash', 'omprakash@pthdfc', 75],
      [11, '334555550006', 5000, '2026-11-28', 'Sara Thomas', 'sara.t@ptsbi', 76],
      [12, '334555550007', 105_000, '2026-11-29', 'Yash Jain', 'yashjain@paytm', null],
      [13, null, 5000, '2026-11-29', 'Tara Singh', 'tara.singh@paytm', 78],
      [14, '334555550009', 5000, '2026-11-29', 'Neel Das', 'neel.das@ptyes', 79],
    ]);
    expect(r.credits.map((c) => c.remarks)).toContain('cr 79 ghost riders');
    expect(r.rows).toBe(9);
    expect(r.skipped).toBe(2);
  });

  it('Hindi headers (semicolons): needs columns, then reads with the columns given', async () => {
    const bytes = fixture('hindi-headers.csv');
    const first = await readStatement(bytes);
    if (first.kind !== 'needs-columns') throw new Error(`expected needs-columns, got ${first.kind}`);
    expect(first.headerRow).toBe(1);
    expect(first.headers).toEqual(['दिनांक', 'विवरण', 'संदर्भ संख्या', 'राशि (₹)', 'शेष']);
    expect(first.guess).toEqual({});
    expect(first.sample).toHaveLength(5);
    expect(first.sample[0]).toEqual(['28/11/2026', 'UPI भुगतान CR-81 Team Agni', '334566660001', '50.00', '1050.00']);
    expect(first.sample[4]).toEqual(['29/11/2026', 'नकद जमा CR-84 Team Prithvi', '', '50.00', '1240.00']);
    expect(first.signature).toBe('दिनांक|विवरण|संदर्भ संख्या|राशि|शेष');

    const r = read(await readStatement(bytes, { columns: { date: 0, remarks: 1, reference: 2, amount: 3 } }));
    expect(r.headerRow).toBe(1);
    expect(r.columns).toEqual({ date: 0, remarks: 1, reference: 2, amount: 3 });
    expect(seen(r.credits)).toEqual<Seen[]>([
      [2, '334566660001', 5000, '2026-11-28', '', null, 81],
      [3, '334566660002', 5000, '2026-11-28', '', null, 82],
      [4, '334566660002', 5000, '2026-11-28', '', null, 82],
      [5, '334566660003', 4000, '2026-11-29', '', null, 83],
      [6, null, 5000, '2026-11-29', '', null, 84],
    ]);
    expect(r.rows).toBe(6);
    expect(r.skipped).toBe(1); // the ATM withdrawal, -500.00
  });
});

describe('columns', () => {
  it("an organiser's columns replace the detection; a FAILED/PENDING status still drops the row", async () => {
    // The transaction id column as the reference, no type column: the DEBIT row counts, no T… id is a UTR.
    const r = read(await readStatement(fixture('phonepe-business.csv'), { columns: { reference: 1, amount: 5 } }));
    expect(r.columns).toEqual({ reference: 1, amount: 5 });
    expect(r.credits.map((c) => c.line)).toEqual([2, 4, 5, 6, 7, 8, 9]);
    expect(r.credits.every((c) => c.utr === null && c.payerName === '' && c.date === null)).toBe(true);
  });

  it('refuses columns outside the header row, and columns without an amount or credit', async () => {
    const bytes = fixture('hindi-headers.csv');
    expect(refusal(await readStatement(bytes, { columns: { amount: 5 } }))).toMatch(
      /amount column must be one of the header row's 5 columns/,
    );
    expect(refusal(await readStatement(bytes, { columns: { amount: -1 } }))).toMatch(/header row's 5 columns/);
    expect(refusal(await readStatement(bytes, { columns: { amount: 1.5 } }))).toMatch(/header row's 5 columns/);
    expect(refusal(await readStatement(bytes, { columns: { reference: 2, remarks: 1 } }))).toBe('Pick the amount (or credit) column.');
  });

  it('headerSignature: the same layout written differently is one signature; another layout is another', () => {
    expect(headerSignature(['Date', 'UTR No.', 'Amount (INR)'])).toBe('date|utr no|amount');
    expect(headerSignature([' DATE ', 'UTR  No', 'Amount(₹)', '', ''])).toBe('date|utr no|amount');
    expect(headerSignature(['Date', 'UTR No', 'Credit'])).not.toBe(headerSignature(['Date', 'UTR No', 'Amount']));
  });

  it('finds the header among known names in any case and punctuation, and guesses unknown ones by their words', async () => {
    const text =
      'Statement of Mr X\n\nTRAN DATE|UPI TRANSACTION ID|SENDER UPI HANDLE|AMOUNT RECEIVED (₹)|NOTES\n28/11/2026|334512345678|a.b@okaxis|50.00|CR-9 X\n';
    const r = read(await readStatement(csv(text)));
    expect(r.headerRow).toBe(3);
    expect(r.columns).toEqual({ date: 0, reference: 1, vpa: 2, amount: 3, remarks: 4 });
    expect(seen(r.credits)).toEqual<Seen[]>([[4, '334512345678', 5000, '2026-11-28', '', 'a.b@okaxis', 9]]);
  });

  it('needs columns when the header has an amount but neither a reference nor remarks', async () => {
    const r = await readStatement(csv('Date,Amount,Balance\n28/11/2026,50.00,100.00\n'));
    expect(r.kind).toBe('needs-columns');
    if (r.kind === 'needs-columns') expect(r.guess).toEqual({ date: 0, amount: 1 });
  });
});

describe('credits and debits', () => {
  it('with one amount column and a type column: CR/Credit/Received/+ or a Cr suffix is a credit, the rest is not', async () => {
    const text = [
      'Date,Reference No,Amount,Dr/Cr,Remarks',
      '28/11/2026,334500000001,50.00,CR,a',
      '28/11/2026,334500000002,50.00,DR,b',
      '28/11/2026,334500000003,50.00,,c',
      '28/11/2026,334500000004,50.00 Cr,,d',
      '28/11/2026,334500000005,+50,Received,e',
      '28/11/2026,334500000006,-50.00,CR,f',
      '28/11/2026,334500000007,50.00,Paid,g',
      '28/11/2026,334500000008,50.00,+,h',
    ].join('\n');
    const r = read(await readStatement(csv(text)));
    expect(r.credits.map((c) => c.utr)).toEqual(['334500000001', '334500000004', '334500000005', '334500000008']);
    expect(r.skipped).toBe(4);
  });

  it('with one amount column and no type or debit column: positive amounts are credits; signs, parentheses, Dr, totals are not', async () => {
    const text = [
      'Date,UTR,Amount',
      'Opening Balance,,"1,000.00"',
      '28/11/2026,334500000001,50.00',
      '28/11/2026,334500000002,-50.00',
      '28/11/2026,334500000003,(50.00)',
      '28/11/2026,334500000004,50.00 Dr',
      '28/11/2026,334500000005,50.00-',
      '28/11/2026,334500000006,₹0.00',
      '28/11/2026,334500000007,fifty',
      'Total,,50.00',
      '',
      'Closing Balance,,"1,050.00"',
    ].join('\r\n');
    const r = read(await readStatement(csv(text)));
    expect(r.credits.map((c) => [c.line, c.utr, c.amountPaise])).toEqual([[3, '334500000001', 5000]]);
    expect(r.rows).toBe(11);
    expect(r.skipped).toBe(10);
  });

  it('ends the table at a footer line with no money, not at a team called Legends', async () => {
    const text = [
      'Remarks,UTR,Amount',
      'Legends CR-5,334500000001,50',
      'Summary of fees CR-6,334500000002,50',
      'Legend: D = debit,,',
      'After the legend CR-7,334500000003,50',
    ].join('\n');
    const r = read(await readStatement(csv(text)));
    expect(r.credits.map((c) => c.registrationId)).toEqual([5, 6]);
    expect(r.rows).toBe(4);
    expect(r.skipped).toBe(2);
  });

  it('reads the payment note CR-<id> in its spellings, and not in words, UTR markers or amounts', async () => {
    const notes = [
      ['CR-42 Team Soul', 42],
      ['cr 7 ghost', 7],
      ['CR42', 42],
      ['paid CR - 9', 9],
      ['SCR42', null],
      ['CREDIT 42', null],
      ['UPI/CR/334512345678/RAHUL/x', null],
      ['Refund Cr 500.00', null],
      ['NEFT CR-SBIN0000456-MEERA-CR-44 PHOENIX', 44],
      ['CR 334512345678', null],
    ] as const;
    const text = ['UTR,Amount,Remarks', ...notes.map(([remarks], i) => `${334500000000 + i},50,${remarks}`)].join('\n');
    const r = read(await readStatement(csv(text)));
    expect(r.credits.map((c) => [c.remarks, c.registrationId])).toEqual(notes.map(([remarks, id]) => [remarks, id]));
  });

  it('reads XLSX numbers: a UTR held as a number, amounts as rupees, dates as Excel dates', async () => {
    const bytes = await writeExcelFile([
      ['Date', 'UTR', 'Amount', 'Remarks'],
      [{ value: new Date(Date.UTC(2026, 10, 28)), format: 'dd/mm/yyyy' }, 334512345678, 50, 'CR-5 A'],
      ['28/11/2026', { value: 334512345679, format: '0' }, 50.1, null],
      [{ value: new Date(Date.UTC(2026, 10, 29, 14, 35)), format: 'dd-mmm-yyyy hh:mm' }, '3345 1234 5680', 100000.1, 'cr-6'],
    ]).toBuffer();
    const r = read(await readStatement(bytes));
    expect(r.format).toBe('xlsx');
    expect(seen(r.credits)).toEqual<Seen[]>([
      [2, '334512345678', 5000, '2026-11-28', '', null, 5],
      [3, '334512345679', 5010, '2026-11-28', '', null, null],
      [4, '334512345680', 10_000_010, '2026-11-29', '', null, 6],
    ]);
  });

  it('reads a 5,000-row CSV completely', async () => {
    const lines = ['Date,UTR No,Payer Name,Amount,Type,Status,Remarks'];
    for (let i = 0; i < 5000; i++) {
      const utr = String(334500000000 + i);
      lines.push(
        `28/11/2026,${utr},Player ${i},${i % 10 === 9 ? '40.00' : '50.00'},${i % 7 === 6 ? 'DEBIT' : 'CREDIT'},SUCCESS,CR-${i + 1} Team ${i}`,
      );
    }
    const r = read(await readStatement(csv(lines.join('\n'))));
    const debits = Array.from({ length: 5000 }, (_, i) => i).filter((i) => i % 7 === 6).length;
    expect(r.rows).toBe(5000);
    expect(r.credits).toHaveLength(5000 - debits);
    expect(r.credits[0]).toEqual({
      line: 2,
      utr: '334500000000',
      amountPaise: 5000,
      date: '2026-11-28',
      payerName: 'Player 0',
      payerVpa: null,
      remarks: 'CR-1 Team 0',
      registrationId: 1,
    });
    expect(r.credits.at(-1)).toMatchObject({ line: 5001, utr: '334500004999', amountPaise: 4000, registrationId: 5000 });
  });
});

describe('encodings and delimiters', () => {
  it('reads Windows-1252 text when the bytes are not UTF-8', async () => {
    const bytes = Buffer.from('Date,UTR,Amount,Remarks\n28/11/2026,334512345678,50.00,Caf\xe9 Ros\xe9 CR-9\n', 'latin1');
    const r = read(await readStatement(bytes));
    expect(r.credits[0]).toMatchObject({ remarks: 'Café Rosé CR-9', registrationId: 9 });
  });

  it('reads UTF-16 tab-separated text (Excel "Unicode text") and pipe-separated text', async () => {
    const text = 'Date\tUTR\tAmount\n28/11/2026\t334512345678\t"1,050.00"\n';
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect(seen(read(await readStatement(utf16)).credits)).toEqual<Seen[]>([[2, '334512345678', 105_000, '2026-11-28', '', null, null]]);
    const piped = read(await readStatement(csv('Narration, with commas|Ref No|Credit\nUPI, CR-3, x|334512345678|50\n')));
    expect(piped.headers).toEqual(['Narration, with commas', 'Ref No', 'Credit']);
    expect(piped.credits[0]).toMatchObject({ utr: '334512345678', registrationId: 3 });
  });

  it('counts lines, not records, when a quoted narration spans lines', async () => {
    const r = read(await readStatement(csv('UTR,Amount,Remarks\n334512345678,50,"first\nsecond"\n334512345679,50,x\n')));
    expect(r.credits.map((c) => c.line)).toEqual([2, 4]);
  });
});

describe('refusals', () => {
  const MB = 1024 * 1024;

  it('refuses a file over 5 MB, naming its size', async () => {
    const big = new Uint8Array(Math.round(6.2 * MB)).fill(0x61);
    expect(refusal(await readStatement(big))).toBe('The statement is 6.2 MB; the limit is 5 MB. Export a shorter date range.');
    expect(refusal(await readStatement(new Uint8Array(STATEMENT_MAX_BYTES + 1).fill(0x61)))).toBe(
      'The statement is 5.1 MB; the limit is 5 MB. Export a shorter date range.',
    );
  });

  it('refuses more than 50,000 data rows, naming the count and the limit; 50,000 are read', async () => {
    const rows = (n: number) => {
      const lines = ['Date,UTR,Amount'];
      for (let i = 0; i < n; i++) lines.push(`28/11/2026,${334500000000 + i},50`);
      return csv(lines.join('\n'));
    };
    expect(refusal(await readStatement(rows(STATEMENT_MAX_ROWS + 1)))).toBe(
      'The statement has 50,001 rows; the limit is 50,000. Export a shorter date range.',
    );
    expect(read(await readStatement(rows(STATEMENT_MAX_ROWS))).credits).toHaveLength(STATEMENT_MAX_ROWS);
  });

  it('refuses an old .xls, a PDF, a web page saved as .xls', async () => {
    const xls = new Uint8Array(2048);
    xls.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    expect(refusal(await readStatement(xls))).toMatch(/old Excel \.xls file.*Export the statement as CSV or XLSX/);
    expect(refusal(await readStatement(csv('%PDF-1.7\n%âãÏÓ\n1 0 obj')))).toMatch(/^PDF statements cannot be read/);
    expect(refusal(await readStatement(csv('<html><body><table><tr><td>Date</td></tr></table></body></html>')))).toMatch(/web page/);
  });

  it('refuses random bytes, and never throws', async () => {
    let seed = 12345;
    const random = new Uint8Array(4096).map(() => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed >> 16) & 0xff);
    random[0] = 0x01;
    expect(refusal(await readStatement(random))).toMatch(/neither a CSV nor an XLSX file/);
  });

  it('refuses an empty file, and a file of blank lines', async () => {
    expect(refusal(await readStatement(new Uint8Array(0)))).toMatch(/^The file has no rows\./);
    expect(refusal(await readStatement(csv('\n,,,\r\n  \n')))).toMatch(/^The file has no rows\./);
  });

  it('refuses a truncated or corrupt XLSX', async () => {
    const xlsx = fixture('icici-bank.xlsx');
    expect(refusal(await readStatement(xlsx.subarray(0, Math.floor(xlsx.length / 2))))).toMatch(/XLSX file could not be read/);
    const garbage = new Uint8Array(600).fill(0x41);
    garbage.set([0x50, 0x4b, 0x03, 0x04]);
    expect(refusal(await readStatement(garbage))).toMatch(/XLSX file could not be read/);
    // A ZIP that is not a workbook.
    expect(refusal(await readStatement(zipSync({ 'notes.txt': strToU8('hello') })))).toMatch(/XLSX file could not be read/);
  });

  /** The fixture's parts, one of them changed, zipped again. */
  function workbookWith(change: (parts: Record<string, Uint8Array>) => void, level: 0 | 6 = 6): Uint8Array {
    const parts = unzipSync(fixture('icici-bank.xlsx'));
    change(parts);
    return zipSync(parts, { level });
  }
  const SHEET = 'xl/worksheets/sheet1.xml';

  it('refuses an XLSX that unpacks past 64 MB by its sizes, or inflates past the size it declares (zip bombs)', async () => {
    // A central directory that declares a 200 MB sheet.
    const declared = workbookWith(() => {}, 6);
    const view = new DataView(declared.buffer, declared.byteOffset, declared.byteLength);
    for (let i = declared.length - 46; i >= 0; i--) {
      if (view.getUint32(i, true) !== 0x02014b50) continue;
      const nameLength = view.getUint16(i + 28, true);
      if (strFromU8(declared.subarray(i + 46, i + 46 + nameLength)) === SHEET) view.setUint32(i + 24, 200 * MB, true);
    }
    expect(refusal(await readStatement(declared))).toMatch(/unpacks to more than 64 MB/);

    // A sheet that inflates to 8 MB while its headers say 2 KB.
    const liar = workbookWith((parts) => {
      const xml = strFromU8(parts[SHEET]!);
      parts[SHEET] = strToU8(xml.replace('<sheetData>', `<sheetData>${' '.repeat(8 * MB)}`));
    });
    const lv = new DataView(liar.buffer, liar.byteOffset, liar.byteLength);
    for (let i = 0; i + 30 < liar.length; i++) {
      const signature = lv.getUint32(i, true);
      if (signature === 0x04034b50 && strFromU8(liar.subarray(i + 30, i + 30 + lv.getUint16(i + 26, true))) === SHEET)
        lv.setUint32(i + 22, 2048, true);
      if (signature === 0x02014b50 && strFromU8(liar.subarray(i + 46, i + 46 + lv.getUint16(i + 28, true))) === SHEET)
        lv.setUint32(i + 24, 2048, true);
    }
    expect(refusal(await readStatement(liar))).toMatch(/XLSX file could not be read/);
  });

  it('refuses an XLSX whose sheet names a cell far out (the reader would fill every row and column up to it)', async () => {
    const far = (cell: string, row: number) =>
      workbookWith((parts) => {
        const xml = strFromU8(parts[SHEET]!);
        parts[SHEET] = strToU8(xml.replace('</sheetData>', `<row r="${row}"><c r="${cell}"><v>1</v></c></row></sheetData>`));
      });
    expect(refusal(await readStatement(far('XFD1048576', 1048576)))).toBe(
      'The statement has 10,48,576 rows; the limit is 50,000. Export a shorter date range.',
    );
    expect(refusal(await readStatement(far('XFD30', 30)))).toMatch(/uses 16384 columns/);
    // Rows without a number are the next rows: 60,000 empty <row/> elements are counted too.
    const many = workbookWith((parts) => {
      parts[SHEET] = strToU8(strFromU8(parts[SHEET]!).replace('</sheetData>', `${'<row/>'.repeat(60_000)}</sheetData>`));
    });
    expect(refusal(await readStatement(many))).toMatch(/^The statement has 60,0\d\d rows; the limit is 50,000\./);
  });
});

describe('utrIn', () => {
  it.each([
    ['334512345678', '334512345678'],
    ['3345 1234 5678', '334512345678'],
    ['3345-1234-5678', '334512345678'],
    [' 334512345678 ', '334512345678'],
    ["'334512345678", '334512345678'],
    ['0000334512345678', '334512345678'],
    ['UPI/334512345678/Payment from Rahul/rahul@okaxis/CR-42 Team Soul', '334512345678'],
    ['UPI-RAHUL KUMAR-RAHUL@OKSBI-SBIN0001234-334512345678-CR 42 TEAM SOUL', '334512345678'],
    ['UTR 3345 1234 5678', '334512345678'],
    ['UPI-X-919812345678@PAYTM-PYTM0123456-334512345678-CR-4', '334512345678'],
  ])('%j → %s', (text, utr) => {
    expect(utrIn(text)).toBe(utr);
  });

  it.each([
    ['T2311281234567890123456'],
    ['33451234567'],
    ['3345123456789'],
    ['000000000000'],
    ['0000000000000000'],
    ['3.34512E+11'],
    ['202611281435120001'],
    ['919812345678@paytm'],
    ['TRANSFER FROM 3199411044309'],
    [''],
  ])('%j has no UTR', (text) => {
    expect(utrIn(text)).toBeNull();
  });
});
