import { type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { NOT_PLACED_MESSAGES, paymentsClosedMessage, phaseTakesPayments } from '@custom-room/contract/constants';
import { GeneralErrorBoundary } from '~/components/error-page';
import { PlaceBadge } from '~/components/place-badge';
import { ErrorSummary } from '~/components/ui/error-summary';
import { SubmitButton } from '~/components/ui/submit-button';
import { TextField } from '~/components/ui/text-field';
import { getEnv } from '~/utils/env.server';
import { pageError } from '~/utils/errors.server';
import { formatRupees } from '~/utils/format';
import { formFailure, parseForm, submitToGateway, type FormFailure } from '~/utils/forms.server';
import { gateway, type Tournament, type UserRegistration } from '~/utils/gateway.server';
import { PaymentSubmitSchema } from '~/utils/payments-form.server';
import { placeView } from '~/utils/places';
import { flash, requireUser } from '~/utils/session.server';
import { paymentWords, QR_SIZE } from '~/utils/team';
import { summaryPhase } from '~/utils/tournament';
import { paymentFormUrl, paymentNote, payeeOf, qrDataUrl, upiUri } from '~/utils/upi.server';
import '~/styles/player.css';
import '~/styles/places.css';

const NO_RID = 'No registration ID provided — please register first.';
const NOT_FOUND = 'Registration not found!';
const SUBMIT_FAILED = 'We could not save your UPI reference. Please try again.';

export const meta: MetaFunction = () => [
  { title: 'Pay the entry fee | Custom Room' },
  { name: 'description', content: 'Pay your team’s entry fee by UPI and send the UPI reference to the organiser.' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

/** The ?rid= of the URL: null when absent, NaN when it is not an id. */
function ridOf(request: Request): number | null {
  const raw = new URL(request.url).searchParams.get('rid')?.trim();
  if (!raw) return null;
  return /^\d{1,9}$/.test(raw) && Number(raw) > 0 ? Number(raw) : Number.NaN;
}

/** The registration with this rid among the caller's own; another user's rid is "not found" like a missing one. */
async function findOwnRegistration(request: Request, rid: number): Promise<UserRegistration | null> {
  if (Number.isNaN(rid)) return null;
  const mine = await gateway.myRegistrations(request);
  return mine.find((r) => r.rid === rid) ?? null;
}

/** The entry fee: the tournament summary's entryFee, falling back to price, else the tournament itself (spec §2). */
async function feeOf(
  request: Request,
  registration: UserRegistration,
): Promise<{ fee: number; tournamentName: string; tournament: Tournament | null }> {
  const summary = registration.tournament;
  const fee = summary?.entryFee ?? summary?.price;
  if (summary && typeof fee === 'number') return { fee, tournamentName: summary.name, tournament: null };
  const t = await gateway.getTournament(request, registration.tid);
  return { fee: t.entryFee, tournamentName: t.name, tournament: t };
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const rid = ridOf(request);
  if (rid === null) return data({ found: false as const, message: NO_RID }, { status: 400 });
  const registration = await findOwnRegistration(request, rid).catch((err) => pageError(err));
  if (!registration) return data({ found: false as const, message: NOT_FOUND }, { status: 404 });
  const { fee, tournamentName, tournament } = await feeOf(request, registration).catch((err) => pageError(err));

  const env = getEnv();
  const words = paymentWords(registration.paymentStatus);
  const note = paymentNote(registration.rid, registration.teamName);
  // Decision 051: a Completed or Cancelled tournament asks nobody to pay (no QR, no reference form, no deadline).
  const phase = registration.tournament ? summaryPhase(registration.tournament) : null;
  const closed = phase !== null && !phaseTakesPayments(phase) ? paymentsClosedMessage(phase) : null;
  const state = placeView(registration, { timeZone: env.APP_TIME_ZONE, free: fee <= 0, paymentsClosed: closed !== null });
  // Only a placed team pays: a waitlisted, released or withdrawn one is told why not (decision 043).
  const placed = registration.place === 'placed' && closed === null;
  const pays = fee > 0 && placed;
  // The tournament's own payee (issue 27): the registration's summary does not carry it.
  const payee = pays
    ? payeeOf(tournament ?? (await gateway.getTournament(request, registration.tid).catch((err) => pageError(err))))
    : null;
  const uri = payee ? upiUri({ ...payee, amount: fee, note }) : null;
  return data({
    found: true as const,
    rid: registration.rid,
    tid: registration.tid,
    teamName: registration.teamName,
    tournamentName,
    free: fee <= 0,
    amount: formatRupees(fee),
    status: registration.paymentStatus,
    statusLabel: words.label,
    statusDetail: words.detail,
    reference: registration.paymentReference,
    state,
    notPlaced: closed ?? (registration.place === 'placed' ? null : NOT_PLACED_MESSAGES[registration.place]),
    upi: uri && payee ? { uri, qr: await qrDataUrl(uri), ...payee, note } : null,
    screenshotForm: fee > 0 && placed ? paymentFormUrl(env.PAYMENT_FORM_URL, registration.rid) : null,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const rid = ridOf(request);
  if (rid === null) return formFailure({ formError: NO_RID });
  const formData = await request.formData();
  const parsed = parseForm(formData, PaymentSubmitSchema);
  if (!parsed.success) return formFailure(parsed);

  const registration = await findOwnRegistration(request, rid).catch((err) => pageError(err));
  if (!registration) return formFailure({ values: parsed.values, formError: NOT_FOUND }, 404);
  const result = await submitToGateway(() => gateway.submitPayment(request, registration.tid, parsed.data.upiReference), {
    values: parsed.values,
    fields: ['upiReference'],
    fallback: SUBMIT_FAILED,
  });
  if (!result.ok) return result.failure;
  return flash(request, 'UPI reference received. The organiser will verify your payment.', `/payment?rid=${registration.rid}`);
}

export default function Payment() {
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<FormFailure>();
  if (!page.found) {
    return (
      <section className="form-page player-page" aria-labelledby="payment-title">
        <h1 id="payment-title">Payment</h1>
        <p className="notice" role="alert">
          {page.message}
        </p>
        <p className="form-actions">
          <Link className="button" to="/tournaments">
            Find a tournament
          </Link>
          <Link className="button button-secondary" to="/my-tournaments">
            My Tournaments
          </Link>
        </p>
      </section>
    );
  }

  const canSubmit = !page.free && page.status !== 'verified' && !page.notPlaced;
  const upi = page.status !== 'verified' ? page.upi : null;
  // A UTR is in: the organiser has something to check (issue 19: the status comes first, then the reference).
  const sent = page.reference !== '';
  const values = actionData?.values ?? {};
  const errors = actionData?.fieldErrors ?? {};
  return (
    <section className="form-page player-page" aria-labelledby="payment-title">
      <h1 id="payment-title">Pay the entry fee</h1>
      <p className="pay-for">
        <strong>{page.teamName}</strong> in <Link to={`/tournaments/${page.tid}`}>{page.tournamentName}</Link>
      </p>
      <p className="team-place">
        <span className="visually-hidden">State: </span>
        <PlaceBadge view={page.state} />
      </p>
      {page.notPlaced ? (
        <p className="notice" role="status">
          {page.notPlaced}
        </p>
      ) : null}

      {page.notPlaced ? null : page.free ? (
        <p className="notice pay-free" role="status">
          This tournament is free: no payment needed. Your team is registered.
        </p>
      ) : (
        <>
          <div className={`pay-status pay-status-${page.status}`} role="status">
            <p>
              Payment status: <strong>{page.statusLabel}</strong>
            </p>
            {page.statusDetail ? <p>{page.statusDetail}</p> : null}
            {page.reference ? <p className="fine">UPI reference: {page.reference}</p> : null}
          </div>

          {/* Before a UTR is sent: pay, then send it. After: the status and the reference first; paying again is below. */}
          {upi && !sent ? <PayBox upi={upi} amount={page.amount} /> : null}

          {canSubmit ? (
            <section className="pay-reference" aria-labelledby="pay-ref-title">
              <h2 id="pay-ref-title">{page.reference ? 'Correct your UPI reference' : 'After paying: send your UPI reference'}</h2>
              <ErrorSummary fieldErrors={errors} formError={actionData?.formError} order={['upiReference']} />
              <Form method="post" action={`/payment?rid=${page.rid}`} className="form" noValidate>
                <TextField
                  name="upiReference"
                  label="UPI reference (UTR)"
                  hint="The 12-digit number in your UPI app’s payment details: “UPI Ref. No.”, “UTR” or “UPI transaction ID”. Spaces and dashes are fine."
                  error={errors.upiReference}
                  defaultValue={values.upiReference ?? page.reference}
                  autoComplete="off"
                  spellCheck={false}
                  inputMode="numeric"
                  maxLength={40}
                  required
                />
                <SubmitButton pendingLabel="Sending…">{page.reference ? 'Update reference' : 'Send reference'}</SubmitButton>
              </Form>
            </section>
          ) : null}

          {upi && sent ? (
            <section className="pay-again" aria-labelledby="pay-again-title">
              <h2 id="pay-again-title">Pay again or pay another amount</h2>
              <PayBox upi={upi} amount={page.amount} />
            </section>
          ) : null}

          {page.screenshotForm ? (
            <p>
              Or upload your payment screenshot:{' '}
              <a href={page.screenshotForm} target="_blank" rel="noopener noreferrer">
                payment screenshot form (opens in a new tab)
              </a>
            </p>
          ) : null}
        </>
      )}

      <p className="form-actions">
        <Link className="button button-secondary" to={`/my-tournaments/${page.tid}/info`}>
          Tournament details
        </Link>
        <Link className="button button-secondary" to={`/team/${page.tid}`}>
          View Team
        </Link>
      </p>
    </section>
  );
}

type PayUpi = { uri: string; qr: string; vpa: string; payeeName: string; note: string };

/** The UPI QR (250 × 250) and the same payment as a link for a phone, which cannot scan its own screen. */
function PayBox({ upi, amount }: { upi: PayUpi; amount: string }) {
  return (
    <div className="pay-box">
      <p className="pay-amount">
        <span className="visually-hidden">Amount: </span>
        {amount}
      </p>
      <img className="pay-qr" src={upi.qr} width={QR_SIZE} height={QR_SIZE} alt={`UPI QR code: pay ${amount} to ${upi.payeeName}`} />
      <p className="fine">Scan with any UPI app (Google Pay, PhonePe, Paytm, BHIM).</p>
      <p>
        <a className="button pay-app" href={upi.uri}>
          Pay with UPI app
        </a>
      </p>
      <dl className="kv pay-facts">
        <div>
          <dt>UPI ID</dt>
          <dd className="mono">{upi.vpa}</dd>
        </div>
        <div>
          <dt>Payee</dt>
          <dd>{upi.payeeName}</dd>
        </div>
        <div>
          <dt>Note</dt>
          <dd className="mono">{upi.note}</dd>
        </div>
      </dl>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
