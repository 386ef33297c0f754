import { readCsv } from './csv.js';
import { STATEMENT_MAX_BYTES } from './limits.js';
import { isRefused, refused, type Refused, type Table } from './types.js';
import { readXlsx } from './xlsx.js';

/**
 * A statement's bytes → its rows (decision 080): XLSX when they start as a ZIP archive does, else CSV text.
 * Files that are neither (an old .xls, a PDF, a web page saved as .xls) are refused with what to do instead.
 */

const MB = 1024 * 1024;

function startsWith(bytes: Uint8Array, magic: number[]): boolean {
  return magic.every((b, i) => bytes[i] === b);
}

/** The first bytes as text, lower case, for recognising a file that is not a statement table. */
function head(bytes: Uint8Array): string {
  return new TextDecoder('latin1')
    .decode(bytes.subarray(0, 512))
    .replace(/^\ufeff|^\u00ef\u00bb\u00bf/, '')
    .trimStart()
    .toLowerCase();
}

/** The bytes as rows, or why they cannot be read. */
export async function readTable(bytes: Uint8Array): Promise<Table | Refused> {
  if (bytes.byteLength > STATEMENT_MAX_BYTES) {
    const size = Math.max(5.1, Math.round((bytes.byteLength / MB) * 10) / 10);
    return refused(`The statement is ${size.toFixed(1)} MB; the limit is 5 MB. Export a shorter date range.`);
  }
  if (bytes.byteLength === 0) return refused('The file has no rows. Export the statement again with the date range that has the payments.');
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) {
    const rows = await readXlsx(bytes);
    return isRefused(rows) ? rows : { format: 'xlsx', rows, lines: rows.map((_, i) => i + 1) };
  }
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0])) {
    return refused(
      'This is an old Excel .xls file (or a password-protected workbook), which cannot be read. Export the statement as CSV or XLSX, or open it in Excel and save it as .xlsx.',
    );
  }
  const start = head(bytes);
  if (start.startsWith('%pdf')) return refused('PDF statements cannot be read. Download the statement as CSV or Excel (XLSX) instead.');
  if (/^(?:<!doctype html|<html|<\?xml|<table)/.test(start)) {
    return refused(
      'This file is a web page or XML saved as a spreadsheet. Open it in Excel or Google Sheets, save it as CSV or XLSX, and upload that.',
    );
  }
  return readCsv(bytes);
}
