import { captainsInGroups, captainsOf, stageRanking } from '../../db/deliveries.js';
import type { Audience } from '../../db/outbox.js';
import type { Trx } from '../../db/types.js';
import type { Recipient } from './messages.js';

/** The accounts an audience reaches, one each, with their team's names. */
export async function resolveAudience(trx: Trx, audience: Audience): Promise<Recipient[]> {
  let found: Recipient[] = [];
  if ('users' in audience) {
    found = audience.users.map((id) => ({ userId: Number(id) }));
  } else if ('registrations' in audience) {
    const rows = await captainsOf(trx, audience.registrations.map(Number));
    found = rows.map((r) => ({ userId: Number(r.user_id), teamName: r.team_name }));
  } else if ('groups' in audience) {
    const rows = await captainsInGroups(trx, audience.groups.map(Number));
    found = rows.map((r) => ({ userId: Number(r.user_id), teamName: r.team_name, groupName: r.group_name, slot: Number(r.slot) }));
  } else if ('standings' in audience) {
    const ranked = await stageRanking(trx, Number(audience.standings));
    // "of 16": every team the stage ranked, also one that left since; only placed teams are told.
    found = ranked
      .filter((r) => r.place === 'placed')
      .map((r) => ({ userId: Number(r.user_id), teamName: r.team_name, rank: Number(r.stage_rank), of: ranked.length }));
  }
  const seen = new Set<number>();
  return found.filter((r) => !seen.has(r.userId) && seen.add(r.userId));
}
