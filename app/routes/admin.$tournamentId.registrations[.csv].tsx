// "[.csv]" escapes the dot (Remix flat routes): the URL is /admin/{tournamentId}/registrations.csv.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { CHARACTER_ID_FIELDS, TEAM_FIELDS, TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { byPayment, loadRegistrations, paymentFilterOf } from '~/utils/admin-registrations.server';
import { captainMessage, whatsAppLink } from '~/utils/contact';
import { csvFileName, toCsv } from '~/utils/csv.server';
import { requireDesk } from '~/utils/desk.server';
import { getEnv } from '~/utils/env.server';
import { toDateTimeLocal } from '~/utils/format';
import { gateway, GatewayError } from '~/utils/gateway.server';
import { placeView } from '~/utils/places';
import { parseTournamentId } from '~/utils/tournament';

const header = (timeZone: string) => [
  'rid',
  ...TEAM_FIELDS,
  'paymentStatus',
  // Issue 19: the team's state in the registrations page's words, beside the payment as the page shows it.
  'state',
  'paymentReference',
  'registeredBy',
  `registeredAt (${timeZone})`,
  // Decision 046: after the earlier columns, so sheets built on those keep working.
  ...CHARACTER_ID_FIELDS,
  'captainPhone',
  'captainEmail',
  'captainWhatsApp',
];

function plain(message: string, status: number) {
  return new Response(message, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'private, no-store' } });
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireDesk(request);
  const tid = parseTournamentId(params.tournamentId);
  if (tid === null) return plain(TOURNAMENT_NOT_FOUND, 404);
  const filter = paymentFilterOf(request);
  let rows;
  let tournamentName = '';
  let free = false;
  try {
    const [loaded, tournament] = await Promise.all([loadRegistrations(request, tid), gateway.getTournament(request, tid)]);
    rows = byPayment(loaded.registrations, filter);
    tournamentName = tournament.name;
    free = tournament.entryFee <= 0;
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    return plain(
      err.unavailable ? err.message : err.message || 'Failed to load registrations. Please try again.',
      err.unavailable ? 503 : err.status,
    );
  }
  const { APP_TIME_ZONE } = getEnv();
  const nowMs = Date.now();
  const csv = toCsv([
    header(APP_TIME_ZONE),
    ...rows.map((r) => [
      r.rid,
      r.teamName,
      r.player1Username,
      r.player2Username,
      r.player3Username,
      r.player4Username,
      r.substitute1Username,
      r.substitute2Username,
      r.paymentStatus,
      placeView(r, { timeZone: APP_TIME_ZONE, free, nowMs }).words,
      r.paymentReference,
      r.username,
      toDateTimeLocal(r.createdAt, APP_TIME_ZONE).replace('T', ' '),
      ...CHARACTER_ID_FIELDS.map((f) => r[f]),
      r.captainPhone,
      r.captainEmail,
      (r.captainPhone && whatsAppLink(r.captainPhone, captainMessage(tournamentName, r.teamName))) || '',
    ]),
  ]);
  const name = csvFileName(`tournament-${tid}-registrations${filter && filter !== 'invalid' ? `-${filter}` : ''}`);
  // The BOM makes spreadsheet apps read the file as UTF-8 (team names in Hindi, emoji).
  return new Response(`\uFEFF${csv}`, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${name}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
