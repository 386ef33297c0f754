import { STAGE_NOT_FOUND } from '@custom-room/contract/constants';
import { csvFileName, toCsv } from './csv.server';
import { gateway, GatewayError } from './gateway.server';

/** The organiser's stage exports (issue 18): the same conventions as the registrations CSV. */

export function plain(message: string, status: number) {
  return new Response(message, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'private, no-store' } });
}

/** The BOM makes spreadsheet apps read the file as UTF-8 (team names in Hindi, emoji). */
export function csvResponse(rows: (string | number | null | undefined)[][], base: string) {
  return new Response(`\uFEFF${toCsv(rows)}`, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${csvFileName(base)}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

/** The stage (admin view, drafts too) or a plain-text answer to return. */
export async function stageFor(request: Request, tid: number, rawStageId: string | undefined) {
  const sid = rawStageId && /^\d{1,9}$/.test(rawStageId) ? Number(rawStageId) : 0;
  if (!sid) return { refused: plain(STAGE_NOT_FOUND, 404) };
  try {
    const stage = (await gateway.listStages(request, tid, { admin: true })).find((s) => s.id === sid);
    return stage ? { stage } : { refused: plain(STAGE_NOT_FOUND, 404) };
  } catch (err) {
    return { refused: gatewayRefusal(err) };
  }
}

export function gatewayRefusal(err: unknown): Response {
  if (!(err instanceof GatewayError)) throw err;
  return plain(err.message || 'Failed to load the stage. Please try again.', err.unavailable ? 503 : err.status);
}

/** Group names sort A … Z, AA …: by length, then alphabetically. */
export const byGroupName = (a: string, b: string) => a.length - b.length || a.localeCompare(b);
