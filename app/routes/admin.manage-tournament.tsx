import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-page';
import { ManageTournaments } from '~/components/manage-tournaments';
import { loadManageList } from '~/utils/manage-tournaments.server';

export const meta: MetaFunction = () => [
  { title: 'Manage tournaments | Custom Room' },
  { name: 'description', content: 'Organisers: every tournament with Edit and Delete.' },
];

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** /admin/manage-tournament: the /admin layout's child of spec §2, the same list as /admin/manage-tournaments. */
export async function loader({ request }: LoaderFunctionArgs) {
  return loadManageList(request);
}

export default function ManageTournamentChild() {
  const { tournaments, error } = useLoaderData<typeof loader>();
  return <ManageTournaments tournaments={tournaments} error={error} />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
