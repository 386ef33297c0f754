import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { OrganiserBodySchema, SLUG_PATTERN, type Organiser } from '@custom-room/contract';
import { GeneralErrorBoundary } from '~/components/error-page';
import { ErrorSummary } from '~/components/ui/error-summary';
import { SubmitButton } from '~/components/ui/submit-button';
import { TextField } from '~/components/ui/text-field';
import { pageError } from '~/utils/errors.server';
import { formFailure, safeValues, submitToGateway, zodFieldErrors, type FormFailure } from '~/utils/forms.server';
import { gateway } from '~/utils/gateway.server';
import { flash, requireAdmin } from '~/utils/session.server';
import '~/styles/screens.css';

/**
 * Issue 29 (decision 065): the site admin's list of organisers. Applications wait here to be approved
 * (or declined); an approved organiser can be withdrawn (it runs nothing from its next request) and a
 * withdrawn one approved again. A site admin can also make an account an organiser at once.
 * Site admins only: the gateway refuses everyone else whatever this page shows.
 */

export const meta: MetaFunction = () => [{ title: 'Organisers | Admin | Custom Room' }, { name: 'robots', content: 'noindex' }];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

const DECIDE_FAILED = 'We could not save that decision. Please try again.';
const CREATE_FAILED = 'We could not make that account an organiser. Please try again.';
const CREATE_FIELDS = ['owner', 'name', 'contact'] as const;

const row = (o: Organiser) => ({
  slug: o.slug,
  name: o.name,
  owner: o.ownerUsername ?? null,
  contact: o.contact ?? '',
  about: o.about,
  isSite: o.isSite,
});

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const list = (status: 'pending' | 'approved' | 'withdrawn') => gateway.call(request, 'listOrganisers', { query: { status } });
  const [pending, approved, withdrawn] = await Promise.all([list('pending'), list('approved'), list('withdrawn')]).catch((err) =>
    pageError(err),
  );
  return { pending: pending.map(row), approved: approved.map(row), withdrawn: withdrawn.map(row) };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const form = await request.formData();
  const values = safeValues(form);
  if (form.get('intent') === 'create') {
    const parsed = OrganiserBodySchema.safeParse({ owner: values.owner ?? '', name: values.name ?? '', contact: values.contact ?? '' });
    if (!parsed.success) return formFailure({ values, ...zodFieldErrors(parsed.error) });
    const made = await submitToGateway(() => gateway.call(request, 'applyOrganiser', { body: parsed.data }), {
      values,
      fields: CREATE_FIELDS,
      fallback: CREATE_FAILED,
    });
    if (!made.ok) return made.failure;
    return flash(request, `${made.value.name} is an organiser now (page /organisers/${made.value.slug}).`, '/admin/organisers');
  }
  const slug = String(form.get('slug') ?? '');
  const decision = form.get('decision');
  if (!SLUG_PATTERN.test(slug) || (decision !== 'approve' && decision !== 'withdraw')) {
    return formFailure({ values: {}, formError: DECIDE_FAILED });
  }
  const done = await submitToGateway(() => gateway.call(request, 'decideOrganiser', { params: { slug }, body: { decision } }), {
    values: {},
    fields: [],
    fallback: DECIDE_FAILED,
  });
  if (!done.ok) return done.failure;
  return flash(
    request,
    decision === 'approve'
      ? `${done.value.name} is approved: it can add tournaments now.`
      : `${done.value.name} is withdrawn: from its next request it runs nothing.`,
    '/admin/organisers',
  );
}

type Row = ReturnType<typeof row>;

function Decide({ o, decision, label }: { o: Row; decision: 'approve' | 'withdraw'; label: string }) {
  return (
    <Form method="post">
      <input type="hidden" name="slug" value={o.slug} />
      <input type="hidden" name="decision" value={decision} />
      <SubmitButton className={decision === 'approve' ? 'button' : 'button button-secondary'}>
        {label}
        <span className="visually-hidden"> {o.name}</span>
      </SubmitButton>
    </Form>
  );
}

function Who({ o }: { o: Row }) {
  return (
    <span>
      <Link to={`/organisers/${o.slug}`}>
        <strong>{o.name}</strong>
      </Link>
      <span className="fine">
        {o.owner ? ` · account ${o.owner}` : ''}
        {o.contact ? ` · contact ${o.contact}` : ''}
      </span>
      {o.about ? <span className="fine ops-org-about">{o.about}</span> : null}
    </span>
  );
}

export default function OrganisersAdmin() {
  const { pending, approved, withdrawn } = useLoaderData<typeof loader>();
  const failure = useActionData<FormFailure>();
  const value = (name: string) => failure?.values[name] ?? '';
  return (
    <section className="ops-page" aria-labelledby="orgs-title">
      <h1 id="orgs-title">Organisers</h1>
      {failure?.formError && !failure.values.intent ? (
        <p className="notice" role="alert">
          {failure.formError}
        </p>
      ) : null}
      <section aria-labelledby="orgs-pending">
        <h2 id="orgs-pending">Applications ({pending.length})</h2>
        {pending.length === 0 ? (
          <p className="nothing">No application is waiting.</p>
        ) : (
          <ul className="ops-crew" aria-label="Applications">
            {pending.map((o) => (
              <li key={o.slug}>
                <Who o={o} />
                <span className="ops-org-acts">
                  <Decide o={o} decision="approve" label="Approve" />
                  <Decide o={o} decision="withdraw" label="Decline" />
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="orgs-approved">
        <h2 id="orgs-approved">Approved ({approved.length})</h2>
        <ul className="ops-crew" aria-label="Approved organisers">
          {approved.map((o) => (
            <li key={o.slug}>
              <Who o={o} />
              {o.isSite ? <span className="fine">The site&rsquo;s own</span> : <Decide o={o} decision="withdraw" label="Withdraw" />}
            </li>
          ))}
        </ul>
      </section>
      {withdrawn.length > 0 ? (
        <section aria-labelledby="orgs-withdrawn">
          <h2 id="orgs-withdrawn">Withdrawn or declined ({withdrawn.length})</h2>
          <ul className="ops-crew" aria-label="Withdrawn organisers">
            {withdrawn.map((o) => (
              <li key={o.slug}>
                <Who o={o} />
                <Decide o={o} decision="approve" label="Approve again" />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <Form method="post" className="ops-form" aria-labelledby="orgs-create" noValidate>
        <h2 id="orgs-create">Make an account an organiser</h2>
        <p className="fine">Approved at once; the account owns the page and can add tournaments.</p>
        <input type="hidden" name="intent" value="create" />
        {failure?.values.intent === 'create' ? (
          <ErrorSummary fieldErrors={failure.fieldErrors} formError={failure.formError} order={CREATE_FIELDS} />
        ) : null}
        <TextField
          name="owner"
          label="Username or email"
          hint="They need an account on the site."
          autoComplete="off"
          autoCapitalize="none"
          required
          defaultValue={value('owner')}
          error={failure?.fieldErrors.owner}
        />
        <TextField name="name" label="Organisation name" required defaultValue={value('name')} error={failure?.fieldErrors.name} />
        <TextField
          name="contact"
          label="Contact"
          hint="A phone number or an email to reach them at."
          required
          defaultValue={value('contact')}
          error={failure?.fieldErrors.contact}
        />
        <SubmitButton>Make organiser</SubmitButton>
      </Form>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
