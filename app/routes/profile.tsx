import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Outlet } from '@remix-run/react';
import { Dashboard } from '~/components/dashboard-nav';
import { GeneralErrorBoundary } from '~/components/error-page';
import { requireUser } from '~/utils/session.server';

export const meta: MetaFunction = () => [
  { title: 'Your profile | Custom Room' },
  { name: 'description', content: 'Your Custom Room player profile and account.' },
];

// Personal pages: never kept by shared caches, nor shown again from the browser's cache after logout.
export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

/** The dashboard layout of the profile pages (spec §2): only for signed-in players. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

export default function ProfileLayout() {
  return (
    <Dashboard>
      <Outlet />
    </Dashboard>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
