import { type LoaderFunctionArgs, type MetaFunction, redirect } from '@remix-run/node';
import { GeneralErrorBoundary } from '~/components/error-page';
import { type DeskUser, requireDesk } from '~/utils/desk.server';

export const meta: MetaFunction = () => [{ title: 'Organiser tools | Custom Room' }];

/**
 * /admin opens on the organiser's tournament list; a lobby manager of one tournament, who organises
 * nothing of its own, on that tournament's "My groups" (issue 29: it works from a phone, between matches).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const desk = await requireDesk(request);
  throw redirect(landingOf(desk), { headers: { 'Cache-Control': 'private, no-store' } });
}

function landingOf(desk: DeskUser): string {
  const [only, ...more] = desk.tournaments;
  if (!desk.organises && only && more.length === 0 && only.kind === 'lobby') return `/admin/${only.id}/my-groups`;
  return '/admin/manage-tournament';
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
