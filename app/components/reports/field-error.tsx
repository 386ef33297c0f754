import { errorId } from '~/components/ui/field';

/** A field's error where the Field component does not fit (a row of two inputs, a group): the id the inputs point at. */
export function FieldError({ id, error }: { id: string; error?: string | null }) {
  if (!error) return null;
  return (
    <p className="field-error" id={errorId(id)}>
      <span aria-hidden="true">⚠ </span>
      {error}
    </p>
  );
}
