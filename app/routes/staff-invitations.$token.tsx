import { type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { STAFF_ROLE_LABELS } from '@custom-room/contract';
import { GeneralErrorBoundary } from '~/components/error-page';
import { SubmitButton } from '~/components/ui/submit-button';
import { pageError } from '~/utils/errors.server';
import { submitToGateway, type FormFailure } from '~/utils/forms.server';
import { gateway } from '~/utils/gateway.server';
import { flash, requireUser } from '~/utils/session.server';
import '~/styles/screens.css';

/**
 * Issue 29 (decision 065): the link a staff invitation's notification opens. Signed in as the invited
 * account, the page names the tournament and the role, and one button accepts (a form post: works
 * without JavaScript). Any other account, or a withdrawn invitation, is told so.
 */

export const INVITATION_GONE = 'This invitation is no longer open: ask the organiser for a new one.';
const ACCEPT_FAILED = 'We could not accept the invitation. Please try again.';
const TOKEN = /^[A-Za-z0-9_-]{20,64}$/;

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export const meta: MetaFunction = () => [{ title: 'Staff invitation | Custom Room' }, { name: 'robots', content: 'noindex' }];

function tokenOf(raw: string | undefined): string {
  if (!raw || !TOKEN.test(raw)) throw data({ message: INVITATION_GONE }, { status: 404 });
  return raw;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const token = tokenOf(params.token);
  const user = await requireUser(request);
  const desk = await gateway.call(request, 'desk', {}).catch((err) => pageError(err));
  const invitation = desk.invitations.find((i) => i.token === token);
  if (!invitation) throw data({ message: INVITATION_GONE }, { status: 404 });
  return {
    username: user.username,
    tournamentId: invitation.tournamentId,
    tournamentName: invitation.tournamentName,
    role: STAFF_ROLE_LABELS[invitation.role],
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const token = tokenOf(params.token);
  await requireUser(request);
  const result = await submitToGateway(() => gateway.call(request, 'acceptInvitation', { params: { token } }), {
    values: {},
    fields: [],
    fallback: ACCEPT_FAILED,
  });
  if (!result.ok) return result.failure;
  const { tournamentId, tournamentName, role } = result.value;
  return flash(request, `You joined the crew of ${tournamentName} as ${STAFF_ROLE_LABELS[role].toLowerCase()}.`, `/admin/${tournamentId}`);
}

export default function StaffInvitation() {
  const page = useLoaderData<typeof loader>();
  const failure = useActionData<FormFailure>();
  return (
    <article className="prose-page" aria-labelledby="inv-title">
      <h1 id="inv-title">Join the crew of {page.tournamentName}</h1>
      <p>
        You are invited to help run <Link to={`/tournaments/${page.tournamentId}`}>{page.tournamentName}</Link> as{' '}
        <strong>{page.role.toLowerCase()}</strong>. You are signed in as {page.username}.
      </p>
      <p className="fine">A crew member does not play in the tournament: you cannot register a team in it while you are on its crew.</p>
      {failure?.formError ? (
        <p className="notice" role="alert">
          {failure.formError}
        </p>
      ) : null}
      <Form method="post">
        <SubmitButton>Accept the invitation</SubmitButton>
      </Form>
    </article>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
