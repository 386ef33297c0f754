import { createHash } from 'node:crypto';
import {
  type PaymentStatus,
  type Place,
  type Statement,
  type StatementColumns,
  type StatementPreview,
  TOURNAMENT_NOT_FOUND,
} from '@custom-room/contract';
import { isUniqueViolation, type Trx } from '../../db/index.js';
import { enqueueEvents } from '../../db/outbox.js';
import { findPaymentsForUpdate } from '../../db/registrations.js';
import {
  findStatement,
  findStatementByHash,
  insertStatement,
  listStatements,
  recordVerifications,
  rememberedLayout,
  rememberLayout,
  statementCredits,
  statementFile,
  type StatementRow,
  storeRead,
  teamsForMatching,
} from '../../db/statements.js';
import { isoAt } from '../../lib/clock.js';
import { badRequest, conflict, type FieldErrors, notFound } from '../../lib/errors.js';
import { headerSignature, readStatement, type ColumnMap, type StatementRead } from '../../lib/statements/index.js';
import type { ServiceDeps } from '../deps.js';
import { lockLiveTournamentOr404 } from '../live-tournament.js';
import { matchStatement, type MatchTeam } from './match.js';

/** Issue 31 (decision 081): statements uploaded, read, matched to the teams' UTRs, and the matched verified at once. */

export const STATEMENT_NOT_FOUND = 'Statement not found.';
const PICK_COLUMNS_FIRST = "Pick the statement's columns before verifying from it.";

type Caller = { id: number; username: string };

async function tournamentOr404(db: Trx, tournamentId: number) {
  const row = await db
    .selectFrom('tournaments')
    .select(['id', 'entry_fee', 'organiser_id'])
    .where('id', '=', tournamentId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw notFound(TOURNAMENT_NOT_FOUND);
  return { id: Number(row.id), feePaise: Number(row.entry_fee) * 100, organiserId: Number(row.organiser_id) };
}

async function statementOr404(db: Trx, tournamentId: number, statementId: number): Promise<StatementRow> {
  const row = await findStatement(db, tournamentId, statementId);
  if (!row) throw notFound(STATEMENT_NOT_FOUND);
  return row;
}

/** A stored statement as the API answers it; a statement waiting for its columns carries the guess and sample rows. */
function statementAnswer(row: StatementRow, pending?: Extract<StatementRead, { kind: 'needs-columns' }>): Statement {
  return {
    id: Number(row.id),
    tournamentId: Number(row.tournament_id),
    fileName: row.file_name,
    format: row.format === 'xlsx' ? 'xlsx' : 'csv',
    state: row.state === 'read' ? 'read' : 'needs-columns',
    headers: JSON.parse(row.headers) as string[],
    headerRow: Number(row.header_row),
    columns: row.columns ? (JSON.parse(row.columns) as StatementColumns) : null,
    rows: Number(row.rows),
    skipped: Number(row.skipped),
    credits: Number(row.credits ?? 0),
    uploadedBy: row.uploaded_by_name,
    uploadedAt: row.uploaded_at,
    ...(pending ? { guess: pending.guess, sample: pending.sample } : {}),
  };
}

/** The guess and sample rows of a statement still waiting for its columns (read from its file again). */
async function pendingRead(db: Trx, row: StatementRow) {
  if (row.state === 'read') return undefined;
  const file = await statementFile(db, Number(row.id));
  const read = file ? await readStatement(file) : undefined;
  return read?.kind === 'needs-columns' ? read : undefined;
}

/** 400 with the reader's words, beside the file field. */
const unreadable = (message: string) => badRequest(message, { statement: message });

/**
 * A statement file uploaded: read at once (with the organiser's remembered columns for its layout when the
 * detection cannot tell them), stored with its credits. The same file again is the same statement.
 */
export async function uploadStatement(
  { store, clock }: ServiceDeps,
  tournamentId: number,
  caller: Caller,
  file: { bytes: Buffer; name: string },
): Promise<{ statement: Statement & { repeated: boolean }; created: boolean }> {
  const tournament = await tournamentOr404(store.db, tournamentId);
  const sha256 = createHash('sha256').update(file.bytes).digest('hex');
  const repeated = async () => {
    const before = await findStatementByHash(store.db, tournamentId, sha256);
    if (!before) return undefined;
    const row = await statementOr404(store.db, tournamentId, Number(before.id));
    return { statement: { ...statementAnswer(row, await pendingRead(store.db, row)), repeated: true }, created: false };
  };
  const earlier = await repeated();
  if (earlier) return earlier;
  let read = await readStatement(file.bytes);
  if (read.kind === 'refused') throw unreadable(read.message);
  if (read.kind === 'needs-columns') {
    const remembered = await rememberedLayout(store.db, tournament.organiserId, read.signature);
    const again = remembered ? await readStatement(file.bytes, { columns: remembered as ColumnMap }) : undefined;
    if (again?.kind === 'read') read = again;
  }
  const done = read;
  try {
    const id = await store.writeTransaction(async (trx) => {
      await lockLiveTournamentOr404(store, trx, tournamentId);
      const statementId = await insertStatement(
        trx,
        {
          tournamentId,
          sha256,
          fileName: file.name.slice(0, 200) || 'statement',
          format: done.format,
          data: file.bytes,
          state: done.kind,
          headers: done.headers,
          headerRow: done.headerRow,
          columns: null,
          rows: 0,
          skipped: 0,
          uploadedBy: caller.id,
          uploadedByName: caller.username,
        },
        isoAt(clock.now()),
      );
      if (done.kind === 'read') await storeRead(trx, statementId, done);
      return statementId;
    });
    const row = await statementOr404(store.db, tournamentId, id);
    const pending = done.kind === 'needs-columns' ? done : undefined;
    return { statement: { ...statementAnswer(row, pending), repeated: false }, created: true };
  } catch (err) {
    // The same file sent twice at once: the other upload stored it.
    if (isUniqueViolation(err)) {
      const other = await repeated();
      if (other) return other;
    }
    throw err;
  }
}

/** The statement read again with the organiser's columns, which are remembered for its layout. */
export async function setStatementColumns(
  { store, clock }: ServiceDeps,
  tournamentId: number,
  statementId: number,
  columns: StatementColumns,
): Promise<Statement> {
  const tournament = await tournamentOr404(store.db, tournamentId);
  await statementOr404(store.db, tournamentId, statementId);
  const file = await statementFile(store.db, statementId);
  if (!file) throw notFound(STATEMENT_NOT_FOUND);
  const read = await readStatement(file, { columns: columns as ColumnMap });
  if (read.kind === 'refused') throw badRequest(read.message, { columns: read.message });
  if (read.kind === 'needs-columns')
    throw badRequest('Pick the amount (or credit) column.', { 'columns.amount': 'Pick the amount (or credit) column.' });
  await store.writeTransaction(async (trx) => {
    await lockLiveTournamentOr404(store, trx, tournamentId);
    await storeRead(trx, statementId, read);
    await rememberLayout(trx, tournament.organiserId, headerSignature(read.headers), read.columns, isoAt(clock.now()));
  });
  return statementAnswer(await statementOr404(store.db, tournamentId, statementId));
}

export async function statementsOf({ store }: ServiceDeps, tournamentId: number): Promise<Statement[]> {
  await tournamentOr404(store.db, tournamentId);
  const rows = await listStatements(store.db, tournamentId);
  return rows.map((row) => statementAnswer(row));
}

const asTeams = (rows: Awaited<ReturnType<typeof teamsForMatching>>): MatchTeam[] =>
  rows.map((r) => ({
    registrationId: Number(r.id),
    teamName: r.team_name,
    place: r.place as Place,
    paymentStatus: r.payment_status as PaymentStatus,
    upiReference: r.payment_reference,
  }));

/** The statement's credits against the teams as they are now. */
export async function statementPreview({ store }: ServiceDeps, tournamentId: number, statementId: number): Promise<StatementPreview> {
  const tournament = await tournamentOr404(store.db, tournamentId);
  const row = await statementOr404(store.db, tournamentId, statementId);
  const [credits, teams, pending] = await Promise.all([
    statementCredits(store.db, statementId),
    teamsForMatching(store.db, tournamentId),
    pendingRead(store.db, row),
  ]);
  return {
    statement: statementAnswer(row, pending),
    feePaise: tournament.feePaise,
    ...matchStatement(credits, asTeams(teams), tournament.feePaise),
  };
}

/**
 * "Verify the N matched": every team named must still match this statement with the UTR the organiser
 * was shown, else 409 naming them and nothing is verified; a team verified meanwhile counts as done.
 */
export async function verifyFromStatement(
  { store, clock }: ServiceDeps,
  tournamentId: number,
  statementId: number,
  caller: Caller,
  body: { rids: number[]; expectedUpiReferences: Record<string, string> },
): Promise<{ verified: number; message: string }> {
  const rids = [...new Set(body.rids)];
  const verified = await store.writeTransaction(async (trx) => {
    await lockLiveTournamentOr404(store, trx, tournamentId);
    const { feePaise } = await tournamentOr404(trx, tournamentId);
    const row = await statementOr404(trx, tournamentId, statementId);
    if (row.state !== 'read') throw conflict(PICK_COLUMNS_FIRST);
    // PostgreSQL: the named teams' rows are locked before they are read, so a new UTR waits for this verify.
    await findPaymentsForUpdate(trx, rids, store.dialect === 'postgres');
    const [credits, teams] = await Promise.all([statementCredits(trx, statementId), teamsForMatching(trx, tournamentId)]);
    const matching = matchStatement(credits, asTeams(teams), feePaise);
    const matched = new Map(matching.matched.map((m) => [m.registrationId, m]));
    const done = new Map(matching.alreadyVerified.map((m) => [m.registrationId, m]));
    const names = new Map(teams.map((t) => [Number(t.id), t.team_name]));
    const errors: FieldErrors = {};
    const stale: string[] = [];
    const toVerify: { registrationId: number; line: number; teamName: string }[] = [];
    for (const rid of rids) {
      const expected = body.expectedUpiReferences[String(rid)] ?? '';
      const m = matched.get(rid) ?? done.get(rid);
      const shown = m ? (m.by === 'utr' ? m.credit.utr : '') : undefined;
      if (!m || shown !== expected.replace(/[\s-]/g, '')) {
        stale.push(names.get(rid) ?? `Registration ${rid}`);
        errors[`expectedUpiReferences.${rid}`] = 'No longer matches this statement as shown; check it again.';
        continue;
      }
      if (matched.has(rid)) toVerify.push({ registrationId: rid, line: m.credit.line, teamName: m.teamName });
    }
    if (stale.length > 0) {
      const who = stale.length > 3 ? `${stale.slice(0, 3).join(', ')} and ${stale.length - 3} more` : stale.join(', ');
      throw conflict(
        `${who} no longer ${stale.length === 1 ? 'matches' : 'match'} the statement as shown. Nothing was verified; check again.`,
        errors,
      );
    }
    if (toVerify.length === 0) return 0;
    const at = isoAt(clock.now());
    const ids = toVerify.map((v) => v.registrationId);
    for (let i = 0; i < ids.length; i += 500) {
      await trx
        .updateTable('registrations')
        .set({ payment_status: 'verified', updated_at: at })
        .where('tournament_id', '=', tournamentId)
        .where('id', 'in', ids.slice(i, i + 500))
        .execute();
    }
    await recordVerifications(trx, toVerify, { tournamentId, statementId, by: caller.id, at });
    await enqueueEvents(
      trx,
      toVerify.map((v) => ({
        kind: 'payment-verified' as const,
        tournamentId,
        audience: { registrations: [v.registrationId] },
        data: { teamName: v.teamName },
      })),
      clock.now(),
    );
    return toVerify.length;
  });
  const message =
    verified === 0 ? 'Those teams were already verified; nothing changed.' : `Verified ${verified} ${verified === 1 ? 'team' : 'teams'}.`;
  return { verified, message };
}
