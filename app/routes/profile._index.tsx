import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-page';
import { Fact } from '~/components/fact';
import { SubmitButton } from '~/components/ui/submit-button';
import { pageError } from '~/utils/errors.server';
import { formatShortDate } from '~/utils/format';
import { gateway, GatewayError, type Profile } from '~/utils/gateway.server';
import { LOGOUT_EVERYWHERE } from '~/utils/intents';
import { requireUser } from '~/utils/session.server';

export const meta: MetaFunction = () => [
  { title: 'Your profile | Custom Room' },
  { name: 'description', content: 'Your Custom Room player profile: name, bio and details other organisers see.' },
];

type ProfileState = { status: 'ok'; profile: Profile } | { status: 'missing' } | { status: 'failed'; message: string };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  let state: ProfileState;
  try {
    state = { status: 'ok', profile: await gateway.getProfile(request) };
  } catch (err) {
    // 401 has already become a redirect to /login; an unreachable gateway is the 503 page.
    if (!(err instanceof GatewayError) || err.unavailable) pageError(err);
    state = err.status === 404 ? { status: 'missing' } : { status: 'failed', message: 'Failed to fetch profile.' };
  }
  return { username: user.username, state };
}

export default function ProfileView() {
  const { username, state } = useLoaderData<typeof loader>();
  return (
    <>
      <ProfileSection username={username} state={state} />
      <section className="profile-sessions" aria-labelledby="sessions-title">
        <h2 id="sessions-title">Your logins</h2>
        <p>Logged in on a shared or lost phone? End every login of your account, this one included.</p>
        <Form method="post" action="/logout">
          <input type="hidden" name="intent" value={LOGOUT_EVERYWHERE} />
          <SubmitButton className="button button-secondary" formPath="/logout" pendingLabel="Logging out everywhere…">
            Log out everywhere
          </SubmitButton>
        </Form>
      </section>
    </>
  );
}

function ProfileSection({ username, state }: { username: string; state: ProfileState }) {
  return (
    <section className="profile" aria-labelledby="profile-title">
      <h1 id="profile-title">Your profile</h1>
      {state.status === 'ok' ? (
        <ProfileCard profile={state.profile} username={username} />
      ) : state.status === 'missing' ? (
        <div className="profile-empty">
          <p className="profile-username">
            Username: <strong>{username}</strong>
          </p>
          <h2>No Profile Found</h2>
          <p>Tell other players and organisers who you are: add your name, a short bio and where you play from.</p>
          <Link className="button" to="/profile/create">
            Create Profile
          </Link>
        </div>
      ) : (
        <>
          <p className="profile-username">
            Username: <strong>{username}</strong>
          </p>
          <p className="notice" role="alert">
            {state.message} <a href="/profile">Try again</a>
          </p>
        </>
      )}
    </section>
  );
}

const PICTURE_SIZE = 96;

function ProfileCard({ profile, username }: { profile: Profile; username: string }) {
  const notGiven = <span className="muted">Not given</span>;
  return (
    <article className="profile-card">
      <header className="profile-head">
        {profile.profilePictureUrl ? (
          <img
            className="profile-picture"
            src={profile.profilePictureUrl}
            alt={profile.fullName}
            width={PICTURE_SIZE}
            height={PICTURE_SIZE}
            referrerPolicy="no-referrer"
            decoding="async"
          />
        ) : (
          <span className="profile-picture profile-initial" aria-hidden="true">
            {(profile.fullName || username).slice(0, 1).toUpperCase()}
          </span>
        )}
        <div>
          <h2 className="profile-name">{profile.fullName}</h2>
          <p className="profile-username">@{username}</p>
        </div>
      </header>
      {profile.bio ? <p className="profile-bio">{profile.bio}</p> : null}
      <dl className="profile-facts">
        <Fact label="Gender">{profile.gender || notGiven}</Fact>
        <div>
          <dt>Date of birth</dt>
          {/* A calendar date, not an instant: formatted in UTC so no time zone can shift the day. */}
          <dd>{formatShortDate(profile.dateOfBirth, 'UTC') || notGiven}</dd>
        </div>
        <Fact label="Location">{profile.location || notGiven}</Fact>
      </dl>
      <p className="form-actions">
        <Link className="button button-secondary" to="/profile/edit">
          Edit Profile
        </Link>
      </p>
    </article>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
