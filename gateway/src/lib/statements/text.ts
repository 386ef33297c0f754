import { type Cell } from './types.js';

// No-break and other wide spaces that exports put in amounts and names; a plain space is read the same.
const ODD_SPACES = /[\u00a0\u2000-\u200b\u202f\u205f\u3000\ufeff]/g;

/** Text with odd spaces made plain and the ends trimmed. */
export function plain(text: string): string {
  ODD_SPACES.lastIndex = 0;
  return (ODD_SPACES.test(text) ? text.replace(ODD_SPACES, ' ') : text).trim();
}

/**
 * A cell as text: strings trimmed (and Excel's `="…"` text guard undone), whole numbers without an exponent
 * or '.0' (334512345678 → '334512345678'), dates as 'YYYY-MM-DD' (with ' HH:MM' when not midnight).
 */
export function cellText(cell: Cell | undefined): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'string') {
    if (cell === '') return '';
    const text = plain(cell);
    const guarded = text.startsWith('="') ? /^="(.*)"$/s.exec(text) : null;
    return guarded ? plain(guarded[1]!) : text;
  }
  if (typeof cell === 'number') {
    if (!Number.isFinite(cell)) return '';
    return Number.isInteger(cell) && Math.abs(cell) < 1e21 ? cell.toFixed(0) : String(cell);
  }
  if (typeof cell === 'boolean') return cell ? 'TRUE' : 'FALSE';
  if (Number.isNaN(cell.getTime())) return '';
  const iso = cell.toISOString();
  const time = iso.slice(11, 16);
  return time === '00:00' ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${time}`;
}
