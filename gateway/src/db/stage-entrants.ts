import type { Trx } from './index.js';

/** Decision 041 and 043: the teams invited to a later stage, and the teams that checked in for a stage. */

/** These teams, among those placed, in registration order. */
export function placedTeamsAmong(db: Trx, registrationIds: readonly number[]) {
  return db
    .selectFrom('registrations')
    .select(['id', 'team_name'])
    .where('id', 'in', registrationIds)
    .where('place', '=', 'placed')
    .orderBy('id')
    .execute();
}

export async function insertInvite(trx: Trx, stageId: number, registrationId: number): Promise<void> {
  await trx.insertInto('stage_invites').values({ stage_id: stageId, registration_id: registrationId }).execute();
}

/** Removes an invitation; false when there was none. */
export async function deleteInvite(trx: Trx, stageId: number, registrationId: number): Promise<boolean> {
  const removed = await trx
    .deleteFrom('stage_invites')
    .where('stage_id', '=', stageId)
    .where('registration_id', '=', registrationId)
    .executeTakeFirst();
  return Number(removed.numDeletedRows) > 0;
}

/** When the team checked in for the stage, or undefined. */
export async function findCheckIn(db: Trx, stageId: number, registrationId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('stage_check_ins')
    .select('checked_in_at')
    .where('stage_id', '=', stageId)
    .where('registration_id', '=', registrationId)
    .executeTakeFirst();
  return row?.checked_in_at;
}

/** These teams checked in for the stage at `at`. */
export async function insertCheckIns(trx: Trx, stageId: number, registrationIds: readonly number[], at: string): Promise<void> {
  await trx
    .insertInto('stage_check_ins')
    .values(registrationIds.map((id) => ({ stage_id: stageId, registration_id: id, checked_in_at: at })))
    .execute();
}

/** The team counts as checked in from `at`, unless it already checked in. */
export async function ensureCheckIn(trx: Trx, stageId: number, registrationId: number, at: string): Promise<void> {
  await trx
    .insertInto('stage_check_ins')
    .values({ stage_id: stageId, registration_id: registrationId, checked_in_at: at })
    .onConflict((oc) => oc.columns(['stage_id', 'registration_id']).doNothing())
    .execute();
}

export async function deleteCheckIn(trx: Trx, stageId: number, registrationId: number): Promise<void> {
  await trx.deleteFrom('stage_check_ins').where('stage_id', '=', stageId).where('registration_id', '=', registrationId).execute();
}
