/**
 * CSV for spreadsheets (RFC 4180: CRLF lines, quoted cells when needed, "" for a quote) that is safe
 * against formula injection: a cell a spreadsheet would read as a formula (starting with =, +, -, @,
 * tab or carriage return) gets a leading apostrophe, so a team called =HYPERLINK(…) stays text.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
// ; too (issue 27): Excel set to a semicolon list separator splits an unquoted "a;=1+1;b" into cells, one a formula.
const NEEDS_QUOTES = /[",;\r\n]/;

export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(rows: readonly (readonly (string | number | null | undefined)[])[]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** A file name for Content-Disposition: letters, digits, dots, dashes and underscores only. */
export function csvFileName(base: string): string {
  const safe =
    base
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'export';
  return `${safe}.csv`;
}
