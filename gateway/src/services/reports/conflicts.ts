import { finishesTotalError, ordinal, type Report, type ReportConflict } from '@custom-room/contract';

/**
 * What the lobby view flags (decision 071): the staff decide; nothing here refuses a report. Pure, so the
 * rules are tested without a database.
 */

export interface LobbyShape {
  teams: number;
  maxFinishes: number;
  playersPerTeam: number;
  format: string;
}

const names = (reports: readonly Report[]) => {
  const list = reports.map((r) => r.teamName);
  return list.length <= 2 ? list.join(' and ') : `${list.slice(0, -1).join(', ')} and ${list.at(-1)}`;
};

export function reportConflicts(reports: readonly Report[], lobby: LobbyShape): ReportConflict[] {
  const conflicts: ReportConflict[] = [];
  const byPlace = new Map<number, Report[]>();
  for (const r of reports) byPlace.set(r.position, [...(byPlace.get(r.position) ?? []), r]);
  for (const [position, claimed] of byPlace) {
    if (claimed.length > 1) {
      conflicts.push({
        kind: 'placement-shared',
        message: `${names(claimed)} ${claimed.length === 2 ? 'both' : 'all'} claim ${ordinal(position)} place.`,
        teamIds: claimed.map((r) => r.teamId),
      });
    }
  }
  for (const r of reports) {
    if (r.position > lobby.teams) {
      conflicts.push({
        kind: 'placement-outside',
        message: `${r.teamName} claims ${ordinal(r.position)} place: the lobby has ${lobby.teams} ${lobby.teams === 1 ? 'team' : 'teams'}.`,
        teamIds: [r.teamId],
      });
    }
  }
  const total = reports.reduce((sum, r) => sum + r.finishes, 0);
  const tooMany = finishesTotalError(total, lobby.teams, lobby.format);
  if (tooMany)
    conflicts.push({
      kind: 'lobby-finishes',
      message: `In the reports, ${tooMany.charAt(0).toLowerCase()}${tooMany.slice(1)}`,
      teamIds: reports.map((r) => r.teamId),
    });
  for (const r of reports) {
    // A team's players can only finish the players of the other teams.
    if (r.finishes > lobby.maxFinishes) {
      conflicts.push({
        kind: 'team-finishes',
        message: `${r.teamName} reports ${r.finishes} finishes: the other teams of the lobby have ${lobby.maxFinishes} players.`,
        teamIds: [r.teamId],
      });
    }
    const strangers = r.players.filter((p) => !p.onTeam).map((p) => p.ign);
    if (strangers.length > 0) {
      conflicts.push({
        kind: 'player-not-on-team',
        message: `${r.teamName} lists ${strangers.join(', ')}, not on its roster.`,
        teamIds: [r.teamId],
      });
    }
  }
  for (const r of reports) {
    for (const same of r.sameScreenshot ?? []) {
      const where = same.sameTournament
        ? `${same.teamName}'s report of day ${same.day} match ${same.match}${same.groupName ? ` (Group ${same.groupName})` : ''}`
        : 'a report in another tournament';
      conflicts.push({ kind: 'same-screenshot', message: `${r.teamName}'s screenshot is the same as ${where}.`, teamIds: [r.teamId] });
    }
  }
  return conflicts;
}
