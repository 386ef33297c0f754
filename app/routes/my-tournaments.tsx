import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Outlet } from '@remix-run/react';
import { Dashboard } from '~/components/dashboard-nav';
import { GeneralErrorBoundary } from '~/components/error-page';
import { requireUser } from '~/utils/session.server';

export const meta: MetaFunction = () => [{ title: 'My Tournaments | Custom Room' }];

// Personal pages: never kept by shared caches, nor shown again from the browser's cache after logout.
export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

/** The player's dashboard (Profile, My Tournaments, Logout) around their registrations: signed-in players only. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

export default function MyTournamentsLayout() {
  return (
    <Dashboard>
      <Outlet />
    </Dashboard>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
