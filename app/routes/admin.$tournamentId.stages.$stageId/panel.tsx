import { ErrorSummary } from '~/components/ui/error-summary';
import { useIntentState, type Intent } from './intent-state';

/** One panel of the stage control room: a section titled by its h2, reached by #id. */
export function Panel({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section className="ops-panel" aria-labelledby={`${id}-title`} id={id}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </section>
  );
}

/** The error summary of one form: empty unless that form was the one refused. */
export function IntentSummary({ intent, order = [] }: { intent: Intent; order?: readonly string[] }) {
  const { errors, formError } = useIntentState(intent);
  return <ErrorSummary fieldErrors={errors} formError={formError} order={order} />;
}
