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

/** After a refused post: the file chosen before, which the browser could not keep, to choose again. */
export function ChooseAgain({ name }: { name?: string }) {
  if (!name) return null;
  return (
    <p className="notice">
      You had chosen <strong>{name}</strong>, but a browser cannot keep a chosen file when a form comes back: please choose the screenshot
      again.
    </p>
  );
}
