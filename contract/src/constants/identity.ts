// --- Identity and contact (issue 19, decision 046) ---
import { IGN_FIELDS, IGN_FORM_LABELS, type IgnField } from './teams.js';

/** The games whose rules we know, from the tournament's free-text game ("BGMI", "Free Fire MAX", "PUBG Mobile"). */
export type GameFamily = 'bgmi' | 'pubgm' | 'freefire';

export function gameFamily(game: string): GameFamily | undefined {
  const g = game
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
  if (/^(bgmi|battlegrounds mobile india)\b/.test(g)) return 'bgmi';
  if (/^(pubg( mobile)?|pubgm)\b/.test(g)) return 'pubgm';
  if (/^(free fire|freefire|ff)( max)?\b/.test(g)) return 'freefire';
  return undefined;
}

/** The in-game character ID beside each IGN field, in the same order. */
export const CHARACTER_ID_FIELDS = [
  'player1CharacterId',
  'player2CharacterId',
  'player3CharacterId',
  'player4CharacterId',
  'substitute1CharacterId',
  'substitute2CharacterId',
] as const;
export type CharacterIdField = (typeof CHARACTER_ID_FIELDS)[number];

export const CHARACTER_ID_OF = Object.fromEntries(IGN_FIELDS.map((f, i) => [f, CHARACTER_ID_FIELDS[i]])) as Record<
  IgnField,
  CharacterIdField
>;
export const IGN_OF = Object.fromEntries(IGN_FIELDS.map((f, i) => [CHARACTER_ID_FIELDS[i], f])) as Record<CharacterIdField, IgnField>;

/** The team form's fields in form order: each player's IGN, then their character ID. */
export const TEAM_FORM_FIELDS = ['teamName', ...IGN_FIELDS.flatMap((f) => [f, CHARACTER_ID_OF[f]])] as const;

/**
 * How long a character ID may be, by game (decision 046). Free Fire UIDs have 8 to 12 digits.
 * BGMI and PUBG Mobile character IDs are 10 digits today (5xxxxxxxxx); accounts from PUBG Mobile's
 * first years carry shorter ones, so 6 to 12. Any other game: 4 to 20 digits.
 */
export const CHARACTER_ID_DIGITS: Record<GameFamily | 'other', { min: number; max: number }> = {
  bgmi: { min: 6, max: 12 },
  pubgm: { min: 6, max: 12 },
  freefire: { min: 8, max: 12 },
  other: { min: 4, max: 20 },
};
/** The longest character ID of any game: what the team schemas accept before the game is known. */
export const CHARACTER_ID_MAX = CHARACTER_ID_DIGITS.other.max;

/** What the game calls the ID ("BGMI character ID", "Free Fire UID"). */
export function characterIdName(game: string): string {
  switch (gameFamily(game)) {
    case 'bgmi':
      return 'BGMI character ID';
    case 'pubgm':
      return 'PUBG Mobile character ID';
    case 'freefire':
      return 'Free Fire UID';
    default:
      return 'Character ID';
  }
}

export const characterIdDigits = (game: string) => CHARACTER_ID_DIGITS[gameFamily(game) ?? 'other'];

/** How messages name a character ID field, before the game is known ("Player 1 character ID"). */
export const CHARACTER_ID_LABELS = Object.fromEntries(
  IGN_FIELDS.map((f, i) => [CHARACTER_ID_FIELDS[i], `${IGN_FORM_LABELS[f].replace(/ \(IGL\)$/, '')} character ID`]),
) as Record<CharacterIdField, string>;

/** The label of a character ID field in a game's words ("Player 1 UID" for Free Fire). */
export function characterIdLabel(field: CharacterIdField, game: string): string {
  const who = IGN_FORM_LABELS[IGN_OF[field]].replace(/ \(IGL\)$/, '');
  return gameFamily(game) === 'freefire' ? `${who} UID` : `${who} character ID`;
}

/** Spaces of any kind (a copied non-breaking one included) are dropped from a character ID. */
export const normaliseCharacterId = (value: string) => value.replace(/[\s\u200B-\u200D\u2060\uFEFF]/g, '');

/**
 * The problems of a team's character IDs in this tournament's game (already normalised by the team
 * schema: digits only, or ''), by field. required: every named player needs one.
 */
export function characterIdProblems(
  team: Partial<Record<IgnField | CharacterIdField, string>>,
  game: string,
  required: boolean,
): Record<string, string> {
  const errors: Record<string, string> = {};
  const { min, max } = characterIdDigits(game);
  for (const ignField of IGN_FIELDS) {
    const field = CHARACTER_ID_OF[ignField];
    const id = team[field] ?? '';
    const label = characterIdLabel(field, game);
    if (id === '') {
      if (required && (team[ignField] ?? '') !== '') errors[field] = `${label} is required for this tournament.`;
      continue;
    }
    if (id.length < min || id.length > max) {
      errors[field] = `${label} must have ${min} to ${max} digits; this has ${id.length}. Copy it from your profile in the game.`;
    }
  }
  return errors;
}
