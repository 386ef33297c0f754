import type { DrawMethod, Group } from '@custom-room/contract';
import type { Trx } from './index.js';
import type { StageRow } from './stages.js';

/** Decision 041: a stage's groups and the slots teams hold in them. */

/** Groups with their slot lists, in group order and slot order, by stage id. */
export async function stageGroups(db: Trx, stageIds: readonly number[]): Promise<Map<number, Group[]>> {
  const byStage = new Map<number, Group[]>();
  if (stageIds.length === 0) return byStage;
  const rows = await db
    .selectFrom('stage_groups as g')
    .leftJoin('group_slots as s', 's.group_id', 'g.id')
    .leftJoin('registrations as r', 'r.id', 's.registration_id')
    .select(['g.id', 'g.stage_id', 'g.name', 'g.ord', 's.slot', 's.registration_id', 'r.team_name'])
    .where('g.stage_id', 'in', stageIds)
    .orderBy('g.stage_id')
    .orderBy('g.ord')
    .orderBy('s.slot')
    .execute();
  let last: Group | undefined;
  for (const row of rows) {
    const stageId = Number(row.stage_id);
    if (!last || last.id !== Number(row.id)) {
      last = { id: Number(row.id), name: row.name, slots: [] };
      byStage.set(stageId, [...(byStage.get(stageId) ?? []), last]);
    }
    if (row.slot !== null && row.registration_id !== null) {
      last.slots.push({ slot: Number(row.slot), teamId: Number(row.registration_id), teamName: row.team_name ?? '' });
    }
  }
  return byStage;
}

/** Replaces a stage's groups with these (team ids in slot order), numbered from the stage's first slot; at: the draw's time. */
export async function replaceGroups(
  trx: Trx,
  stage: StageRow,
  groups: readonly { name: string; teamIds: readonly number[] }[],
  draw: { method: DrawMethod; seed: string | null },
  at: string,
): Promise<void> {
  await deleteGroups(trx, stage.id);
  const slotRows: { group_id: number; stage_id: number; registration_id: number; slot: number }[] = [];
  for (const [i, group] of groups.entries()) {
    const inserted = await trx
      .insertInto('stage_groups')
      .values({ stage_id: stage.id, name: group.name, ord: i + 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [j, teamId] of group.teamIds.entries()) {
      slotRows.push({ group_id: Number(inserted.id), stage_id: stage.id, registration_id: teamId, slot: Number(stage.first_slot) + j });
    }
  }
  for (let i = 0; i < slotRows.length; i += 250)
    await trx
      .insertInto('group_slots')
      .values(slotRows.slice(i, i + 250))
      .execute();
  await trx
    .updateTable('stages')
    .set({ draw_method: draw.method, draw_seed: draw.seed, drawn_at: at, updated_at: at })
    .where('id', '=', stage.id)
    .execute();
}

/** Deletes a stage's groups, their slots and their matches (callers check there are no results). */
export async function deleteGroups(trx: Trx, stageId: number): Promise<void> {
  const groupIds = trx.selectFrom('stage_groups').select('id').where('stage_id', '=', stageId);
  await trx.deleteFrom('matches').where('group_id', 'in', groupIds).execute();
  await trx.deleteFrom('group_slots').where('stage_id', '=', stageId).execute();
  await trx.deleteFrom('stage_groups').where('stage_id', '=', stageId).execute();
}

export async function hasGroups(db: Trx, stageId: number): Promise<boolean> {
  return !!(await db.selectFrom('stage_groups').select('id').where('stage_id', '=', stageId).executeTakeFirst());
}

export interface SlotRow {
  group_id: number;
  stage_id: number;
  registration_id: number;
  slot: number;
}

/** Seats these teams in these slots, out of any slot they held in the stage (a move, or a swap of two). */
export async function reseat(trx: Trx, stageId: number, rows: readonly SlotRow[]): Promise<void> {
  await trx
    .deleteFrom('group_slots')
    .where('stage_id', '=', stageId)
    .where(
      'registration_id',
      'in',
      rows.map((r) => r.registration_id),
    )
    .execute();
  await trx.insertInto('group_slots').values(rows).execute();
}

/** Seats a team in an empty slot. */
export async function seat(trx: Trx, row: SlotRow): Promise<void> {
  await trx.insertInto('group_slots').values(row).execute();
}

/** The tournament's waitlist, in its order. */
export function waitlistTeams(db: Trx, tournamentId: number) {
  return db
    .selectFrom('registrations')
    .select(['id', 'team_name'])
    .where('tournament_id', '=', tournamentId)
    .where('place', '=', 'waitlist')
    .orderBy('id')
    .execute();
}

/** The tournament's placed teams without a slot in the stage, in registration order. */
export function unseatedTeams(db: Trx, stage: StageRow) {
  const seated = db.selectFrom('group_slots').select('registration_id').where('stage_id', '=', stage.id);
  return db
    .selectFrom('registrations')
    .select(['id', 'team_name', 'place', 'payment_status'])
    .where('tournament_id', '=', stage.tournament_id)
    .where('place', '=', 'placed')
    .where('id', 'not in', seated)
    .orderBy('id')
    .execute();
}

/** A waitlisted team seated after the draw takes a place (decision 052): placed at `at`, to pay by payBy. */
export async function placeSeatedTeam(trx: Trx, registrationId: number, payBy: string | null, at: string): Promise<void> {
  await trx
    .updateTable('registrations')
    .set({ place: 'placed', placed_at: at, pay_by: payBy, updated_at: at })
    .where('id', '=', registrationId)
    .execute();
}
