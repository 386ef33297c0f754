import type { TeamPlacement } from '@custom-room/contract';
import { withCharacterIds } from '../../db/identity.js';
import type { Trx } from '../../db/index.js';
import { findLiveTournament, toRegistration, waitlistPosition, type RegistrationRow } from '../../db/registrations.js';
import type { TeamCheckIn } from '../../db/stages.js';

/** The registration's answer: its row, the tournament's fee and (waitlisted) its position. */
export async function registrationAnswer(db: Trx, row: RegistrationRow, entryFee?: number) {
  const fee = entryFee ?? Number((await findLiveTournament(db, row.tournament_id))?.entry_fee ?? 0);
  const [answer] = await withCharacterIds(db, [toRegistration(row, { entryFee: fee, waitlistPosition: await waitlistPosition(db, row) })]);
  return answer!;
}

/** Decision 041: the team's group and slot per published stage; the field is left out when there are none. */
export const withPlacements = <T extends object>(registration: T, placements: TeamPlacement[] | undefined): T =>
  placements && placements.length > 0 ? { ...registration, placements } : registration;

/** Decision 043: the team's check-in per stage with a window; the field is left out when there are none. */
export const withCheckIns = <T extends object>(registration: T, checkIns: TeamCheckIn[] | undefined): T =>
  checkIns && checkIns.length > 0 ? { ...registration, checkIns } : registration;
