import { ID_TEXT } from '@custom-room/contract/constants';
import { formatDateTime } from './format';
import { type CheckInWindow, gateway, GatewayError, type Registration } from './gateway.server';
import { flash } from './session.server';

/** The player's one-tap check-in (issue 19, decisions 043 and 047): which stages offer it now, and the post. */

export interface CheckInOffer {
  stageId: number;
  stageName: string;
  /** "10 Dec 2026, 5:50 pm" in the app's time zone. */
  closes: string;
}

/**
 * The stages whose check-in window is open for a confirmed team. The team's own check-ins say it when
 * the gateway sends them; else the stages' windows do (the gateway decides again on the post, and a
 * second check-in answers the first). windows: read only when needed (the matches page has them already).
 */
export async function checkInOffers(
  team: Pick<Registration, 'place' | 'checkIns'>,
  confirmed: boolean,
  windows: () => Promise<readonly CheckInWindow[]>,
  timeZone: string,
  nowMs = Date.now(),
): Promise<CheckInOffer[]> {
  if (team.place !== 'placed' || !confirmed) return [];
  if (team.checkIns.length > 0) {
    return team.checkIns
      .filter((c) => c.state === 'open')
      .map((c) => ({ stageId: c.stageId, stageName: c.stageName, closes: formatDateTime(c.closesAt, timeZone) }));
  }
  return (await windows())
    .filter((w) => Date.parse(w.opensAt) <= nowMs && nowMs < Date.parse(w.closesAt))
    .map((w) => ({ stageId: w.stageId, stageName: w.stageName, closes: formatDateTime(w.closesAt, timeZone) }));
}

/** The check-in windows of a tournament's stages, from its stage list (none when it cannot be read). */
export async function stageWindows(request: Request, tid: number): Promise<CheckInWindow[]> {
  const stages = await gateway.listStages(request, tid).catch((err) => {
    if (err instanceof GatewayError) return [];
    throw err;
  });
  return stages.flatMap((s) =>
    s.checkIn ? [{ stageId: s.id, stageName: s.name, opensAt: s.checkIn.opensAt, closesAt: s.checkIn.closesAt }] : [],
  );
}

/** The check-in post of the team and matches pages: one call, then back to the page with what happened. */
export async function checkInAction(request: Request, tid: number, formData: FormData, back: string): Promise<Response> {
  const raw = String(formData.get('stageId') ?? '');
  if (!ID_TEXT.test(raw)) return flash(request, 'Choose the stage to check in for.', back);
  try {
    await gateway.checkIn(request, tid, Number(raw));
    return flash(request, 'Checked in. See you in the lobby.', back);
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    return flash(request, err.message || 'We could not check your team in. Please try again.', back);
  }
}
