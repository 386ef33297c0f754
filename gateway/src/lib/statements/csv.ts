import { parse } from 'csv-parse/sync';
import { refused, type Refused, type Table } from './types.js';

/**
 * CSV text → rows (decision 080), by csv-parse: quotes, doubled quotes, line breaks inside quotes, CRLF.
 * The bytes are UTF-8 (a BOM dropped), UTF-16 when they start with its BOM, else Windows-1252 (what Excel
 * on Windows saves as "CSV"). The delimiter is the one of , ; tab | that splits the first lines most evenly.
 */

const DELIMITERS = [',', ';', '\t', '|'] as const;
const SNIFF_LINES = 50;

/** The bytes as text; UTF-8 when they are valid UTF-8. */
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  try {
    // TextDecoder drops a UTF-8 BOM by itself (ignoreBOM is false).
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** Whether decoded text looks like a binary file: NULs, or more than 1 % control characters. */
export function looksBinary(text: string): boolean {
  const sample = text.slice(0, 64 * 1024);
  let controls = 0;
  for (let i = 0; i < sample.length; i++) {
    const code = sample.charCodeAt(i);
    if (code === 0) return true;
    // Tab, line feed and carriage return are text; the other C0 controls and DEL are not.
    if ((code < 32 && code !== 9 && code !== 10 && code !== 13) || code === 127) controls++;
  }
  return controls > sample.length / 100;
}

/** How many times each delimiter occurs in a line, outside double quotes. */
function counts(line: string): number[] {
  const found = DELIMITERS.map(() => 0);
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted) {
      const d = DELIMITERS.indexOf(ch as (typeof DELIMITERS)[number]);
      if (d >= 0) found[d]!++;
    }
  }
  return found;
}

/**
 * The delimiter whose most common count over the first lines (a header block above the table has other
 * counts) is shared by the most lines; a tie goes to the one that makes more columns, then to the comma.
 */
export function sniffDelimiter(text: string): string {
  const lines = text
    .split(/\r\n|\n|\r/, SNIFF_LINES * 2)
    .filter((l) => l.trim() !== '')
    .slice(0, SNIFF_LINES);
  const perLine = lines.map(counts);
  let best: { d: number; lines: number; columns: number } = { d: 0, lines: 0, columns: 0 };
  DELIMITERS.forEach((_, d) => {
    const tally = new Map<number, number>();
    for (const c of perLine) if (c[d]! > 0) tally.set(c[d]!, (tally.get(c[d]!) ?? 0) + 1);
    for (const [columns, n] of tally) {
      if (n > best.lines || (n === best.lines && columns > best.columns)) best = { d, lines: n, columns };
    }
  });
  return DELIMITERS[best.d]!;
}

/** CSV bytes → the rows, each with the line its record starts on. */
export function readCsv(bytes: Uint8Array): Table | Refused {
  const text = decodeText(bytes);
  if (looksBinary(text))
    return refused('The file is neither a CSV nor an XLSX file. Download the statement as CSV or Excel (XLSX) and upload that.');
  let rows: string[][];
  try {
    rows = parse(text, {
      delimiter: sniffDelimiter(text),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
    }) as string[][];
  } catch (err) {
    const line = (err as { lines?: number }).lines;
    return refused(
      `The CSV file could not be read${line ? ` (near line ${line})` : ''}: a quote is not closed or the file is damaged. Export it again.`,
    );
  }
  // Every line is a record (blank ones too), except the line breaks inside quoted fields: count those.
  // (csv-parse's `info` option gives the same, at a third more time and garbage.)
  const lines: number[] = [];
  let line = 1;
  for (const record of rows) {
    lines.push(line);
    line++;
    for (const field of record) if (field.includes('\n') || field.includes('\r')) line += field.match(/\r\n|\r|\n/g)!.length;
  }
  return { format: 'csv', rows, lines };
}
