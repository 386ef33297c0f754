import { data } from '@remix-run/node';
import {
  STATEMENT_COLUMN_LABELS,
  STATEMENT_COLUMN_ROLES,
  STATEMENT_FIELD,
  STATEMENT_MESSAGES,
  type StatementColumnRole,
  type StatementCredit,
  type StatementMatch,
} from '@custom-room/contract';
import { idFromText, TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { getEnv } from './env.server';
import { pageError } from './errors.server';
import { formatDateTime, formatPaise } from './format';
import { formEntries, formFailure, submitToGateway } from './forms.server';
import { call, gateway } from './gateway.server';
import { flash } from './session.server';
import { columnField, MATCH_FIELD, statementPath } from './statements';
import { readTournamentUpload, type UploadFile } from './tournament-upload.server';

/**
 * Issue 31 (decision 081): the organiser's bank or UPI business statements. Upload (multipart), pick the
 * columns when the layout is unknown, see every payment and credit grouped, verify the matched in one
 * action. Every form works without JavaScript.
 */

export const STATEMENT_UPLOAD: UploadFile = {
  field: STATEMENT_FIELD,
  messages: { wrongType: STATEMENT_MESSAGES.required, tooLarge: STATEMENT_MESSAGES.tooLarge, tooMany: STATEMENT_MESSAGES.tooMany },
  // Any bytes go on: the gateway reads CSV and XLSX and says what is wrong with anything else.
  accepts: (head) => head.length > 0,
};
export const UPLOAD_FAILED = 'The statement was not uploaded. Please try again.';
export const VERIFY_FAILED = 'Nothing was verified. Please try again.';
export const COLUMNS_FAILED = 'The columns were not saved. Please try again.';

export async function loadStatements(request: Request, tid: number) {
  const [t, statements] = await Promise.all([
    gateway.getTournament(request, tid),
    call(request, 'listStatements', { params: { id: tid } }),
  ]).catch((err) => pageError(err, TOURNAMENT_NOT_FOUND));
  const timeZone = getEnv().APP_TIME_ZONE;
  return {
    t: { id: t.id, name: t.name, fee: t.entryFee },
    statements: statements.map((s) => ({
      id: s.id,
      path: statementPath(tid, s.id),
      fileName: s.fileName,
      uploaded: `${s.uploadedBy}, ${formatDateTime(s.uploadedAt, timeZone)}`,
      state: s.state === 'read' ? `${s.credits} ${s.credits === 1 ? 'credit' : 'credits'}` : 'Columns to pick',
    })),
  };
}

/** The upload form: the file goes on to the gateway as it came; then the statement's page. */
export async function uploadAction(request: Request, tid: number) {
  const upload = await readTournamentUpload(request, STATEMENT_UPLOAD);
  const fileError = upload.errors[STATEMENT_FIELD] ?? (upload.cover ? undefined : STATEMENT_MESSAGES.required);
  if (upload.errors.form || fileError) {
    const status = fileError === STATEMENT_MESSAGES.tooLarge ? 413 : 400;
    return formFailure(
      { values: {}, fieldErrors: fileError ? { [STATEMENT_FIELD]: fileError } : {}, formError: upload.errors.form ?? null },
      status,
    );
  }
  const body = new FormData();
  body.append(STATEMENT_FIELD, upload.cover!, upload.cover!.name);
  const sent = await submitToGateway(() => call(request, 'uploadStatement', { params: { id: tid }, body }), {
    values: {},
    fields: [STATEMENT_FIELD],
    fallback: UPLOAD_FAILED,
  });
  if (!sent.ok) {
    const failure = sent.failure;
    // The reader's words are about the file: beside the file input.
    if (failure.data.formError && (failure.init?.status ?? 400) < 500) {
      failure.data.fieldErrors[STATEMENT_FIELD] ??= failure.data.formError;
      failure.data.formError = null;
    }
    return failure;
  }
  const s = sent.value;
  const message = s.repeated
    ? `${s.fileName} was uploaded before; nothing changed.`
    : s.state === 'read'
      ? `Read ${s.credits} ${s.credits === 1 ? 'credit' : 'credits'} from ${s.fileName}.`
      : `Uploaded ${s.fileName}. Pick its columns.`;
  return flash(request, message, statementPath(tid, s.id));
}

const creditView = (c: StatementCredit, timeZone: string) => ({
  line: c.line,
  utr: c.utr,
  amount: formatPaise(c.amountPaise),
  date: c.date ? formatDateTime(`${c.date}T12:00:00Z`, timeZone).replace(/, .*$/, '') : '',
  payer: [c.payerName, c.payerVpa].filter(Boolean).join(' · '),
});

const matchView = (m: StatementMatch, timeZone: string) => ({
  rid: m.registrationId,
  team: m.teamName,
  sent: m.upiReference,
  by: m.by,
  credit: creditView(m.credit, timeZone),
  /** What the verify form carries for the team: the UTR the organiser is shown ('' for a note match). */
  token: `${m.registrationId}:${m.by === 'utr' ? (m.credit.utr ?? '') : ''}`,
});

export async function loadStatement(request: Request, tid: number, sid: number) {
  const [t, preview] = await Promise.all([
    gateway.getTournament(request, tid),
    call(request, 'statementPreview', { params: { id: tid, statementId: sid } }),
  ]).catch((err) => pageError(err, 'Statement not found.'));
  const timeZone = getEnv().APP_TIME_ZONE;
  const s = preview.statement;
  const columns = s.columns ?? s.guess ?? {};
  return {
    t: { id: t.id, name: t.name },
    fee: formatPaise(preview.feePaise),
    statement: {
      id: s.id,
      fileName: s.fileName,
      state: s.state,
      uploaded: `${s.uploadedBy}, ${formatDateTime(s.uploadedAt, timeZone)}`,
      rows: s.rows,
      skipped: s.skipped,
      credits: s.credits,
      headers: s.headers.map((h, i) => h.trim() || `Column ${i + 1}`),
      sample: s.sample ?? [],
      columns: Object.fromEntries(STATEMENT_COLUMN_ROLES.map((r) => [r, columns[r] ?? null])) as Record<StatementColumnRole, number | null>,
    },
    roles: STATEMENT_COLUMN_ROLES.map((r) => ({ role: r, label: STATEMENT_COLUMN_LABELS[r], field: columnField(r) })),
    matched: preview.matched.map((m) => matchView(m, timeZone)),
    alreadyVerified: preview.alreadyVerified.map((m) => matchView(m, timeZone)),
    amountDiffers: preview.amountDiffers.map((m) => matchView(m, timeZone)),
    noTeam: preview.noTeam.map((c) => ({ ...creditView(c, timeZone), team: c.team ? teamWords(c.team) : null })),
    notOnStatement: preview.notOnStatement.map((t) => ({ rid: t.registrationId, team: t.teamName, sent: t.upiReference })),
    duplicates: preview.duplicates.map((c) => ({ ...creditView(c, timeZone), team: c.team?.teamName ?? null })),
  };
}
export type StatementPage = Awaited<ReturnType<typeof loadStatement>>;

const teamWords = (t: { teamName: string; place: string }) =>
  t.place === 'placed'
    ? t.teamName
    : `${t.teamName} (${t.place === 'withdrawn' ? 'withdrew' : t.place === 'waitlist' ? 'on the waitlist' : 'released'})`;

/** The statement page's forms: verify the matched, or read the statement with the organiser's columns. */
export async function statementAction(request: Request, tid: number, sid: number) {
  const form = await request.formData();
  const intent = form.get('intent');
  if (intent === 'verify') {
    const tokens = form.getAll(MATCH_FIELD).filter((v): v is string => typeof v === 'string');
    const pairs = tokens.map((t) => /^(\d{1,10}):(\d{0,12})$/.exec(t)).filter((m): m is RegExpExecArray => m !== null);
    if (pairs.length === 0 || pairs.length !== tokens.length) return formFailure({ formError: 'No matched team to verify.' });
    const body = {
      rids: pairs.map((m) => Number(m[1])),
      expectedUpiReferences: Object.fromEntries(pairs.map((m) => [m[1], m[2]])),
    };
    const sent = await submitToGateway(() => call(request, 'verifyStatement', { params: { id: tid, statementId: sid }, body }), {
      values: { intent: 'verify' },
      fields: [],
      fallback: VERIFY_FAILED,
    });
    if (!sent.ok) return sent.failure;
    return flash(request, sent.value.message, statementPath(tid, sid));
  }
  if (intent === 'columns') {
    const entries = formEntries(form);
    const columns: Partial<Record<StatementColumnRole, number>> = {};
    for (const role of STATEMENT_COLUMN_ROLES) {
      const raw = entries[columnField(role)] ?? '';
      if (raw === '') continue;
      const index = idFromText(String(Number(raw) + 1));
      if (index != null) columns[role] = index - 1;
    }
    const values = {
      intent: 'columns',
      ...Object.fromEntries(STATEMENT_COLUMN_ROLES.map((r) => [columnField(r), entries[columnField(r)] ?? ''])),
    };
    if (columns.amount === undefined && columns.credit === undefined) {
      return formFailure({ values, fieldErrors: { [columnField('amount')]: 'Pick the amount (or credit) column.' } });
    }
    const sent = await submitToGateway(
      () => call(request, 'setStatementColumns', { params: { id: tid, statementId: sid }, body: { columns } }),
      {
        values,
        fields: STATEMENT_COLUMN_ROLES.map(columnField),
        fallback: COLUMNS_FAILED,
        rename: Object.fromEntries(STATEMENT_COLUMN_ROLES.map((r) => [`columns.${r}`, columnField(r)])),
      },
    );
    if (!sent.ok) return sent.failure;
    const s = sent.value;
    return flash(
      request,
      `Read ${s.credits} ${s.credits === 1 ? 'credit' : 'credits'} with your columns; they are remembered for this layout.`,
      statementPath(tid, sid),
    );
  }
  throw data({ message: 'Unknown action.' }, { status: 400 });
}
