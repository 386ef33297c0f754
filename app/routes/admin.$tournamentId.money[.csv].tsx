// "[.csv]" escapes the dot (Remix flat routes): the URL is /admin/{tournamentId}/money.csv (decision 083).
import type { LoaderFunctionArgs } from '@remix-run/node';
import { requireRight } from '~/utils/desk.server';
import { moneyCsv } from '~/utils/money.server';

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { tournamentId } = await requireRight(request, params.tournamentId, 'payments');
  return moneyCsv(request, tournamentId);
}
