import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { MatchBodySchema } from '@custom-room/contract';
import { MAP_MAX, MATCH_DAY_MAX, MATCH_NO_MAX, ROOM_TEXT_MAX, TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { GeneralErrorBoundary } from '~/components/error-page';
import { ErrorSummary } from '~/components/ui/error-summary';
import { NumberedSelect } from '~/components/ui/numbered-select';
import { SubmitButton } from '~/components/ui/submit-button';
import { TextField } from '~/components/ui/text-field';
import { MATCH_FORM_FIELDS } from '~/utils/admin-forms';
import { requireRight } from '~/utils/desk.server';
import { pageError } from '~/utils/errors.server';
import { formatMatchTime } from '~/utils/format';
import { formFailure, gatewayFormErrors, zodFieldErrors, type FormFailure } from '~/utils/forms.server';
import { gateway, GatewayError, type Match } from '~/utils/gateway.server';
import { matchFormValues } from '~/utils/match-form.server';
import { flash } from '~/utils/session.server';
import '~/styles/screens.css';

const CREATED = 'Match created successfully';
const UPDATED = 'Match updated successfully';
const SAVE_FAILED = 'Failed to save match data';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Matches${data ? `: ${data.t.name}` : ''} | Admin | Custom Room` },
  { name: 'description', content: 'Set each match’s map, room ID, room password and time.' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

/** A whole number from the query string within 1..max, else null. */
function queryNumber(raw: string | null, max: number): number | null {
  if (!raw || !/^\d{1,2}$/.test(raw)) return null;
  const n = Number(raw);
  return n >= 1 && n <= max ? n : null;
}

/**
 * A day and match number played in a stage's groups (issue 27): each group has its own room, set on the
 * stage page. This page never writes one, so a save cannot land on a group the organiser did not choose.
 */
const groupMatchOf = (matches: readonly Match[], day: number, matchNo: number) =>
  matches.find((m) => m.groupId !== undefined && m.day === day && m.matchNo === matchNo);
const playedInGroups = (m: Pick<Match, 'day' | 'matchNo' | 'stageName'>) =>
  `Day ${m.day} match ${m.matchNo} is played in the groups of ${m.stageName ?? 'a stage'}: set each group's room on the stage page.`;
/** The stage page's rooms panel at this day and match. */
const stageRoomsUrl = (tid: number, m: Pick<Match, 'day' | 'matchNo' | 'stageId'>) =>
  `/admin/${tid}/stages/${m.stageId}?rooms=${m.day}-${m.matchNo}#rooms`;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { tournamentId: tid } = await requireRight(request, params.tournamentId, 'run');
  const [t, matches] = await Promise.all([gateway.getTournament(request, tid), gateway.listMatches(request, tid)]).catch((err) =>
    pageError(err, TOURNAMENT_NOT_FOUND),
  );
  const url = new URL(request.url);
  const day = queryNumber(url.searchParams.get('day'), MATCH_DAY_MAX);
  const matchNo = queryNumber(url.searchParams.get('match'), MATCH_NO_MAX);
  const sorted = [...matches].sort((a, b) => a.day - b.day || a.matchNo - b.matchNo);
  // Only a match outside the stages is edited here; a group's match is named and sent to its stage page.
  const selected = day && matchNo ? (sorted.find((m) => m.groupId === undefined && m.day === day && m.matchNo === matchNo) ?? null) : null;
  const inGroups = day && matchNo ? groupMatchOf(sorted, day, matchNo) : undefined;
  const stages = [...new Map(sorted.filter((m) => m.stageId !== undefined).map((m) => [m.stageId!, m.stageName ?? ''])).entries()];
  return {
    t: { id: t.id, name: t.name },
    limits: { days: MATCH_DAY_MAX, matches: MATCH_NO_MAX },
    chosen: { day: day ?? 1, matchNo: matchNo ?? 1, given: Boolean(day && matchNo) },
    selected,
    inGroups: inGroups ? { text: playedInGroups(inGroups), href: stageRoomsUrl(tid, inGroups) } : null,
    stages: stages.map(([id, name]) => ({ id, name })),
    matches: sorted.map((m) => ({ ...m, time: formatMatchTime(m.time) })),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { tournamentId: tid } = await requireRight(request, params.tournamentId, 'run');
  const formData = await request.formData();
  const values = matchFormValues(formData);
  const parsed = MatchBodySchema.safeParse({ ...values, tid });
  if (!parsed.success) {
    const { fieldErrors } = zodFieldErrors(parsed.error);
    return formFailure({ values, fieldErrors, formError: SAVE_FAILED });
  }
  const match = parsed.data;

  // §4: create the match when none exists for that day and match number, otherwise update it.
  const save = async (): Promise<'created' | 'updated'> => {
    const all = await gateway.listMatches(request, tid);
    const grouped = groupMatchOf(all, match.day, match.matchNo);
    if (grouped) throw new InGroups(playedInGroups(grouped));
    const existing = all.find((m) => m.groupId === undefined && m.day === match.day && m.matchNo === match.matchNo);
    if (existing) {
      await gateway.updateMatch(request, existing.id, match);
      return 'updated';
    }
    await gateway.createMatch(request, match);
    return 'created';
  };
  let outcome: 'created' | 'updated';
  try {
    try {
      outcome = await save();
    } catch (err) {
      // Another organiser created the same slot a moment ago: it exists now, so this becomes its update.
      if (!(err instanceof GatewayError && err.status === 409)) throw err;
      outcome = await save();
    }
  } catch (err) {
    if (err instanceof InGroups) return formFailure({ values, fieldErrors: { matchNo: err.message }, formError: SAVE_FAILED });
    if (!(err instanceof GatewayError)) throw err;
    const failure = gatewayFormErrors(err, { fields: MATCH_FORM_FIELDS, fallback: SAVE_FAILED });
    const detail = failure.formError && failure.formError !== SAVE_FAILED ? ` ${failure.formError}` : '';
    return formFailure({ values, fieldErrors: failure.fieldErrors, formError: `${SAVE_FAILED}.${detail}` }, failure.status);
  }
  return flash(request, outcome === 'created' ? CREATED : UPDATED, `/admin/${tid}/matches?day=${match.day}&match=${match.matchNo}`);
}

class InGroups extends Error {}

type MatchesPage = ReturnType<typeof useLoaderData<typeof loader>>;

export default function AdminMatches() {
  const page = useLoaderData<typeof loader>();
  const { t, stages } = page;
  return (
    <section className="ops-page" aria-labelledby="ops-title">
      <p className="crumb">
        <Link to="/admin/tournament-list">Tournament list</Link>
      </p>
      <h1 id="ops-title">Matches</h1>
      <p className="ops-subtitle">{t.name}</p>
      {stages.length > 0 ? <StagesNote tid={t.id} stages={stages} /> : null}
      <MatchFormPanel page={page} />
      <MatchList tid={t.id} matches={page.matches} selectedId={page.selected?.id} />
    </section>
  );
}

/** Issue 27: a tournament in groups sets its rooms on the stage pages; this page only outside them. */
function StagesNote({ tid, stages }: { tid: number; stages: MatchesPage['stages'] }) {
  return (
    <div className="notice ops-stages-note">
      <p>
        This tournament plays in groups: each group has its own room, set on its stage page. This page sets only matches outside the stages.
      </p>
      <ul className="ops-links">
        {stages.map((s) => (
          <li key={s.id}>
            <Link to={`/admin/${tid}/stages/${s.id}#rooms`}>Rooms of {s.name}</Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The match form: the chosen match (?day=&match=) to edit, a new one, or the values of a refused save. */
function MatchFormPanel({ page }: { page: MatchesPage }) {
  const { chosen, selected, inGroups } = page;
  const actionData = useActionData<FormFailure>();
  const editing = actionData ? null : selected;
  return (
    <section className="ops-panel" aria-labelledby="match-form-title">
      <h2 id="match-form-title">
        {editing
          ? `Edit day ${editing.day}, match ${editing.matchNo}`
          : chosen.given && !actionData
            ? `New match: day ${chosen.day}, match ${chosen.matchNo}`
            : 'Set a match'}
      </h2>
      <p className="fine">Saving a day and match number that already exists updates that match; otherwise it creates it.</p>
      {inGroups && !actionData ? (
        <p className="notice" role="status">
          {inGroups.text} <Link to={inGroups.href}>Open the stage page</Link>
        </p>
      ) : null}
      <ErrorSummary fieldErrors={actionData?.fieldErrors ?? {}} formError={actionData?.formError} order={MATCH_FORM_FIELDS} />
      <MatchForm page={page} failure={actionData} />
    </section>
  );
}

function MatchForm({ page, failure }: { page: MatchesPage; failure: FormFailure | undefined }) {
  const { limits, chosen, selected } = page;
  const errors = failure?.fieldErrors ?? {};
  const values: Record<string, string> = failure?.values ?? {
    day: String(selected?.day ?? chosen.day),
    matchNo: String(selected?.matchNo ?? chosen.matchNo),
    map: selected?.map ?? '',
    matchId: selected?.matchId ?? '',
    password: selected?.password ?? '',
    time: formatMatchTime(selected?.time),
  };
  const formKey = failure ? `failed-${JSON.stringify(failure)}` : selected ? `match-${selected.id}` : `new-${chosen.day}-${chosen.matchNo}`;
  return (
    <Form method="post" className="form ops-match-form" noValidate key={formKey}>
      <div className="ops-pair">
        <NumberedSelect name="day" label="Day" word="Day" count={limits.days} defaultValue={values.day} error={errors.day} />
        <NumberedSelect
          name="matchNo"
          label="Match"
          word="Match"
          count={limits.matches}
          defaultValue={values.matchNo}
          error={errors.matchNo}
        />
      </div>
      <TextField name="map" label="Map" error={errors.map} defaultValue={values.map} maxLength={MAP_MAX} autoComplete="off" required />
      <TextField
        name="matchId"
        label="Room ID"
        inputMode="numeric"
        error={errors.matchId}
        defaultValue={values.matchId}
        maxLength={ROOM_TEXT_MAX}
        autoComplete="off"
        spellCheck={false}
      />
      <TextField
        name="password"
        label="Room password"
        error={errors.password}
        defaultValue={values.password}
        maxLength={ROOM_TEXT_MAX}
        autoComplete="off"
        spellCheck={false}
        autoCapitalize="none"
      />
      <TextField name="time" type="time" label="Time" error={errors.time} defaultValue={values.time} required />
      <SubmitButton pendingLabel="Saving…">Save match</SubmitButton>
    </Form>
  );
}

/** Every match of the tournament: one outside the stages is edited here, a group's on its stage page. */
function MatchList({ tid, matches, selectedId }: { tid: number; matches: MatchesPage['matches']; selectedId: number | undefined }) {
  return (
    <section aria-labelledby="match-list-title">
      <h2 id="match-list-title">Matches of this tournament</h2>
      {matches.length === 0 ? (
        <p className="nothing">No matches found.</p>
      ) : (
        <ul className="ops-matches">
          {matches.map((m) => (
            <li key={m.id} className={selectedId === m.id ? 'ops-match is-current' : 'ops-match'}>
              <p className="ops-match-head">
                <strong>
                  Day {m.day} · Match {m.matchNo}
                  {m.groupId !== undefined ? ` · ${m.stageName} · Group ${m.groupName}` : ''}
                </strong>{' '}
                <span>{m.map}</span> <span className="mono">{m.time}</span>
              </p>
              <p className="ops-match-room">
                Room ID <span className="mono">{m.matchId || '—'}</span> · Password <span className="mono">{m.password || '—'}</span>
              </p>
              {m.groupId !== undefined ? (
                <Link to={stageRoomsUrl(tid, m)}>
                  Set on the stage page
                  <span className="visually-hidden">
                    {' '}
                    day {m.day} match {m.matchNo} group {m.groupName}
                  </span>
                </Link>
              ) : (
                <Link to={`?day=${m.day}&match=${m.matchNo}`} aria-current={selectedId === m.id ? 'true' : undefined}>
                  Edit
                  <span className="visually-hidden">
                    {' '}
                    day {m.day} match {m.matchNo}
                  </span>
                </Link>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
