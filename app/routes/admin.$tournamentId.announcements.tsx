import { type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { AnnouncementBodySchema, standingAllows } from '@custom-room/contract';
import { ANNOUNCEMENT_MAX, TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { AnnouncementList } from '~/components/announcements';
import { GeneralErrorBoundary } from '~/components/error-page';
import { ErrorSummary } from '~/components/ui/error-summary';
import { Field } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { TextAreaField } from '~/components/ui/text-field';
import { announcementView } from '~/utils/announcements';
import { requireDesk } from '~/utils/desk.server';
import { getEnv } from '~/utils/env.server';
import { pageError } from '~/utils/errors.server';
import { formFailure, safeValues, submitToGateway, zodFieldErrors, type FormFailure } from '~/utils/forms.server';
import { gateway } from '~/utils/gateway.server';
import { requireTournamentId } from '~/utils/route-params.server';
import { flash } from '~/utils/session.server';
import '~/styles/screens.css';

/**
 * Issue 29 (decision 065): the crew's announcements ("Group C delayed 15 minutes"). The owner and
 * co-organisers post to the tournament, a stage or a group; a lobby manager to its own groups (the
 * audiences it is offered are those; the gateway refuses any other). The message reaches its audience
 * on the site, by email and by push, and stays listed on the tournament's and the group's pages.
 */

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Announcements${data ? `: ${data.t.name}` : ''} | Admin | Custom Room` },
  { name: 'robots', content: 'noindex' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export const POST_FAILED = 'We could not post the announcement. Your message is kept: please try again.';
export const NOT_YOURS = 'Only the organiser and the crew who run its lobbies post announcements to this tournament.';
const FIELDS = ['audience', 'body'] as const;

/** "" is the whole tournament, "s12" a stage (every group of it), "g31" one group. */
function audienceBody(value: string): { stageId?: number; groupId?: number } | null {
  if (value === '') return {};
  const m = /^([sg])(\d{1,9})$/.exec(value);
  if (!m) return null;
  return m[1] === 's' ? { stageId: Number(m[2]) } : { groupId: Number(m[2]) };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const desk = await requireDesk(request);
  const tid = requireTournamentId(params.tournamentId);
  const [t, stages, posted, me] = await Promise.all([
    gateway.getTournament(request, tid),
    gateway.listStages(request, tid, { admin: true }),
    gateway.call(request, 'listAnnouncements', { params: { id: tid } }, { auth: false }),
    desk.siteAdmin
      ? Promise.resolve({ kind: 'site-admin' as const, scopes: [] })
      : gateway.call(request, 'myStanding', { params: { id: tid } }),
  ]).catch((err) => pageError(err, TOURNAMENT_NOT_FOUND));
  if (!standingAllows(me.kind, 'lobby')) throw data({ message: NOT_YOURS }, { status: 403 });
  const lobby = me.kind === 'lobby';
  const wholeStage = (stageId: number) => !lobby || me.scopes.some((s) => s.stageId === stageId && s.groupId === null);
  const ownGroup = (stageId: number, groupId: number) => wholeStage(stageId) || me.scopes.some((s) => s.groupId === groupId);
  const audiences = [
    ...(lobby ? [] : [{ value: '', label: 'Everyone in the tournament' }]),
    ...stages.flatMap((s) => [
      ...(wholeStage(s.id) ? [{ value: `s${s.id}`, label: `${s.name}: every group` }] : []),
      ...(s.groups ?? []).filter((g) => ownGroup(s.id, g.id)).map((g) => ({ value: `g${g.id}`, label: `${s.name} · Group ${g.name}` })),
    ]),
  ];
  const timeZone = getEnv().APP_TIME_ZONE;
  return { t: { id: t.id, name: t.name }, audiences, posted: posted.map((a) => announcementView(a, timeZone)) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireDesk(request);
  const tid = requireTournamentId(params.tournamentId);
  const form = await request.formData();
  const values = safeValues(form);
  const audience = audienceBody(String(form.get('audience') ?? ''));
  if (!audience) return formFailure({ values, fieldErrors: { audience: 'Choose who the message is for.' } });
  const parsed = AnnouncementBodySchema.safeParse({ body: values.body ?? '', ...audience });
  if (!parsed.success) return formFailure({ values, ...zodFieldErrors(parsed.error) });
  const sent = await submitToGateway(() => gateway.call(request, 'postAnnouncement', { params: { id: tid }, body: parsed.data }), {
    values,
    fields: FIELDS,
    fallback: POST_FAILED,
    rename: { stageId: 'audience', groupId: 'audience' },
  });
  if (!sent.ok) return sent.failure;
  return flash(
    request,
    `Announced to ${sent.value.audience === 'Everyone' ? 'everyone' : sent.value.audience}.`,
    `/admin/${tid}/announcements`,
  );
}

export default function Announcements() {
  const { t, audiences, posted } = useLoaderData<typeof loader>();
  const failure = useActionData<FormFailure>();
  const value = (name: string) => failure?.values[name] ?? '';
  return (
    <section className="ops-page" aria-labelledby="ann-title">
      <p className="crumb">
        <Link to={`/admin/${t.id}`}>{t.name}</Link>
      </p>
      <h1 id="ann-title">Announcements</h1>
      {audiences.length === 0 ? (
        <p className="nothing">Your groups are not drawn yet: you can announce to them once they are.</p>
      ) : (
        // Keyed by what is posted: after a post the form starts empty again, with JavaScript too.
        <Form method="post" className="ops-form" aria-labelledby="ann-new" noValidate key={posted[0]?.id ?? 0}>
          <h2 id="ann-new">New announcement</h2>
          <ErrorSummary fieldErrors={failure?.fieldErrors} formError={failure?.formError} order={FIELDS} />
          <Field id="audience" label="To" error={failure?.fieldErrors.audience}>
            {(control) => (
              <select name="audience" defaultValue={value('audience') || audiences[0]!.value} {...control}>
                {audiences.map((a) => (
                  <option key={a.value} value={a.value}>
                    {a.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <TextAreaField
            name="body"
            label="Message"
            hint={`Up to ${ANNOUNCEMENT_MAX} characters, e.g. “Group C delayed 15 minutes”. Never a room ID or password: those go on the room card.`}
            rows={3}
            maxLength={ANNOUNCEMENT_MAX}
            required
            defaultValue={value('body')}
            error={failure?.fieldErrors.body}
          />
          <SubmitButton pendingLabel="Posting…">Post the announcement</SubmitButton>
          <p className="fine">
            It is listed on the tournament’s page (a group’s message on the group’s page) and sent to its audience on the site, by email and
            by push.
          </p>
        </Form>
      )}
      <section aria-labelledby="ann-posted">
        <h2 id="ann-posted">Posted</h2>
        {posted.length === 0 ? <p className="nothing">Nothing announced yet.</p> : <AnnouncementList items={posted} />}
      </section>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
