import { reportSettingsOf, setStageMatchMinutes, setTournamentReportSettings } from '../../db/reports.js';
import type { Trx } from '../../db/types.js';
import { badRequest } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';
import { lockLiveTournamentOr404 } from '../live-tournament.js';
import { reportTournamentOr404 } from './window.js';

/** The match length (the tournament's and each stage's, its own or the tournament's) and the dispute window. */
export async function reportSettings(db: Trx, tournamentId: number) {
  await reportTournamentOr404(db, tournamentId);
  const s = await reportSettingsOf(db, tournamentId);
  return {
    matchMinutes: s.matchMinutes,
    disputeMinutes: s.disputeMinutes,
    stages: s.stages.map((st) => ({ stageId: Number(st.id), name: st.name, matchMinutes: Number(st.match_minutes ?? s.matchMinutes) })),
  };
}

export async function changeReportSettings(
  deps: ServiceDeps,
  tournamentId: number,
  body: { matchMinutes?: number; disputeMinutes?: number; stages?: { stageId: number; matchMinutes: number }[] },
) {
  await deps.store.writeTransaction(async (trx) => {
    await lockLiveTournamentOr404(deps.store, trx, tournamentId);
    await setTournamentReportSettings(trx, tournamentId, {
      ...(body.matchMinutes !== undefined ? { match_minutes: body.matchMinutes } : {}),
      ...(body.disputeMinutes !== undefined ? { dispute_minutes: body.disputeMinutes } : {}),
    });
    for (const [i, stage] of (body.stages ?? []).entries()) {
      if (!(await setStageMatchMinutes(trx, tournamentId, stage.stageId, stage.matchMinutes))) {
        const message = 'This stage is not in the tournament.';
        throw badRequest(message, { [`stages.${i}.stageId`]: message });
      }
    }
  });
  return reportSettings(deps.store.db, tournamentId);
}
