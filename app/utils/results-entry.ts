import { ID_TEXT } from '@custom-room/contract/constants';

/**
 * The names of the results grid's inputs (decision 062), shared by every screen that enters one
 * match's results (a group's page, the points entry page) and by the browser (pure: no server imports).
 * One row per team: `position.{teamId}`, `finishes.{teamId}` and, where a team may be marked absent,
 * `absent.{teamId}`. The gateway's batch errors use the same keys, plus `teamId.{teamId}` for the row.
 */

export const RESULT_FIELDS = ['position', 'finishes', 'absent'] as const;
export type ResultField = (typeof RESULT_FIELDS)[number];
/** The two numbers of a row, in the order the grid shows them. */
export const NUMBER_FIELDS = ['position', 'finishes'] as const satisfies readonly ResultField[];
export type NumberField = (typeof NUMBER_FIELDS)[number];

export const resultInput = (field: ResultField, teamId: number) => `${field}.${teamId}`;

/** The field and team an input name stands for, or null when it is none of `fields`. */
export function readResultInput<F extends string>(name: string, fields: readonly F[]): { field: F; teamId: number } | null {
  const dot = name.indexOf('.');
  const field = name.slice(0, dot) as F;
  const id = name.slice(dot + 1);
  if (dot < 0 || !fields.includes(field) || !ID_TEXT.test(id)) return null;
  return { field, teamId: Number(id) };
}

/** Every key an error of one row may carry, in the grid's order: the row itself, then its inputs. */
export const rowKeys = (teamId: number, fields: readonly ResultField[]) => [
  `teamId.${teamId}`,
  ...fields.map((f) => resultInput(f, teamId)),
];
