import { redirect, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { MATCH_MINUTES_MAX, DISPUTE_MINUTES_MAX } from '@custom-room/contract/constants';
import { GeneralErrorBoundary } from '~/components/error-page';
import { ErrorSummary } from '~/components/ui/error-summary';
import { SubmitButton } from '~/components/ui/submit-button';
import { TextField } from '~/components/ui/text-field';
import { requireRight } from '~/utils/desk.server';
import type { FormFailure } from '~/utils/forms.server';
import { loadReportSettings, lobbyKeyOf, lobbyPath, saveReportSettings } from '~/utils/lobby-reports.server';
import '~/styles/screens.css';

/**
 * Issue 30 (decision 075): /admin/:id/reports. With ?day=&match=&group= (the stage page's match picker, a
 * GET form) it sends the staff on to that group-match's lobby view. Without, the owner and co-organisers'
 * report settings: the match length per stage (when reminders go out) and the dispute window.
 */

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Report settings${data ? `: ${data.t.name}` : ''} | Admin | Custom Room` },
  { name: 'robots', content: 'noindex' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const q = new URL(request.url).searchParams;
  if (q.has('day') || q.has('match')) {
    await requireRight(request, params.tournamentId, 'lobby');
    throw redirect(lobbyPath(lobbyKeyOf(request, { ...params, day: q.get('day') ?? '', match: q.get('match') ?? '' })));
  }
  const { tournamentId } = await requireRight(request, params.tournamentId, 'run');
  return loadReportSettings(request, tournamentId);
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { tournamentId } = await requireRight(request, params.tournamentId, 'run');
  return saveReportSettings(request, tournamentId);
}

export default function ReportSettings() {
  const { t, settings, stages } = useLoaderData<typeof loader>();
  const failure = useActionData<FormFailure>();
  const errors = failure?.fieldErrors ?? {};
  const value = (name: string, saved: number) => failure?.values[name] ?? String(saved);
  const stageFields = stages.map((s) => s.input);
  return (
    <section className="ops-page" aria-labelledby="rs-title">
      <p className="crumb">
        <Link to={`/admin/${t.id}`}>{t.name}</Link>
      </p>
      <h1 id="rs-title">Report settings</h1>
      <p className="fine">
        Captains report each group-match from its start. Teams that have not reported are reminded 10 minutes after the match’s expected end
        (its time plus the match length). Confirmed results can be disputed for the dispute window.
      </p>
      <Form method="post" className="ops-form" noValidate key={failure ? `failed-${JSON.stringify(failure)}` : JSON.stringify(settings)}>
        <ErrorSummary fieldErrors={errors} formError={failure?.formError} order={['matchMinutes', 'disputeMinutes', ...stageFields]} />
        <TextField
          name="disputeMinutes"
          label="Dispute window (minutes)"
          hint={`0 to ${DISPUTE_MINUTES_MAX}; 0: results are final once confirmed.`}
          inputMode="numeric"
          autoComplete="off"
          defaultValue={value('disputeMinutes', settings.disputeMinutes)}
          error={errors.disputeMinutes}
        />
        <TextField
          name="matchMinutes"
          label="Match length (minutes)"
          hint={`5 to ${MATCH_MINUTES_MAX}; for stages not set below.`}
          inputMode="numeric"
          autoComplete="off"
          defaultValue={value('matchMinutes', settings.matchMinutes)}
          error={errors.matchMinutes}
        />
        {stages.map((s) => (
          <TextField
            key={s.stageId}
            name={s.input}
            label={`Match length in ${s.name} (minutes)`}
            inputMode="numeric"
            autoComplete="off"
            defaultValue={value(s.input, s.matchMinutes)}
            error={errors[s.input]}
          />
        ))}
        <SubmitButton pendingLabel="Saving…">Save report settings</SubmitButton>
      </Form>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
