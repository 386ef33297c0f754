import { PaymentStatusBulkUpdateSchema } from '@custom-room/contract';
import { ID_TEXT, type PaymentStatus } from '@custom-room/contract/constants';
import { formFailure, gatewayFormErrors } from '~/utils/forms.server';
import { gateway, GatewayError } from '~/utils/gateway.server';
import { EXPECTED_REFERENCE_FIELD, expectedReferenceName } from '~/utils/payments-form.server';
import { flash } from '~/utils/session.server';
import { paymentWords } from '~/utils/team';
import { CONFIRM_REMOVE, INTENT } from './forms';

/** The registrations page's action: verify or reject payments (one team or the ticked ones), release, remove, allow back. */

const UPDATE_FAILED = 'Failed to update the payment status. Please try again.';
/** More names than this and the success message gives the count only ("90 payments verified."). */
const NAMES_IN_MESSAGE = 3;

const STATUS_OF: Record<string, { status: PaymentStatus; bulk: boolean }> = {
  [INTENT.verifyOne]: { status: 'verified', bulk: false },
  [INTENT.rejectOne]: { status: 'rejected', bulk: false },
  [INTENT.verifySelected]: { status: 'verified', bulk: true },
  [INTENT.rejectSelected]: { status: 'rejected', bulk: true },
};

const ridOf = (value: FormDataEntryValue) => (typeof value === 'string' && ID_TEXT.test(value.trim()) ? Number(value) : Number.NaN);

export async function registrationsAction(request: Request, tid: number, formData: FormData, back: string) {
  const placeIntent = String(formData.get('intent'));
  if (placeIntent === INTENT.release || placeIntent === INTENT.remove || placeIntent === INTENT.allowReturn)
    return changePlace(request, formData, placeIntent, back);
  const intent = STATUS_OF[String(formData.get('intent'))];
  if (!intent) return formFailure({ formError: 'Choose Verify or Reject.' });
  const rids = formData.getAll('rid').map(ridOf);
  // The reference the admin was shown next to each team (hidden fields): the gateway refuses if it changed since.
  const seen = (rid: number) => {
    const value = formData.get(intent.bulk ? expectedReferenceName(rid) : EXPECTED_REFERENCE_FIELD);
    return typeof value === 'string' ? value : undefined;
  };
  try {
    return intent.bulk
      ? await setStatuses(request, tid, rids, intent.status, seen, back)
      : await setStatus(request, rids, intent.status, seen, back);
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    return paymentRefused(err, intent.bulk ? null : rids[0]);
  }
}

const doneWords = (status: PaymentStatus) => paymentWords(status).label.toLowerCase();

async function setStatus(request: Request, rids: number[], status: PaymentStatus, seen: (rid: number) => string | undefined, back: string) {
  const rid = rids[0];
  if (rids.length !== 1 || rid === undefined || Number.isNaN(rid)) return formFailure({ formError: 'Choose one team.' });
  const saved = await gateway.setPaymentStatus(request, rid, status, seen(rid));
  return flash(request, `Payment of ${saved.teamName} marked ${doneWords(status)}.`, back);
}

async function setStatuses(
  request: Request,
  tid: number,
  rids: number[],
  status: PaymentStatus,
  seen: (rid: number) => string | undefined,
  back: string,
) {
  const expectedUpiReferences: Record<string, string> = {};
  for (const rid of rids) {
    const value = Number.isNaN(rid) ? undefined : seen(rid);
    if (value !== undefined) expectedUpiReferences[String(rid)] = value;
  }
  const body = PaymentStatusBulkUpdateSchema.safeParse({ tournamentId: tid, rids, paymentStatus: status, expectedUpiReferences });
  if (!body.success) {
    const message = body.error.issues[0]?.message ?? UPDATE_FAILED;
    return formFailure({ fieldErrors: { rid: message } });
  }
  const saved = await gateway.setPaymentStatuses(request, body.data);
  const names = saved.map((r) => r.teamName).join(', ');
  const words = doneWords(status);
  // Short when many: "90 payments verified." (issue 27); a few are named, as before.
  const message =
    saved.length > NAMES_IN_MESSAGE
      ? `${saved.length} payments ${words}.`
      : `${saved.length === 1 ? 'Payment' : `${saved.length} payments`} marked ${words}: ${names}.`;
  return flash(request, message, back);
}

/** Per-team refusals (expectedUpiReferences.{rid}, or the one team's) go on that team's card. */
function paymentRefused(err: GatewayError, single: number | null | undefined) {
  const rename: Record<string, string> = { rids: 'rid', ...(single ? { expectedUpiReference: `team.${single}` } : {}) };
  for (const key of Object.keys(err.fieldErrors)) {
    const m = /^expectedUpiReferences\.(\d+)$/.exec(key);
    if (m) rename[key] = `team.${m[1]}`;
  }
  const fields = ['rid', ...Object.values(rename).filter((f) => f.startsWith('team.'))];
  const failure = gatewayFormErrors(err, { fields, fallback: UPDATE_FAILED, rename });
  // The gateway's message names the teams and says nothing changed: keep it above the cards (once).
  let formError: string | null = failure.formError ?? (err.status === 409 ? err.message : null) ?? UPDATE_FAILED;
  if (Object.values(failure.fieldErrors).includes(formError)) formError = null;
  return formFailure({ fieldErrors: failure.fieldErrors, formError }, failure.status);
}

/** Release or remove one team (decision 043), or let a removed one back (decision 052); a refusal goes on that team's card. */
async function changePlace(request: Request, formData: FormData, intent: 'release' | 'remove' | 'allow-return', back: string) {
  const rids = formData.getAll('rid').map(ridOf);
  const rid = rids[0];
  if (rids.length !== 1 || rid === undefined || Number.isNaN(rid)) return formFailure({ formError: 'Choose one team.' });
  if (intent === INTENT.remove && formData.get(CONFIRM_REMOVE) !== 'yes') {
    return formFailure({ fieldErrors: { [`team.${rid}`]: 'Tick “Yes, remove this team” to remove it.' } });
  }
  try {
    if (intent === INTENT.allowReturn) {
      const allowed = await gateway.allowReturn(request, rid);
      return flash(request, `${allowed.teamName} may register again.`, back);
    }
    const saved = intent === INTENT.release ? await gateway.releaseTeam(request, rid) : await gateway.removeTeam(request, rid);
    const done = intent === INTENT.release ? 'released' : 'removed: it cannot register again unless you allow it';
    return flash(request, `${saved.teamName} ${done}.`, back);
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    const failure = gatewayFormErrors(err, { fields: [], fallback: UPDATE_FAILED });
    return formFailure({ fieldErrors: { [`team.${rid}`]: failure.formError ?? UPDATE_FAILED } }, failure.status);
  }
}
