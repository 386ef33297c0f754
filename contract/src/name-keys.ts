import unhomoglyph from 'unhomoglyph';

/**
 * Unicode TR39 skeleton: NFD, default-ignorable characters removed, every character replaced by its
 * prototype from Unicode's confusables.txt (the unhomoglyph package's table), NFD again. Only for
 * comparing, never shown. The schemas refuse default-ignorables in new names; names stored before
 * they did (decision 033) still compare without them.
 */
export function skeleton(text: string): string {
  return unhomoglyph(text.normalize('NFD').replace(/\p{Default_Ignorable_Code_Point}/gu, '')).normalize('NFD');
}

/**
 * The comparison keys of a name (decision 033). NFKC first, so full-width, math-alphanumeric and
 * ligature forms (Ｓｏｕｌ, 𝐒𝐨𝐮𝐥, ﬁre) fold to plain letters, with whitespace collapsed and trimmed.
 * - key: the skeleton of the lower-cased name: "SOUL", "Ѕоul" (Cyrillic), "Sοul" (Greek) are "soul".
 * - shape: the skeleton of the name as typed: "ТЕАМ" (Cyrillic capitals) looks like "TEAM", and
 *   "JonathanI" like "Jonathanl", though their lower-case forms differ.
 * Both are lower-cased at the end because confusables.txt maps some characters to capitals (0 → O).
 * One key cannot do both jobs: case-insensitively I is i, by shape I is l, and i does not look like l.
 */
export function nameKeys(name: string): { key: string; shape: string } {
  const text = name.normalize('NFKC').replace(/\s+/g, ' ').trim();
  return { key: skeleton(text.toLowerCase()).toLowerCase(), shape: skeleton(text).toLowerCase() };
}

/** Decision 007's lower-case form (team_name_lower, ign_lower): kept for sorting by name and its unique index. */
export const lowerName = (value: string) => value.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
