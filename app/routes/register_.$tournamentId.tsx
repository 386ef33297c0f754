import { type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { TeamRegisterSchema } from '@custom-room/contract';
import { TEAM_FORM_FIELDS, TOURNAMENT_NOT_FOUND as NOT_FOUND } from '@custom-room/contract/constants';
import { GeneralErrorBoundary } from '~/components/error-page';
import { Fact } from '~/components/fact';
import { TeamForm } from '~/components/team-form';
import { getEnv } from '~/utils/env.server';
import { isUnavailable, pageError, UNAVAILABLE_INIT } from '~/utils/errors.server';
import { formatDateTime } from '~/utils/format';
import { formFailure, parseForm, submitToGateway, type FormFailure } from '~/utils/forms.server';
import { gateway, GatewayError, UNAVAILABLE_MESSAGE, type Registration, type Tournament } from '~/utils/gateway.server';
import { requireTournamentId } from '~/utils/route-params.server';
import { flash, requireUser } from '~/utils/session.server';
import { entryFeeLabel, phaseOf, phaseWords } from '~/utils/tournament';
import '~/styles/player.css';

const REGISTRATION_FAILED = 'Registration failed, please try again.';
const NO_RID = 'Registration succeeded but ID was not returned.';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.t.name ? `Register for ${data.t.name} | Custom Room` : 'Register a team | Custom Room' },
  { name: 'description', content: 'Register your squad: team name and the in-game names of your four players and up to two substitutes.' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

/**
 * The user's own team for this tournament, or null when there is none. A released or withdrawn team
 * holds nothing: its captain may register again (decision 043), so it counts as none here.
 */
async function findOwnTeam(request: Request, tournamentId: number): Promise<Registration | null> {
  try {
    const team = await gateway.myTeam(request, tournamentId);
    return team.place === 'placed' || team.place === 'waitlist' ? team : null;
  } catch (err) {
    if (err instanceof GatewayError && err.status === 404) return null;
    throw err;
  }
}

/** The form's hidden field that joins the waitlist when the tournament is full. */
const WAITLIST_FIELD = 'waitlist';

type RegistrationState =
  | { kind: 'open' }
  | { kind: 'registered'; rid: number; teamName: string }
  | { kind: 'waitlisted'; teamName: string; position: number | null }
  | { kind: 'closed'; message: string }
  | { kind: 'full' }
  | { kind: 'unavailable' };

/** What the page offers, from the tournament as the gateway sees it now (the gateway checks again on submit). */
function stateOf(t: Tournament, team: Registration | null, timeZone: string, now = Date.now()): RegistrationState {
  if (team?.place === 'waitlist') return { kind: 'waitlisted', teamName: team.teamName, position: team.waitlistPosition };
  if (team) return { kind: 'registered', rid: team.rid, teamName: team.teamName };
  // Decision 051: the derived phase decides, so a tournament whose first stage is published or whose dates passed is closed.
  const phase = phaseOf(t, now);
  if (phase !== 'registration-open') {
    if (phase === 'upcoming' && t.registrationOpen && now < Date.parse(t.registrationOpen)) {
      return { kind: 'closed', message: `Registration is closed. It opens ${formatDateTime(t.registrationOpen, timeZone)}.` };
    }
    if (phase === 'registration-closed' && t.registrationClose && now > Date.parse(t.registrationClose)) {
      return { kind: 'closed', message: 'Registration is closed. The registration window has ended.' };
    }
    return { kind: 'closed', message: `Registration is closed. Status: ${phaseWords(phase)}.` };
  }
  if (t.maxTeams > 0 && t.registeredTeams >= t.maxTeams) return { kind: 'full' };
  return { kind: 'open' };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = requireTournamentId(params.tournamentId);
  await requireUser(request);
  const loaded = await Promise.all([gateway.getTournament(request, id), findOwnTeam(request, id)]).catch((err) => {
    if (isUnavailable(err)) return null;
    return pageError(err, NOT_FOUND);
  });
  // The gateway unreachable: the form stays (with what a refused post kept), under the message, so nothing typed is lost.
  if (!loaded)
    return data(
      {
        t: { id, name: '', game: '', requireCharacterIds: false, status: '', fee: '', slots: '', closes: '' },
        state: { kind: 'unavailable' } as RegistrationState,
      },
      UNAVAILABLE_INIT,
    );
  const [t, team] = loaded;
  const timeZone = getEnv().APP_TIME_ZONE;
  const slotsLeft = Math.max(0, t.maxTeams - t.registeredTeams);
  return {
    t: {
      id: t.id,
      name: t.name,
      game: t.game,
      requireCharacterIds: t.requireCharacterIds,
      status: t.status,
      fee: entryFeeLabel(t.entryFee),
      slots: `${slotsLeft} of ${t.maxTeams} slots left`,
      closes: formatDateTime(t.registrationClose, timeZone),
    },
    state: stateOf(t, team, timeZone),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const id = requireTournamentId(params.tournamentId);
  await requireUser(request);
  const formData = await request.formData();
  const parsed = parseForm(formData, TeamRegisterSchema);
  if (!parsed.success) return formFailure(parsed);

  const result = await submitToGateway(() => gateway.registerTeam(request, id, parsed.data), {
    values: parsed.values,
    fields: TEAM_FORM_FIELDS,
    fallback: REGISTRATION_FAILED,
  });
  if (!result.ok) {
    // A second click, or back and submit again: the team exists already, so go where the first submit went.
    if (result.failure.init?.status === 409) {
      const own = await findOwnTeam(request, id).catch(() => null);
      if (own)
        return flash(
          request,
          `Your team ${own.teamName} is already registered.`,
          own.place === 'waitlist' ? `/team/${id}` : `/payment?rid=${own.rid}`,
        );
    }
    return result.failure;
  }
  const { rid, teamName, place, waitlistPosition } = result.value;
  if (place === 'waitlist') {
    const at = waitlistPosition ? ` at #${waitlistPosition}` : '';
    return flash(request, `${teamName} is on the waitlist${at}. If a place frees, your team gets it and we tell you.`, `/team/${id}`);
  }
  // The original gateway's answer may lack the id (spec §8); the team is registered all the same.
  if (typeof rid !== 'number') return formFailure({ values: parsed.values, formError: NO_RID }, 200);
  return flash(request, `${teamName} is registered. Pay the entry fee to confirm your slot.`, `/payment?rid=${rid}`);
}

export default function RegisterTeam() {
  const { t, state } = useLoaderData<typeof loader>();
  const actionData = useActionData<FormFailure>();
  return (
    <section className="form-page player-page" aria-labelledby="register-team-title">
      <h1 id="register-team-title">Register your team</h1>
      {state.kind === 'unavailable' ? (
        <div className="notice" role="alert">
          <p>{UNAVAILABLE_MESSAGE}</p>
          {actionData ? null : (
            <p>
              <Link to={`/register/${t.id}`}>Try again</Link>
            </p>
          )}
        </div>
      ) : null}
      <div className="reg-summary" hidden={state.kind === 'unavailable'}>
        <p className="reg-name">
          <Link to={`/tournaments/${t.id}`}>{t.name}</Link>
        </p>
        <dl className="kv">
          <Fact label="Game">{t.game}</Fact>
          <Fact label="Entry fee">{t.fee}</Fact>
          <Fact label="Slots">{t.slots}</Fact>
          <Fact label="Registration closes">{t.closes || '—'}</Fact>
        </dl>
      </div>

      {state.kind === 'registered' ? (
        <div className="notice" role="status">
          <p>
            You have already registered <strong>{state.teamName}</strong> for this tournament.
          </p>
          <p className="form-actions">
            <Link className="button" to={`/payment?rid=${state.rid}`}>
              Payment
            </Link>
            <Link className="button button-secondary" to={`/team/${t.id}`}>
              View Team
            </Link>
          </p>
        </div>
      ) : state.kind === 'waitlisted' ? (
        <div className="notice" role="status">
          <p>
            <strong>{state.teamName}</strong> is on the waitlist{state.position ? ` at #${state.position}` : ''}. If a place frees, your
            team gets it and we tell you.
          </p>
          <p className="form-actions">
            <Link className="button" to={`/team/${t.id}`}>
              View Team
            </Link>
          </p>
        </div>
      ) : state.kind === 'closed' && !actionData ? (
        <div className="notice" role="alert">
          <p>{state.message}</p>
          <p>
            <Link to={`/tournaments/${t.id}`}>Back to the tournament</Link>
          </p>
        </div>
      ) : (
        <>
          {state.kind === 'full' ? (
            <div className="notice" role={actionData ? undefined : 'alert'}>
              <p>Registration is full: every slot is taken.</p>
              <p>
                Join the waitlist with the same details. If a team leaves or does not pay in time, the first team on the waitlist gets its
                place, with its own time to pay, and we tell you.
              </p>
            </div>
          ) : null}
          <p className="form-intro">
            Enter the in-game names (IGN) exactly as they appear in {t.game || 'the game'}: the organiser uses them to check the lobby.
            {t.requireCharacterIds ? ' This tournament needs each player’s character ID too.' : ''}
          </p>
          <TeamForm
            values={actionData?.values ?? {}}
            fieldErrors={actionData?.fieldErrors}
            formError={actionData?.formError}
            requiredPlayers={4}
            game={t.game}
            requireCharacterIds={t.requireCharacterIds}
            submitLabel={state.kind === 'full' ? 'Join the waitlist' : 'Register team'}
            pendingLabel={state.kind === 'full' ? 'Joining…' : 'Registering…'}
          >
            {state.kind === 'full' ? <input type="hidden" name={WAITLIST_FIELD} value="true" /> : null}
          </TeamForm>
        </>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
