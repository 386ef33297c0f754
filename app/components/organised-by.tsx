import { Link } from '@remix-run/react';

/** Who runs a tournament, as a card or a page shows it (issue 29, decision 068). logoUrl: already checked (logoSrc). */
export interface OrganiserLine {
  slug: string;
  name: string;
  logoUrl: string | null;
}

/**
 * "Organised by {name}" with the organiser's logo before it: small, lazy, its size set (no layout
 * shift), alt="" since the name is the text beside it. link: the name links to the organiser's page.
 */
export function OrganisedBy({
  organiser,
  size,
  link = false,
  className = 'org-by',
}: {
  organiser: OrganiserLine;
  size: number;
  link?: boolean;
  className?: string;
}) {
  return (
    <p className={className}>
      {organiser.logoUrl ? (
        <img className="org-by-logo" src={organiser.logoUrl} alt="" width={size} height={size} loading="lazy" decoding="async" />
      ) : null}
      <span>Organised by {link ? <Link to={`/organisers/${organiser.slug}`}>{organiser.name}</Link> : organiser.name}</span>
    </p>
  );
}
