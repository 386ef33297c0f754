import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node';
import { isRouteErrorResponse, Link, useLoaderData } from '@remix-run/react';
import type { TournamentPhase } from '@custom-room/contract/constants';
import { GeneralErrorBoundary } from '~/components/error-page';
import { StatusBadge } from '~/components/tournament-card';
import { getEnv } from '~/utils/env.server';
import { pageError } from '~/utils/errors.server';
import { formatDateTime } from '~/utils/format';
import { gateway } from '~/utils/gateway.server';
import { LOGO_SIZE, logoSrc } from '~/utils/images';
import { isAnonymous, loaderCacheHeaders, publicPageHeaders } from '~/utils/public-cache.server';
import '~/styles/screens.css';

/** Issue 29 (decision 065): an organiser's public page: who they are, how to reach them, their tournaments, open first. */

const NOT_FOUND = 'No organiser has this page.';
const SLUG = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){2,39}$/;

export const headers = loaderCacheHeaders;

const LINKS = [
  { key: 'whatsapp', label: 'WhatsApp' },
  { key: 'instagram', label: 'Instagram' },
  { key: 'youtube', label: 'YouTube' },
  { key: 'discord', label: 'Discord' },
] as const;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const slug = params.slug ?? '';
  if (!SLUG.test(slug)) throw data({ message: NOT_FOUND }, { status: 404 });
  // Signed in, the caller is named: its own page (or, for a site admin, any page) shows while it waits for approval.
  const o = await gateway
    .call(request, 'getOrganiser', { params: { slug } }, isAnonymous(request) ? { auth: false } : {})
    .catch((err) => pageError(err, NOT_FOUND));
  const timeZone = getEnv().APP_TIME_ZONE;
  return data(
    {
      name: o.name,
      about: o.about,
      logoUrl: logoSrc(o.logoUrl),
      pending: o.status !== 'approved',
      links: LINKS.flatMap((l) => (o[l.key] ? [{ label: l.label, href: o[l.key] as string }] : [])),
      tournaments: o.tournaments.map((t) => ({
        id: t.id,
        name: t.name,
        game: t.game,
        phase: t.phase as TournamentPhase,
        starts: formatDateTime(t.startDate, timeZone),
      })),
    },
    { headers: publicPageHeaders(request) },
  );
}

export const meta: MetaFunction<typeof loader> = ({ data: page, error }) => {
  if (!page) {
    const status = isRouteErrorResponse(error) ? error.status : 500;
    return [{ title: status === 404 ? 'Organiser not found | Custom Room' : 'Something went wrong | Custom Room' }];
  }
  return [
    { title: `${page.name} | Custom Room` },
    { name: 'description', content: page.about || `Tournaments organised by ${page.name} on Custom Room.` },
  ];
};

export default function OrganiserPage() {
  const { name, about, logoUrl, links, tournaments, pending } = useLoaderData<typeof loader>();
  return (
    <article className="org prose-page">
      <header className="org-h">
        {logoUrl ? <img className="org-logo" src={logoUrl} alt="" width={LOGO_SIZE} height={LOGO_SIZE} /> : null}
        <div>
          <h1>{name}</h1>
          <p className="fine">Organiser on Custom Room</p>
        </div>
      </header>
      {pending ? (
        <p role="status" className="notice">
          This page is not public yet: a site admin has not approved this organiser.
        </p>
      ) : null}
      {about ? <p className="prose">{about}</p> : null}
      {links.length > 0 ? (
        <ul className="org-links" aria-label={`Reach ${name}`}>
          {links.map((l) => (
            <li key={l.label}>
              <a href={l.href} rel="noopener noreferrer nofollow" target="_blank">
                {l.label}
                <span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      <section aria-labelledby="org-t">
        <h2 id="org-t">Tournaments</h2>
        {tournaments.length === 0 ? (
          <p>No tournaments yet.</p>
        ) : (
          <ul className="org-list">
            {tournaments.map((t) => (
              <li key={t.id}>
                <Link to={`/tournaments/${t.id}`}>{t.name}</Link>
                <span className="fine">
                  {' '}
                  <StatusBadge phase={t.phase} /> {t.game} · starts {t.starts}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </article>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
