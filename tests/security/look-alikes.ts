// Generated names for the property tests of decision 033 (issue 16 item 12): default-ignorable
// characters, and names disguised as another. Test data written out apart from the rules they test.
import fc from 'fast-check';

/** Default_Ignorable_Code_Point in Unicode's DerivedCoreProperties.txt: test data, written out apart from the rule. */
export const DEFAULT_IGNORABLE: [number, number][] = [
  [0x00ad, 0x00ad],
  [0x034f, 0x034f],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff0, 0xfff8],
  [0x1bca0, 0x1bca3],
  [0x1d173, 0x1d17a],
  [0xe0000, 0xe0fff],
];
/** Each range as likely as the next, so the variation selectors and U+034F are not drowned by the tags block. */
export const ignorable = fc
  .constantFrom(...DEFAULT_IGNORABLE)
  .chain(([lo, hi]) => fc.integer({ min: lo, max: hi }))
  .map((cp) => String.fromCodePoint(cp));

/** Inserts c between two code points of name (at its ends, trimming would drop U+FEFF: a byte order mark is whitespace to JavaScript). */
export const insertAt = (name: string, c: string, at: number) => {
  const points = [...name];
  points.splice(1 + (at % (points.length - 1)), 0, c);
  return points.join('');
};

// Look-alikes a reader cannot tell from the Latin letter (Cyrillic and Greek, same case).
export const HOMOGLYPHS: Record<string, string[]> = {
  a: ['а', 'α'],
  c: ['с'],
  d: ['ԁ'],
  e: ['е'],
  h: ['һ'],
  i: ['і', 'ι'],
  j: ['ј'],
  o: ['о', 'ο'],
  p: ['р'],
  q: ['ԛ'],
  s: ['ѕ'],
  u: ['υ'],
  v: ['ν'],
  w: ['ԝ'],
  x: ['х'],
  y: ['у', 'γ'],
  A: ['А', 'Α'],
  B: ['В', 'Β'],
  C: ['С'],
  E: ['Е', 'Ε'],
  H: ['Н', 'Η'],
  I: ['І', 'Ι'],
  J: ['Ј'],
  K: ['К', 'Κ'],
  M: ['М', 'Μ'],
  N: ['Ν'],
  O: ['О', 'Ο'],
  P: ['Р', 'Ρ'],
  S: ['Ѕ'],
  T: ['Т', 'Τ'],
  X: ['Х', 'Χ'],
  Y: ['Ү', 'Υ'],
  Z: ['Ζ'],
};
const fullWidth = (c: string) => (/[!-~]/.test(c) ? String.fromCodePoint(c.codePointAt(0)! + 0xfee0) : c);
const mathBold = (c: string) => {
  const code = c.codePointAt(0)!;
  if (/[A-Z]/.test(c)) return String.fromCodePoint(0x1d400 + code - 65);
  if (/[a-z]/.test(c)) return String.fromCodePoint(0x1d41a + code - 97);
  if (/[0-9]/.test(c)) return String.fromCodePoint(0x1d7ce + code - 48);
  return c;
};
const flipCase = (c: string) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase());

/**
 * A name written to pass for `name`: "look" keeps each letter's case and swaps letters for look-alikes
 * or their full-width and bold forms; "case" changes capitals and uses full-width and bold forms only.
 * Never returns `name` itself.
 */
export function disguise(name: string, mode: 'look' | 'case', picks: number[]): string {
  const out = [...name].map((c, i) => {
    const pick = picks[i % picks.length]!;
    const letter = mode === 'case' && pick % 2 === 1 ? flipCase(c) : c;
    const forms = [letter, fullWidth(letter), mathBold(letter), ...(mode === 'look' ? (HOMOGLYPHS[letter] ?? []) : [])];
    return forms[Math.floor(pick / 2) % forms.length]!;
  });
  if (out.join('') === name) out[0] = fullWidth(name[0]!);
  return out.join('');
}
export const disguiseOf = (base: fc.Arbitrary<string>) =>
  fc
    .tuple(base, fc.constantFrom<'look' | 'case'>('look', 'case'), fc.array(fc.nat({ max: 99 }), { minLength: 1, maxLength: 40 }))
    .map(([name, mode, picks]) => ({
      name,
      mode,
      disguised: disguise(name, mode, picks),
    }));

// At most 15 characters: bold forms take two UTF-16 units each, and an IGN takes 30.
export const ign = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{2,14}$/);
export const teamName = fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{1,11}( [A-Za-z0-9]{1,6})?$/);
