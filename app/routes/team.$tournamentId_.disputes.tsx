import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { Dashboard } from '~/components/dashboard-nav';
import { GeneralErrorBoundary } from '~/components/error-page';
import { DisputeForm } from '~/components/reports/dispute-form';
import { DisputeList } from '~/components/reports/dispute-list';
import { DISPUTE_FIELDS, loadDisputesPage, submitDispute } from '~/utils/disputes.server';
import type { FormFailure } from '~/utils/forms.server';
import { SCREENSHOT_NAME_VALUE } from '~/utils/reports.server';
import { requireTournamentId } from '~/utils/route-params.server';
import { requireUser } from '~/utils/session.server';
import '~/styles/screens.css';
import '~/styles/reports.css';

/** Issue 30 (decision 074): a team's disputes, and disputing a row of a confirmed match (?day=&match=&group=&team=). */

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Disputes: ${data.teamName} | ${data.t.name} | Custom Room` : 'Disputes | Custom Room' },
  { name: 'robots', content: 'noindex' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = requireTournamentId(params.tournamentId);
  await requireUser(request);
  return loadDisputesPage(request, id);
}

export async function action({ request, params }: ActionFunctionArgs) {
  const id = requireTournamentId(params.tournamentId);
  await requireUser(request);
  return submitDispute(request, id);
}

export default function DisputesPage() {
  const { t, teamName, disputes, form, action } = useLoaderData<typeof loader>();
  const failure = useActionData<FormFailure>();
  return (
    <Dashboard>
      <section className="disputes-page" aria-labelledby="disputes-title">
        <p className="crumb">
          <Link to={`/team/${t.id}`}>{teamName}</Link> · <Link to={`/tournaments/${t.id}`}>{t.name}</Link>
        </p>
        <h1 id="disputes-title">Disputes</h1>
        {form && !form.open ? (
          <p className="notice" role="alert">
            {form.message}
          </p>
        ) : null}
        {form?.open ? (
          <DisputeForm
            action={action}
            day={form.day}
            match={form.match}
            group={form.group}
            title={form.title}
            teams={form.teams}
            team={form.team}
            values={failure?.values}
            fieldErrors={failure?.fieldErrors}
            formError={failure?.formError}
            chosenBefore={failure?.values[SCREENSHOT_NAME_VALUE]}
            order={DISPUTE_FIELDS}
          />
        ) : null}
        <h2>Your team’s disputes</h2>
        <DisputeList disputes={disputes} />
        <p className="fine">To dispute a result, open the match from your team page once the lobby staff have confirmed it.</p>
      </section>
    </Dashboard>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
