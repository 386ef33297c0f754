import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { NO_TEAM_REGISTERED } from '@custom-room/contract/constants';
import { Dashboard } from '~/components/dashboard-nav';
import { GeneralErrorBoundary } from '~/components/error-page';
import { PlaceBadge } from '~/components/place-badge';
import { SubmitButton } from '~/components/ui/submit-button';
import { getEnv } from '~/utils/env.server';
import { pageError } from '~/utils/errors.server';
import { submitToGateway, type FormFailure } from '~/utils/forms.server';
import { gateway } from '~/utils/gateway.server';
import { mayWithdraw, placeView, REFUND_NOTE, withdrawLabel } from '~/utils/places';
import { requireTournamentId } from '~/utils/route-params.server';
import { flash, requireUser } from '~/utils/session.server';
import '~/styles/screens.css';
import '~/styles/places.css';

const WITHDRAW_FAILED = 'We could not withdraw your team. Please try again.';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Withdraw ${data.teamName} | Custom Room` : 'Withdraw team | Custom Room' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

async function load(request: Request, id: number) {
  const [t, team] = await Promise.all([gateway.getTournament(request, id), gateway.myTeam(request, id)]).catch((err) =>
    pageError(err, NO_TEAM_REGISTERED),
  );
  const nowMs = Date.now();
  return {
    t: { id: t.id, name: t.name },
    teamName: team.teamName,
    state: placeView(team, { timeZone: getEnv().APP_TIME_ZONE, free: t.entryFee <= 0, nowMs }),
    paid: t.entryFee > 0 && team.paymentStatus === 'verified',
    open: mayWithdraw(team.place, t, nowMs),
    // A waitlisted team may leave after registration closes (decision 043); registering again may not.
    registrationOpen: mayWithdraw('placed', t, nowMs),
  };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = requireTournamentId(params.tournamentId);
  await requireUser(request);
  return load(request, id);
}

export async function action({ request, params }: ActionFunctionArgs) {
  const id = requireTournamentId(params.tournamentId);
  await requireUser(request);
  const result = await submitToGateway(() => gateway.withdrawTeam(request, id), { values: {}, fields: [], fallback: WITHDRAW_FAILED });
  if (!result.ok) return result.failure;
  const { teamName, paid, placedAt } = result.value;
  // A team that never had a place (placedAt is set only when it gets one) left the waitlist.
  const done = placedAt ? `${teamName} has withdrawn.` : `${teamName} has left the waitlist.`;
  return flash(request, `${done}${paid ? ` ${REFUND_NOTE}` : ''}`, `/team/${id}`);
}

export default function WithdrawTeam() {
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<FormFailure>();
  const waiting = page.state.place === 'waitlist';
  return (
    <Dashboard>
      <section className="team-page" aria-labelledby="withdraw-title">
        <p className="crumb">
          <Link to={`/tournaments/${page.t.id}`}>{page.t.name}</Link>
        </p>
        <h1 id="withdraw-title">{waiting ? `${page.teamName}: leave the waitlist?` : `Withdraw ${page.teamName}?`}</h1>
        <p className="team-place">
          <span className="visually-hidden">State: </span>
          <PlaceBadge view={page.state} />
        </p>
        {actionData?.formError ? (
          <p className="notice" role="alert">
            {actionData.formError}
          </p>
        ) : null}
        {page.open ? (
          <>
            <p>
              {waiting ? `Your team leaves the waitlist of ${page.t.name}.` : `Your team gives up its place in ${page.t.name}.`} The team
              name and the players’ names become free for other teams.
            </p>
            {page.paid ? (
              <p className="notice" role="note">
                {REFUND_NOTE}
              </p>
            ) : null}
            {page.registrationOpen ? <p>While registration is open you can register again, if a place is free.</p> : null}
            <Form method="post" className="form-actions">
              <SubmitButton className="button button-danger" pendingLabel={waiting ? 'Leaving…' : 'Withdrawing…'}>
                {withdrawLabel(page.state.place)}
              </SubmitButton>
              <Link className="button button-secondary" to={`/team/${page.t.id}`}>
                {waiting ? 'Stay on the waitlist' : 'Keep my team'}
              </Link>
            </Form>
          </>
        ) : (
          <>
            <p className="notice" role="status">
              {waiting
                ? 'The tournament is over or cancelled: the waitlist no longer moves.'
                : page.state.active
                  ? 'Registration has closed: your team can no longer withdraw here. Talk to the organiser.'
                  : 'Your team has no place to give up.'}
            </p>
            <p className="form-actions">
              <Link className="button" to={`/team/${page.t.id}`}>
                Back to your team
              </Link>
            </p>
          </>
        )}
      </section>
    </Dashboard>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
