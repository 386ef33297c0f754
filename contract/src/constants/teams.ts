// --- Teams (spec §3, §5) ---
/** Every in-game-name field of a team, in form order (players first, then substitutes). */
export const IGN_FIELDS = [
  'player1Username',
  'player2Username',
  'player3Username',
  'player4Username',
  'substitute1Username',
  'substitute2Username',
] as const;
export type IgnField = (typeof IGN_FIELDS)[number];
export const TEAM_FIELDS = ['teamName', ...IGN_FIELDS] as const;
export type TeamField = (typeof TEAM_FIELDS)[number];
/** How messages name each IGN field ("Player 1 IGN is required."). */
export const IGN_LABELS: Record<IgnField, string> = {
  player1Username: 'Player 1 IGN',
  player2Username: 'Player 2 IGN',
  player3Username: 'Player 3 IGN',
  player4Username: 'Player 4 IGN',
  substitute1Username: 'Substitute 1 IGN',
  substitute2Username: 'Substitute 2 IGN',
};
/** The team form's visible labels (spec §3: player 1 is the in-game leader). */
export const IGN_FORM_LABELS: Record<IgnField, string> = {
  player1Username: 'Player 1 (IGL)',
  player2Username: 'Player 2',
  player3Username: 'Player 3',
  player4Username: 'Player 4',
  substitute1Username: 'Substitute 1',
  substitute2Username: 'Substitute 2',
};
export const TEAM_NAME_MIN = 2;
export const TEAM_NAME_MAX = 40;
export const IGN_MIN = 2;
export const IGN_MAX = 30;
