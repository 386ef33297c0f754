import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from '~/utils/csv.server';

/** How a spreadsheet reads one CSV line with the given list separator (RFC 4180 quotes honoured). */
function cellsAs(line: string, separator: ',' | ';'): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted && c === '"' && line[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (!quoted && c === separator) {
      cells.push(cell);
      cell = '';
    } else {
      cell += c;
    }
  }
  return [...cells, cell];
}

// Issue 27, item 20 (decision 054): Excel set to a semicolon list separator (most of Europe, and Indian
// laptops set up so) splits an unquoted "a;=1+1;b" at the semicolons, and the middle cell is a formula.
describe('CSV cells under a semicolon separator', () => {
  const attacks = ['a;=1+1;b', 'Soul;+91;x', 'x;-2+3', 'x;@SUM(A1)', 'x;=HYPERLINK("http://evil","pay")', 'x,=1+1;y'];

  it('quotes every cell with a semicolon, so no separator turns part of it into a formula', () => {
    expect(csvCell('a;=1+1;b')).toBe('"a;=1+1;b"');
    const line = toCsv([['Team', ...attacks]]).replace(/\r\n$/, '');
    for (const separator of [',', ';'] as const) {
      const cells = cellsAs(line, separator);
      for (const cell of cells) expect(cell, `${separator} ${cell}`).not.toMatch(/^[=+\-@]/);
    }
    expect(cellsAs(line, ',')).toEqual(['Team', ...attacks]);
  });
});
