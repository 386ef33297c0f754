import { Field } from './field';

/** A labelled select of 1 … count, each option worded "Day 1", "Match 2" …: the match forms' day and match number. */
export function NumberedSelect({
  name,
  label,
  word,
  count,
  defaultValue,
  error,
}: {
  name: string;
  label: string;
  word: string;
  count: number;
  defaultValue: string | undefined;
  error?: string;
}) {
  return (
    <Field id={name} label={label} error={error}>
      {(control) => (
        <select name={name} defaultValue={defaultValue} {...control}>
          {Array.from({ length: count }, (_, i) => i + 1).map((n) => (
            <option key={n} value={n}>
              {/* Two text nodes, "Day " and 1: the same server HTML as the forms wrote before. */}
              {`${word} `}
              {n}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
