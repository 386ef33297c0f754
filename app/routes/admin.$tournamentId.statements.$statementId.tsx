import { data, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { idFromText } from '@custom-room/contract/constants';
import { GeneralErrorBoundary } from '~/components/error-page';
import { ErrorSummary } from '~/components/ui/error-summary';
import { Field } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { requireRight } from '~/utils/desk.server';
import type { FormFailure } from '~/utils/forms.server';
import { MATCH_FIELD, statementsPath } from '~/utils/statements';
import { loadStatement, statementAction, type StatementPage } from '~/utils/statements.server';
import '~/styles/screens.css';

/**
 * Issue 31 (decision 081): one statement matched to the teams' payments, in five groups and the already
 * verified; "Verify the N matched" verifies them all or none, bound to the UTRs shown. A statement whose
 * columns could not be told apart asks for them first (remembered for the layout).
 */

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data ? `${data.statement.fileName}: ${data.t.name}` : 'Statement'} | Admin | Custom Room` },
  { name: 'robots', content: 'noindex' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

function statementIdOf(raw: string | undefined): number {
  const id = idFromText(raw);
  if (id == null) throw data({ message: 'Statement not found.' }, { status: 404 });
  return id;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { tournamentId } = await requireRight(request, params.tournamentId, 'payments');
  return loadStatement(request, tournamentId, statementIdOf(params.statementId));
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { tournamentId } = await requireRight(request, params.tournamentId, 'payments');
  return statementAction(request, tournamentId, statementIdOf(params.statementId));
}

export default function StatementMatches() {
  const page = useLoaderData<typeof loader>();
  const { t, statement: s } = page;
  const failure = useActionData<FormFailure>();
  return (
    <section className="ops-page" aria-labelledby="statement-title">
      <p className="crumb">
        <Link to={`/admin/${t.id}`}>{t.name}</Link> · <Link to={statementsPath(t.id)}>Bank statements</Link>
      </p>
      <h1 id="statement-title">{s.fileName}</h1>
      <p className="ops-subtitle">
        Uploaded by {s.uploaded}
        {s.state === 'read' ? ` · ${s.credits} ${s.credits === 1 ? 'credit' : 'credits'} of ${s.rows} rows · entry fee ${page.fee}` : ''}
      </p>
      {s.state === 'read' ? <Matches page={page} failure={failure?.values.intent === 'verify' ? failure : undefined} /> : null}
      <ColumnsForm page={page} failure={failure?.values.intent === 'columns' ? failure : undefined} open={s.state !== 'read'} />
    </section>
  );
}

type Match = StatementPage['matched'][number];

function Matches({ page, failure }: { page: StatementPage; failure?: FormFailure }) {
  const { matched } = page;
  return (
    <>
      <nav className="ops-chips" aria-label="Groups">
        <ul>
          <li>
            <a href="#matched">Matched ({matched.length})</a>
          </li>
          <li>
            <a href="#amount-differs">Amount differs ({page.amountDiffers.length})</a>
          </li>
          <li>
            <a href="#no-team">No team ({page.noTeam.length})</a>
          </li>
          <li>
            <a href="#not-on-statement">Not on the statement ({page.notOnStatement.length})</a>
          </li>
          <li>
            <a href="#duplicates">Credited twice ({page.duplicates.length})</a>
          </li>
          <li>
            <a href="#already-verified">Already verified ({page.alreadyVerified.length})</a>
          </li>
        </ul>
      </nav>

      <section aria-labelledby="matched" className="ops-panel">
        <h2 id="matched" tabIndex={-1}>
          Matched ({matched.length})
        </h2>
        <p className="fine">The UTR (or the payment note) and the amount agree with the team’s.</p>
        <ErrorSummary fieldErrors={{}} formError={failure?.formError} order={[]} />
        {matched.length === 0 ? (
          <p className="nothing">No payment left to verify from this statement.</p>
        ) : (
          <>
            <Form method="post" className="ops-bulk">
              <input type="hidden" name="intent" value="verify" />
              {matched.map((m) => (
                <input key={m.rid} type="hidden" name={MATCH_FIELD} value={m.token} />
              ))}
              <SubmitButton pendingLabel="Verifying…">Verify the {matched.length} matched</SubmitButton>
            </Form>
            <MatchList rows={matched} label="Matched payments" />
          </>
        )}
      </section>

      <section aria-labelledby="amount-differs">
        <h2 id="amount-differs">Amount differs ({page.amountDiffers.length})</h2>
        <p className="fine">The team’s UTR is on the statement with another amount than the entry fee ({page.fee}). Check these by hand.</p>
        {page.amountDiffers.length === 0 ? (
          <p className="nothing">None.</p>
        ) : (
          <MatchList rows={page.amountDiffers} label="Amount differs" />
        )}
      </section>

      <section aria-labelledby="no-team">
        <h2 id="no-team">On the statement, no team ({page.noTeam.length})</h2>
        <p className="fine">Credits whose UTR no placed team sent.</p>
        {page.noTeam.length === 0 ? (
          <p className="nothing">None.</p>
        ) : (
          <ul className="ops-cards" aria-label="Credits without a team">
            {page.noTeam.map((c) => (
              <li key={c.line} className="ops-card">
                <p className="ops-card-title">
                  {c.amount} · <span className="mono">{c.utr ?? 'no UTR'}</span>
                </p>
                <p className="ops-meta">
                  <span>Row {c.line}</span>
                  {c.date ? <span>{c.date}</span> : null}
                  {c.payer ? <span>{c.payer}</span> : null}
                  {c.team ? <span>Names {c.team}</span> : null}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="not-on-statement">
        <h2 id="not-on-statement">UTR not on the statement ({page.notOnStatement.length})</h2>
        <p className="fine">Teams that sent a UTR this statement does not have: a later statement, or a mistyped UTR.</p>
        {page.notOnStatement.length === 0 ? (
          <p className="nothing">None.</p>
        ) : (
          <ul className="ops-cards" aria-label="Teams whose UTR is not on the statement">
            {page.notOnStatement.map((t) => (
              <li key={t.rid} className="ops-card">
                <p className="ops-card-title">{t.team}</p>
                <p className="ops-meta">
                  <span className="mono">UTR {t.sent}</span>
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="duplicates">
        <h2 id="duplicates">Credited twice ({page.duplicates.length})</h2>
        <p className="fine">The same UTR again on the statement: counted once.</p>
        {page.duplicates.length === 0 ? (
          <p className="nothing">None.</p>
        ) : (
          <ul className="ops-cards" aria-label="Duplicate credits">
            {page.duplicates.map((c) => (
              <li key={c.line} className="ops-card">
                <p className="ops-card-title">
                  {c.amount} · <span className="mono">{c.utr}</span>
                </p>
                <p className="ops-meta">
                  <span>Row {c.line}</span>
                  {c.team ? <span>{c.team}</span> : null}
                  {c.payer ? <span>{c.payer}</span> : null}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="already-verified">
        <h2 id="already-verified">Already verified ({page.alreadyVerified.length})</h2>
        {page.alreadyVerified.length === 0 ? (
          <p className="nothing">None.</p>
        ) : (
          <MatchList rows={page.alreadyVerified} label="Already verified" />
        )}
      </section>
    </>
  );
}

function MatchList({ rows, label }: { rows: Match[]; label: string }) {
  return (
    <ul className="ops-cards" aria-label={label}>
      {rows.map((m) => (
        <li key={`${m.rid}-${m.credit.line}`} className="ops-card">
          <p className="ops-card-title">
            {m.team} · {m.credit.amount}
          </p>
          <p className="ops-meta">
            <span className="mono">
              {m.by === 'utr' ? `UTR ${m.credit.utr}` : `Note CR-${m.rid}${m.credit.utr ? ` · UTR ${m.credit.utr}` : ''}`}
            </span>
            {m.credit.date ? <span>{m.credit.date}</span> : null}
            {m.credit.payer ? <span>{m.credit.payer}</span> : null}
            <span>Row {m.credit.line}</span>
          </p>
        </li>
      ))}
    </ul>
  );
}

/** Which column is which: asked when the layout is unknown, and offered again (folded) to correct a reading. */
function ColumnsForm({ page, failure, open }: { page: StatementPage; failure?: FormFailure; open: boolean }) {
  const s = page.statement;
  const errors = failure?.fieldErrors ?? {};
  const value = (role: keyof typeof s.columns, field: string) =>
    failure ? (failure.values[field] ?? '') : s.columns[role] == null ? '' : String(s.columns[role]);
  const form = (
    <Form method="post" noValidate className="ops-panel">
      <input type="hidden" name="intent" value="columns" />
      <ErrorSummary fieldErrors={errors} formError={failure?.formError} order={page.roles.map((r) => r.field)} />
      <div className="ops-pick">
        {page.roles.map((r) => (
          <Field key={r.role} id={r.field} label={r.label} error={errors[r.field]}>
            {(control) => (
              <select name={r.field} defaultValue={value(r.role, r.field)} {...control}>
                <option value="">None</option>
                {s.headers.map((h, i) => (
                  <option key={i} value={i}>
                    {h}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ))}
      </div>
      <SubmitButton pendingLabel="Reading…">Read with these columns</SubmitButton>
    </Form>
  );
  if (open) {
    return (
      <section aria-labelledby="columns-title">
        <h2 id="columns-title">Which column is which?</h2>
        <p>We could not tell this statement’s columns apart. Pick them once: we remember them for statements laid out the same way.</p>
        {s.sample.length > 0 ? <Sample page={page} /> : null}
        {form}
      </section>
    );
  }
  return (
    <details className="ops-panel" open={!!failure}>
      <summary>Read with other columns</summary>
      {form}
    </details>
  );
}

function Sample({ page }: { page: StatementPage }) {
  const s = page.statement;
  return (
    <div className="ops-table-wrap" role="region" aria-label="The statement's first rows" tabIndex={0}>
      <table className="ops-points">
        <thead>
          <tr>
            {s.headers.map((h, i) => (
              <th key={i} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {s.sample.map((row, i) => (
            <tr key={i}>
              {s.headers.map((_, j) => (
                <td key={j}>{row[j] ?? ''}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
