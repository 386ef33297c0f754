import { type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { OrganiserBodySchema } from '@custom-room/contract';
import { GeneralErrorBoundary } from '~/components/error-page';
import { ORGANISER_FIELDS, OrganiserFields } from '~/components/organiser-fields';
import { ErrorSummary } from '~/components/ui/error-summary';
import { SubmitButton } from '~/components/ui/submit-button';
import { pageError } from '~/utils/errors.server';
import { formFailure, safeValues, submitToGateway, zodFieldErrors, type FormFailure } from '~/utils/forms.server';
import { gateway } from '~/utils/gateway.server';
import { flash, isAdmin, requireUser } from '~/utils/session.server';
import '~/styles/screens.css';

/**
 * Issue 29 (decision 065): a signed-in player applies to organise (the organisation's name and a contact;
 * an address for its page, an about and its links if it likes). A site admin approves it on
 * /admin/organisers. An account that already has an organiser is told where it stands instead.
 */

export const APPLY_FAILED = 'We could not send your application. Your details are kept: please try again.';
export const APPLIED = 'Thanks: your application is in. A site admin will look at it and you will be told here on the site.';

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export const meta: MetaFunction = () => [
  { title: 'Organise tournaments | Custom Room' },
  { name: 'description', content: 'Run your BGMI and Free Fire tournaments on Custom Room: apply to organise.' },
];

const STATUS_WORDS = {
  pending: 'Your application is waiting for a site admin.',
  approved: 'You organise on Custom Room.',
  withdrawn: 'A site admin has withdrawn your organiser role. Write to the site to ask why.',
} as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const desk = await gateway.call(request, 'desk', {}).catch((err) => pageError(err));
  const mine = desk.organiser && !desk.organiser.isSite ? desk.organiser : null;
  return {
    siteAdmin: isAdmin(user),
    mine: mine ? { slug: mine.slug, name: mine.name, status: mine.status, words: STATUS_WORDS[mine.status] } : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const form = await request.formData();
  const values = safeValues(form);
  const entries = Object.fromEntries(ORGANISER_FIELDS.map((name) => [name, values[name] ?? '']));
  const parsed = OrganiserBodySchema.omit({ owner: true }).safeParse(entries);
  if (!parsed.success) return formFailure({ values, ...zodFieldErrors(parsed.error) });
  const sent = await submitToGateway(() => gateway.call(request, 'applyOrganiser', { body: parsed.data }), {
    values,
    fields: ORGANISER_FIELDS,
    fallback: APPLY_FAILED,
  });
  if (!sent.ok) return sent.failure;
  const organiser = sent.value;
  return flash(
    request,
    organiser.status === 'approved' ? `${organiser.name} is an organiser now.` : APPLIED,
    `/organisers/${organiser.slug}`,
  );
}

export default function ApplyToOrganise() {
  const { mine, siteAdmin } = useLoaderData<typeof loader>();
  const failure = useActionData<FormFailure>();
  const value = (name: string) => failure?.values[name] ?? '';
  if (mine) {
    return (
      <section className="form-page" aria-labelledby="apply-title">
        <h1 id="apply-title">Organise tournaments</h1>
        <p role="status">
          <strong>{mine.name}</strong>: {mine.words}
        </p>
        <ul className="org-links">
          <li>
            <Link to={`/organisers/${mine.slug}`}>Your organiser page</Link>
          </li>
          {mine.status === 'approved' ? (
            <li>
              <Link to="/admin/add-tournament">Add a tournament</Link>
            </li>
          ) : null}
        </ul>
      </section>
    );
  }
  return (
    <section className="form-page" aria-labelledby="apply-title">
      <h1 id="apply-title">Organise tournaments</h1>
      <p className="form-intro">
        Run your own BGMI and Free Fire tournaments here: registrations, UPI payments, rooms and points tables, with a crew to help you.
        Tell us who you are; a site admin approves organisers, usually within a day.
      </p>
      {siteAdmin ? (
        <p className="fine">
          You are a site admin: you can already run tournaments. To make another account an organiser, approve its application on{' '}
          <Link to="/admin/organisers">Organisers</Link>.
        </p>
      ) : null}
      <ErrorSummary fieldErrors={failure?.fieldErrors} formError={failure?.formError} order={ORGANISER_FIELDS} />
      <Form method="post" className="form" noValidate>
        <OrganiserFields value={value} errors={failure?.fieldErrors} />
        <SubmitButton pendingLabel="Sending…">Send the application</SubmitButton>
      </Form>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
