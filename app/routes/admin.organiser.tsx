import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-page';
import { OrganiserFields } from '~/components/organiser-fields';
import { ErrorSummary } from '~/components/ui/error-summary';
import { Field } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { requireDesk } from '~/utils/desk.server';
import { pageError } from '~/utils/errors.server';
import type { FormFailure } from '~/utils/forms.server';
import { gateway } from '~/utils/gateway.server';
import { LOGO_SIZE, logoSrc } from '~/utils/images';
import {
  LOGO_NAME_VALUE,
  NO_ORGANISER,
  ORGANISER_FORM_FIELDS,
  ORGANISER_SAVE_FAILED,
  ORGANISER_SAVED,
  organiserFormRules,
  organiserSlugFor,
  organiserValues,
  submitOrganiserForm,
} from '~/utils/organiser-form.server';
import { flash } from '~/utils/session.server';

/** Issue 29 (decision 068): an approved organiser edits its public page (a site admin any organiser's, with ?slug=). */

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Edit ${data.name} | Custom Room` : 'Your organiser page | Custom Room' },
  { name: 'robots', content: 'noindex' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export async function loader({ request }: LoaderFunctionArgs) {
  const desk = await requireDesk(request);
  const { slug, chosen } = await organiserSlugFor(request, desk);
  const o = await gateway.call(request, 'getOrganiser', { params: { slug } }).catch((err) => pageError(err, NO_ORGANISER));
  return {
    slug,
    name: o.name,
    /** A site admin's ?slug= stays in the form's address. */
    action: chosen ? `/admin/organiser?${new URLSearchParams({ slug })}` : '/admin/organiser',
    approved: o.status === 'approved',
    logoUrl: logoSrc(o.logoUrl),
    values: organiserValues(o),
    rules: organiserFormRules(),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const desk = await requireDesk(request);
  const { slug, chosen } = await organiserSlugFor(request, desk);
  const result = await submitOrganiserForm(request, slug);
  if (!result.ok) return result.failure;
  // Post/Redirect/Get: to the public page it changed, or back here while the page is not public yet.
  const back = chosen ? `/admin/organiser?${new URLSearchParams({ slug })}` : '/admin/organiser';
  return flash(request, ORGANISER_SAVED, result.value.status === 'approved' ? `/organisers/${slug}` : back);
}

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

export default function EditOrganiser() {
  const { slug, name, action, approved, logoUrl, values: saved, rules } = useLoaderData<typeof loader>();
  const failure = useActionData<FormFailure>();
  const values = failure?.values ?? saved;
  const errors = failure?.fieldErrors ?? {};
  const chosenBefore = failure?.values[LOGO_NAME_VALUE];
  return (
    <section className="admin-page" aria-labelledby="edit-organiser-title">
      <h1 id="edit-organiser-title">Your organiser page</h1>
      <p className="form-intro">
        <strong>{name}</strong>
        {approved ? (
          <>
            {' '}
            · <Link to={`/organisers/${slug}`}>View public page</Link>
          </>
        ) : (
          ' · not public yet: a site admin has not approved it.'
        )}
      </p>
      <ErrorSummary fieldErrors={errors} formError={failure?.formError} order={ORGANISER_FORM_FIELDS} title={ORGANISER_SAVE_FAILED} />
      <Form method="post" action={action} encType="multipart/form-data" className="form admin-form" noValidate>
        <OrganiserFields value={(n) => values[n] ?? ''} errors={errors} slugFixed={slug} />
        <fieldset className="form-group">
          <legend>Logo</legend>
          {logoUrl ? (
            <figure className="admin-logo">
              <img src={logoUrl} alt="Current logo" width={LOGO_SIZE} height={LOGO_SIZE} />
              <figcaption className="field-hint">The current logo stays unless you choose a new image or remove it.</figcaption>
            </figure>
          ) : (
            <p className="field-hint">No logo yet: your name shows on its own.</p>
          )}
          <Field
            id="logo"
            label={logoUrl ? 'New logo (optional)' : 'Logo (optional)'}
            hint={`An image file (JPEG, PNG, WebP, GIF or AVIF) of at most ${megabytes(rules.logo.maxBytes)}, at least 200×100 pixels; a square one looks best. It shows 64 pixels wide.`}
            error={errors.logo}
          >
            {(control) => <input type="file" name="logo" accept="image/*" {...control} />}
          </Field>
          {chosenBefore ? (
            <p className="notice cover-again">
              You had chosen <strong>{chosenBefore}</strong>, but a browser cannot keep a chosen file when a form comes back: please choose
              the image again.
            </p>
          ) : null}
          {logoUrl ? (
            <div className={errors.removeLogo ? 'field field-invalid' : 'field'}>
              <label className="check-row" htmlFor="removeLogo">
                <input
                  type="checkbox"
                  id="removeLogo"
                  name="removeLogo"
                  value="on"
                  defaultChecked={values.removeLogo === 'on'}
                  aria-invalid={errors.removeLogo ? true : undefined}
                  aria-describedby={errors.removeLogo ? 'removeLogo-error' : undefined}
                />{' '}
                Remove the current logo
              </label>
              {errors.removeLogo ? (
                <p className="field-error" id="removeLogo-error">
                  <span aria-hidden="true">⚠ </span>
                  {errors.removeLogo}
                </p>
              ) : null}
            </div>
          ) : null}
        </fieldset>
        <SubmitButton pendingLabel="Saving…">Save page</SubmitButton>
      </Form>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
