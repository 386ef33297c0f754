import { data } from '@remix-run/node';
import type { z } from 'zod';
import { GatewayError } from './gateway.server';

/**
 * Form handling for actions: FormData → zod → either the parsed data or what the form needs to
 * render again (the user's input, minus secrets, and one message per field).
 */

export type FieldErrors = Record<string, string>;
export type FormValues = Record<string, string>;

/** What a failed action returns; the route component re-renders the form from it. */
export interface FormFailure {
  values: FormValues;
  fieldErrors: FieldErrors;
  formError: string | null;
}

export const UNAVAILABLE_FORM_MESSAGE = 'We could not reach the server. Your details are kept — please try again.';

/** Never sent back to the browser, whatever the form calls them. */
const SECRET_FIELD = /password|token/i;

export const isSecretField = (name: string) => SECRET_FIELD.test(name);

/** An amount of rupees as typed ("₹ 1,500", "5,000.50"), without the sign and the grouping commas. */
export const typedRupees = (text: string) => text.trim().replace(/^₹\s*/, '').replace(/,/g, '');

/** The form's text entries (first value of each name); files are ignored. */
export function formEntries(formData: FormData): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const [name, value] of formData) {
    if (typeof value === 'string' && !(name in entries)) entries[name] = value;
  }
  return entries;
}

/** The user's input to fill the form in again: text entries except passwords and tokens. */
export function safeValues(formData: FormData): FormValues {
  return Object.fromEntries(Object.entries(formEntries(formData)).filter(([name]) => !isSecretField(name)));
}

/** The first message per field ("a.b" for nested paths); issues without a path are form-level. */
export function zodFieldErrors(error: z.ZodError): { fieldErrors: FieldErrors; formError: string | null } {
  const fieldErrors: FieldErrors = {};
  let formError: string | null = null;
  for (const issue of error.issues) {
    const key = issue.path.join('.');
    if (!key) formError ??= issue.message;
    else fieldErrors[key] ??= issue.message;
  }
  return { fieldErrors, formError };
}

export type ParsedForm<T> = { success: true; data: T; values: FormValues } | ({ success: false } & FormFailure);

/** Parses a form with a zod object schema. On failure: the safe values and the field errors. */
export function parseForm<S extends z.ZodTypeAny>(formData: FormData, schema: S): ParsedForm<z.output<S>> {
  const values = safeValues(formData);
  const result = schema.safeParse(formEntries(formData));
  if (result.success) return { success: true, data: result.data, values };
  return { success: false, values, ...zodFieldErrors(result.error) };
}

/**
 * A gateway refusal as form errors. Field errors for fields this form has land next to them
 * (rename maps gateway names to form names); anything else becomes the form-level message:
 * the gateway's own message, or fallback when it sent none.
 */
export function gatewayFormErrors(
  err: GatewayError,
  options: { fields: readonly string[]; fallback: string; rename?: Record<string, string> },
): { fieldErrors: FieldErrors; formError: string | null; status: number } {
  if (err.unavailable) return { fieldErrors: {}, formError: UNAVAILABLE_FORM_MESSAGE, status: 503 };
  const fieldErrors: FieldErrors = {};
  const unplaced: string[] = [];
  for (const [name, message] of Object.entries(err.fieldErrors)) {
    const field = options.rename?.[name] ?? name;
    if (options.fields.includes(field)) fieldErrors[field] ??= message;
    else unplaced.push(message);
  }
  let formError: string | null = null;
  if (unplaced.length) formError = unplaced.join(' ');
  else if (!Object.keys(fieldErrors).length) formError = err.message || options.fallback;
  const status = err.status >= 400 && err.status < 500 ? err.status : 400;
  return { fieldErrors, formError, status };
}

/** The action's answer when the form must be shown again (400 unless told otherwise). */
export function formFailure(failure: Partial<FormFailure>, status = 400) {
  const body: FormFailure = { values: failure.values ?? {}, fieldErrors: failure.fieldErrors ?? {}, formError: failure.formError ?? null };
  return data(body, { status });
}

/**
 * Runs a gateway call for an action; a GatewayError becomes the form failure to return, anything else
 * (a redirect Response, a bug) is rethrown.
 */
export async function submitToGateway<T>(
  call: () => Promise<T>,
  options: { values: FormValues; fields: readonly string[]; fallback: string; rename?: Record<string, string> },
): Promise<{ ok: true; value: T } | { ok: false; failure: ReturnType<typeof formFailure> }> {
  try {
    return { ok: true, value: await call() };
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    const { fieldErrors, formError, status } = gatewayFormErrors(err, options);
    return { ok: false, failure: formFailure({ values: options.values, fieldErrors, formError }, status) };
  }
}
