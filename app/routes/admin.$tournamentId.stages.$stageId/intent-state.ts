import { useActionData } from '@remix-run/react';
import type { FieldErrors, FormFailure, FormValues } from '~/utils/forms.server';

/** Every form of the stage control room posts one of these as `intent` (decision 061: one handler each). */
export const INTENTS = [
  'settings',
  'delete',
  'invite',
  'uninvite',
  'draw',
  'move',
  'publish',
  'schedule',
  'rooms',
  'complete',
  'reopen',
  'no-shows',
  'fill-slot',
] as const;
export type Intent = (typeof INTENTS)[number];

/** A refused form: its values carry the intent, so only the form that was sent shows the errors. */
export type ActionFailure = FormFailure & { intent: Intent };

/**
 * One form's share of the action's answer: its errors, message and values when it was the form sent,
 * else nothing; `key` remounts the form on a new refusal so its inputs show the values sent back.
 */
export function useIntentState(intent: Intent) {
  const actionData = useActionData<ActionFailure>();
  const failed = (actionData?.values as FormValues | undefined)?.intent === intent;
  return {
    failed,
    errors: (failed ? (actionData?.fieldErrors ?? {}) : {}) as FieldErrors,
    formError: failed ? actionData?.formError : null,
    values: (failed ? (actionData?.values ?? {}) : {}) as FormValues,
    key: (base: string) => (failed ? `failed-${JSON.stringify(actionData)}` : base),
  };
}
