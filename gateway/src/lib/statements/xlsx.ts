import { Buffer } from 'node:buffer';
import { zipSync } from 'fflate';
import { readSheet } from 'read-excel-file/node';
import yauzl from 'yauzl';
import { STATEMENT_MAX_ROWS } from './limits.js';
import { isRefused, refused, type Cell, type Refused } from './types.js';

/**
 * XLSX bytes → the first sheet's rows (decision 080), read by read-excel-file. That reader unzips without a
 * bound, and fills every row and column up to the farthest cell, so a small crafted file could take
 * gigabytes. It is only given an archive made here: the XML parts taken out by yauzl (which stops an entry
 * that inflates past its declared size), their total size bounded, and the sheets' farthest cell checked.
 */

/** The most the XML parts of a workbook may unpack to. */
const MAX_UNPACKED_BYTES = 64 * 1024 * 1024;
const MAX_ENTRIES = 2_000;
/** The farthest row and column a sheet may use (its header block and footer on top of the row limit). */
const MAX_SHEET_ROWS = STATEMENT_MAX_ROWS + 1_000;
const MAX_SHEET_COLUMNS = 200;

const UNREADABLE = 'The XLSX file could not be read: it is damaged or not an Excel workbook. Export the statement again as CSV or XLSX.';

/** The column number (A = 1) of a cell reference's letters. */
function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

/**
 * The rows and columns a sheet's XML makes the reader fill: the farthest `r="…"` of a `<row>` or `<c>`, and
 * the count of `<row>` elements (a row without `r` is the next one).
 */
function extent(xml: Buffer): { rows: number; columns: number } {
  const text = xml.toString('latin1');
  let rows = 0;
  let columns = 0;
  for (const m of text.matchAll(/\sr\s*=\s*["']([A-Za-z]*)(\d+)["']/g)) {
    rows = Math.max(rows, Number(m[2]));
    if (m[1]) columns = Math.max(columns, columnNumber(m[1]));
  }
  let elements = 0;
  for (const _ of text.matchAll(/<(?:[\w.-]+:)?row[\s/>]/g)) elements++;
  return { rows: Math.max(rows, elements), columns };
}

/** The workbook's XML parts, bounded; or a refusal. */
async function unpack(bytes: Uint8Array): Promise<Record<string, Uint8Array> | Refused> {
  const zip = await yauzl.fromBufferPromise(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
    lazyEntries: true,
    validateEntrySizes: true,
    strictFileNames: false,
  });
  const parts: Record<string, Uint8Array> = {};
  let total = 0;
  let entries = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      if (++entries > MAX_ENTRIES) return refused(UNREADABLE);
      const name = entry.fileName;
      if (!name.endsWith('.xml') && !name.endsWith('.rels')) continue;
      if (entry.isEncrypted()) return refused('The XLSX file is password-protected. Remove the password, or export the statement as CSV.');
      if (!entry.canDecodeFileData()) return refused(UNREADABLE);
      total += entry.uncompressedSize;
      if (total > MAX_UNPACKED_BYTES)
        return refused('The XLSX file unpacks to more than 64 MB. Export a shorter date range, or the statement as CSV.');
      const stream = await zip.openReadStreamPromise(entry);
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      const data = Buffer.concat(chunks);
      if (/^xl\/worksheets\/[^/]+\.xml$/.test(name)) {
        const { rows, columns } = extent(data);
        if (rows > MAX_SHEET_ROWS) {
          return refused(
            `The statement has ${rows.toLocaleString('en-IN')} rows; the limit is ${STATEMENT_MAX_ROWS.toLocaleString('en-IN')}. Export a shorter date range.`,
          );
        }
        if (columns > MAX_SHEET_COLUMNS)
          return refused(`The statement's sheet uses ${columns} columns; a statement has at most ${MAX_SHEET_COLUMNS}.`);
      }
      parts[name] = data;
    }
  } finally {
    zip.close();
  }
  return parts;
}

/** XLSX bytes → the first sheet's rows (strings, numbers, booleans, Dates; null for empty cells). */
export async function readXlsx(bytes: Uint8Array): Promise<Cell[][] | Refused> {
  let parts: Record<string, Uint8Array> | Refused;
  try {
    parts = await unpack(bytes);
  } catch {
    return refused(UNREADABLE);
  }
  if (isRefused(parts)) return parts;
  try {
    // Stored, not compressed: the parts are already in memory and bounded; read-excel-file only copies them.
    const archive = zipSync(parts, { level: 0 });
    return (await readSheet(Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength))) as Cell[][];
  } catch {
    return refused(UNREADABLE);
  }
}
