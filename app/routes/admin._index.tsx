import { type LoaderFunctionArgs, type MetaFunction, redirect } from '@remix-run/node';
import { GeneralErrorBoundary } from '~/components/error-page';
import { requireDesk } from '~/utils/desk.server';

export const meta: MetaFunction = () => [{ title: 'Organiser tools | Custom Room' }];

/** /admin opens on the organiser's tournament list. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireDesk(request);
  throw redirect('/admin/manage-tournament', { headers: { 'Cache-Control': 'private, no-store' } });
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
