import { chunks } from './deliveries.js';
import type { Trx } from './types.js';

/** Issue 31 (decision 081): uploaded statements, their credits, the organisers' column choices, and what they verified. */

export interface CreditRow {
  line: number;
  utr: string | null;
  amountPaise: number;
  date: string | null;
  payerName: string;
  payerVpa: string | null;
  remarks: string;
  registrationId: number | null;
}

const STATEMENT_COLUMNS = [
  'id',
  'tournament_id',
  'file_name',
  'format',
  'state',
  'headers',
  'header_row',
  'columns',
  'rows',
  'skipped',
  'uploaded_by_name',
  'uploaded_at',
] as const;

/** A tournament's statements without their files, each with its number of credits. */
function statementsOf(db: Trx, tournamentId: number) {
  return db
    .selectFrom('statements')
    .select(STATEMENT_COLUMNS)
    .select((eb) =>
      eb
        .selectFrom('statement_credits as c')
        .whereRef('c.statement_id', '=', 'statements.id')
        .select(eb.fn.countAll().as('n'))
        .as('credits'),
    )
    .where('tournament_id', '=', tournamentId);
}

/** A tournament's statement (undefined when it is not of the tournament). */
export function findStatement(db: Trx, tournamentId: number, statementId: number) {
  return statementsOf(db, tournamentId).where('id', '=', statementId).executeTakeFirst();
}
export type StatementRow = NonNullable<Awaited<ReturnType<typeof findStatement>>>;

/** The file of a statement, to read it again with the organiser's columns. */
export async function statementFile(db: Trx, statementId: number): Promise<Buffer | undefined> {
  const row = await db.selectFrom('statements').select('data').where('id', '=', statementId).executeTakeFirst();
  return row?.data;
}

export function findStatementByHash(db: Trx, tournamentId: number, sha256: string) {
  return db.selectFrom('statements').select('id').where('tournament_id', '=', tournamentId).where('sha256', '=', sha256).executeTakeFirst();
}

/** The tournament's statements, newest first. */
export function listStatements(db: Trx, tournamentId: number) {
  return statementsOf(db, tournamentId).orderBy('id', 'desc').execute();
}

export async function insertStatement(
  trx: Trx,
  row: {
    tournamentId: number;
    sha256: string;
    fileName: string;
    format: string;
    data: Buffer;
    state: string;
    headers: string[];
    headerRow: number;
    columns: object | null;
    rows: number;
    skipped: number;
    uploadedBy: number;
    uploadedByName: string;
  },
  at: string,
): Promise<number> {
  const inserted = await trx
    .insertInto('statements')
    .values({
      tournament_id: row.tournamentId,
      sha256: row.sha256,
      file_name: row.fileName,
      format: row.format,
      data: row.data,
      state: row.state,
      headers: JSON.stringify(row.headers),
      header_row: row.headerRow,
      columns: row.columns ? JSON.stringify(row.columns) : null,
      rows: row.rows,
      skipped: row.skipped,
      uploaded_by: row.uploadedBy,
      uploaded_by_name: row.uploadedByName,
      uploaded_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(inserted.id);
}

/** A statement read (again) with these columns: its counts, and its credits replaced. */
export async function storeRead(
  trx: Trx,
  statementId: number,
  read: { headerRow: number; columns: object; rows: number; skipped: number; credits: readonly CreditRow[] },
): Promise<void> {
  await trx
    .updateTable('statements')
    .set({ state: 'read', header_row: read.headerRow, columns: JSON.stringify(read.columns), rows: read.rows, skipped: read.skipped })
    .where('id', '=', statementId)
    .execute();
  await trx.deleteFrom('statement_credits').where('statement_id', '=', statementId).execute();
  for (const part of chunks([...read.credits], 500)) {
    await trx
      .insertInto('statement_credits')
      .values(
        part.map((c) => ({
          statement_id: statementId,
          line: c.line,
          utr: c.utr,
          amount_paise: c.amountPaise,
          date: c.date,
          payer_name: c.payerName,
          payer_vpa: c.payerVpa,
          remarks: c.remarks,
          registration_hint: c.registrationId,
        })),
      )
      .execute();
  }
}

/** A statement's credits in file order. */
export async function statementCredits(db: Trx, statementId: number): Promise<CreditRow[]> {
  const rows = await db
    .selectFrom('statement_credits')
    .select(['line', 'utr', 'amount_paise', 'date', 'payer_name', 'payer_vpa', 'remarks', 'registration_hint'])
    .where('statement_id', '=', statementId)
    .orderBy('line')
    .execute();
  return rows.map((r) => ({
    line: Number(r.line),
    utr: r.utr,
    amountPaise: Number(r.amount_paise),
    date: r.date,
    payerName: r.payer_name,
    payerVpa: r.payer_vpa,
    remarks: r.remarks,
    registrationId: r.registration_hint == null ? null : Number(r.registration_hint),
  }));
}

/** The columns an organiser picked for this layout before, if any. */
export async function rememberedLayout(db: Trx, organiserId: number, signature: string): Promise<object | undefined> {
  const row = await db
    .selectFrom('statement_layouts')
    .select('columns')
    .where('organiser_id', '=', organiserId)
    .where('signature', '=', signature)
    .executeTakeFirst();
  return row ? (JSON.parse(row.columns) as object) : undefined;
}

export async function rememberLayout(trx: Trx, organiserId: number, signature: string, columns: object, at: string): Promise<void> {
  await trx
    .insertInto('statement_layouts')
    .values({ organiser_id: organiserId, signature, columns: JSON.stringify(columns), updated_at: at })
    .onConflict((oc) => oc.columns(['organiser_id', 'signature']).doUpdateSet({ columns: JSON.stringify(columns), updated_at: at }))
    .execute();
}

/** The registrations of a tournament as the matching needs them (every place: a team that left may have paid). */
export function teamsForMatching(db: Trx, tournamentId: number) {
  return db
    .selectFrom('registrations')
    .select(['id', 'team_name', 'place', 'payment_status', 'payment_reference'])
    .where('tournament_id', '=', tournamentId)
    .orderBy('id')
    .execute();
}

/** Which credit verified these teams (one row per team; a later verification replaces it). */
export async function recordVerifications(
  trx: Trx,
  rows: readonly { registrationId: number; line: number }[],
  ctx: { tournamentId: number; statementId: number; by: number; at: string },
): Promise<void> {
  for (const part of chunks([...rows], 500)) {
    await trx
      .deleteFrom('statement_verifications')
      .where(
        'registration_id',
        'in',
        part.map((r) => r.registrationId),
      )
      .execute();
    await trx
      .insertInto('statement_verifications')
      .values(
        part.map((r) => ({
          registration_id: r.registrationId,
          tournament_id: ctx.tournamentId,
          statement_id: ctx.statementId,
          line: r.line,
          verified_by: ctx.by,
          verified_at: ctx.at,
        })),
      )
      .execute();
  }
}
