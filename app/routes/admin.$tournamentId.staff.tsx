import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { STAFF_ROLE_LABELS, STAFF_ROLES, StaffInviteSchema, type StaffRoleName } from '@custom-room/contract';
import { TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { GeneralErrorBoundary } from '~/components/error-page';
import { Field } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { TextField } from '~/components/ui/text-field';
import { requireDesk } from '~/utils/desk.server';
import { getEnv } from '~/utils/env.server';
import { pageError } from '~/utils/errors.server';
import { formatDateTime } from '~/utils/format';
import { formFailure, safeValues, submitToGateway, zodFieldErrors, type FormFailure } from '~/utils/forms.server';
import { gateway } from '~/utils/gateway.server';
import { requireTournamentId } from '~/utils/route-params.server';
import { flash } from '~/utils/session.server';
import '~/styles/screens.css';

/**
 * Issue 29 (decision 065): a tournament's crew. Its owner (and a site admin) invites an account by
 * username or email with a role (a lobby manager with its stages or groups) and removes members; a
 * co-organiser sees the list. Every form works without JavaScript.
 */

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Crew${data ? `: ${data.t.name}` : ''} | Admin | Custom Room` },
  { name: 'robots', content: 'noindex' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

const INVITE_FAILED = 'We could not send the invitation. Please try again.';
const REMOVE_FAILED = 'We could not remove this member. Please try again.';
const FIELDS = ['who', 'role', 'scopes'] as const;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const desk = await requireDesk(request);
  const tid = requireTournamentId(params.tournamentId);
  const [t, crew, stages] = await Promise.all([
    gateway.getTournament(request, tid),
    gateway.call(request, 'listStaff', { params: { id: tid } }),
    gateway.listStages(request, tid, { admin: true }),
  ]).catch((err) => pageError(err, TOURNAMENT_NOT_FOUND));
  // Its part, from the desk already read (no second call).
  const kind = desk.siteAdmin ? 'site-admin' : desk.kinds.get(tid);
  const timeZone = getEnv().APP_TIME_ZONE;
  return {
    t: { id: t.id, name: t.name },
    owner: crew.owner,
    manages: kind === 'site-admin' || kind === 'owner',
    staff: crew.staff.map((m) => ({
      userId: m.userId,
      username: m.username,
      role: STAFF_ROLE_LABELS[m.role],
      invited: m.status === 'invited',
      scope: m.scopes.map((s) => (s.groupName ? `${s.stageName} · Group ${s.groupName}` : `${s.stageName} (every group)`)).join(', '),
      since: formatDateTime(m.acceptedAt ?? m.invitedAt, timeZone),
    })),
    scopes: stages.flatMap((s) => [
      { value: String(s.id), label: `${s.name}: every group` },
      ...(s.groups ?? []).map((g) => ({ value: `${s.id}:${g.id}`, label: `${s.name} · Group ${g.name}` })),
    ]),
  };
}

/** "12" is a whole stage, "12:31" one group of it. */
function scopeOf(value: string) {
  const [stageId, groupId] = value.split(':').map(Number);
  return { stageId, ...(groupId ? { groupId } : {}) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireDesk(request);
  const tid = requireTournamentId(params.tournamentId);
  const form = await request.formData();
  const values = safeValues(form);
  if (form.get('intent') === 'remove') {
    const userId = Number(form.get('userId'));
    if (!Number.isInteger(userId) || userId <= 0) return formFailure({ values, formError: REMOVE_FAILED });
    const done = await submitToGateway(() => gateway.call(request, 'removeStaff', { params: { id: tid, userId } }), {
      values,
      fields: [],
      fallback: REMOVE_FAILED,
    });
    if (!done.ok) return done.failure;
    return flash(request, 'Removed from the crew: their next request has no right left.', `/admin/${tid}/staff`);
  }
  const scopes = form.getAll('scope').filter((v): v is string => typeof v === 'string' && /^\d+(:\d+)?$/.test(v));
  const parsed = StaffInviteSchema.safeParse({
    who: form.get('who') ?? '',
    role: form.get('role') ?? '',
    ...(scopes.length > 0 ? { scopes: scopes.map(scopeOf) } : {}),
  });
  if (!parsed.success) {
    const { fieldErrors, formError } = zodFieldErrors(parsed.error);
    return formFailure({ values, fieldErrors, formError });
  }
  const sent = await submitToGateway(() => gateway.call(request, 'inviteStaff', { params: { id: tid }, body: parsed.data }), {
    values,
    fields: FIELDS,
    fallback: INVITE_FAILED,
    rename: { 'scopes.0.stageId': 'scopes', 'scopes.0.groupId': 'scopes' },
  });
  if (!sent.ok) return sent.failure;
  return flash(
    request,
    `Invited ${parsed.data.who} as ${STAFF_ROLE_LABELS[parsed.data.role].toLowerCase()}. They were notified; you can also send them this link: /staff-invitations/${sent.value.token}`,
    `/admin/${tid}/staff`,
  );
}

export default function Crew() {
  const { t, owner, staff, scopes, manages } = useLoaderData<typeof loader>();
  const failure = useActionData<FormFailure>();
  const value = (name: string) => failure?.values[name] ?? '';
  return (
    <section className="ops-page" aria-labelledby="crew-title">
      <p className="crumb">
        <Link to={`/admin/${t.id}`}>{t.name}</Link>
      </p>
      <h1 id="crew-title">Crew</h1>
      <p>
        Run by <Link to={`/organisers/${owner.organiser.slug}`}>{owner.organiser.name}</Link>
        {owner.username ? ` (owner: ${owner.username})` : ''}.
      </p>
      {failure?.formError ? (
        <p className="notice" role="alert">
          {failure.formError}
        </p>
      ) : null}
      {staff.length === 0 ? (
        <p className="nothing">Nobody else is on the crew yet.</p>
      ) : (
        <ul className="ops-crew" aria-label="Crew members">
          {staff.map((m) => (
            <li key={m.userId}>
              <span>
                <strong>{m.username}</strong>: {m.role}
                {m.scope ? ` (${m.scope})` : ''}
                <span className="fine">
                  {' '}
                  · {m.invited ? 'invited' : 'joined'} {m.since}
                </span>
              </span>
              {manages ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="remove" />
                  <input type="hidden" name="userId" value={m.userId} />
                  <SubmitButton className="button button-secondary">
                    {m.invited ? 'Withdraw' : 'Remove'}
                    <span className="visually-hidden"> {m.username}</span>
                  </SubmitButton>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {manages ? (
        <Form method="post" className="ops-form" aria-labelledby="invite-title">
          <h2 id="invite-title">Invite to the crew</h2>
          <input type="hidden" name="intent" value="invite" />
          <TextField
            name="who"
            label="Username or email"
            hint="They need an account on the site."
            autoComplete="off"
            required
            defaultValue={value('who')}
            error={failure?.fieldErrors.who}
          />
          <Field id="role" label="Role" error={failure?.fieldErrors.role}>
            {(control) => (
              <select name="role" defaultValue={value('role') || 'payments'} {...control}>
                {STAFF_ROLES.map((r: StaffRoleName) => (
                  <option key={r} value={r}>
                    {STAFF_ROLE_LABELS[r]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {scopes.length > 0 ? (
            <fieldset className="ops-scopes" aria-describedby={failure?.fieldErrors.scopes ? 'scopes-error' : undefined}>
              <legend>Stages or groups (lobby managers only)</legend>
              {scopes.map((s) => (
                <label key={s.value} className="check">
                  <input type="checkbox" name="scope" value={s.value} /> {s.label}
                </label>
              ))}
              {failure?.fieldErrors.scopes ? (
                <p className="field-error" id="scopes-error">
                  <span aria-hidden="true">⚠ </span>
                  {failure.fieldErrors.scopes}
                </p>
              ) : null}
            </fieldset>
          ) : (
            <p className="fine">A lobby manager runs chosen stages or groups: add the stages first.</p>
          )}
          <SubmitButton>Send the invitation</SubmitButton>
        </Form>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
