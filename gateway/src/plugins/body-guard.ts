import type { FastifyInstance } from 'fastify';
import { badRequest, NUL_MESSAGE } from '../lib/errors.js';

/** Far deeper than any call's body (a points batch is 3 levels); the walk below stops there. */
export const MAX_JSON_DEPTH = 64;
export const NESTING_MESSAGE = 'This request is nested too deeply.';

/**
 * PostgreSQL text cannot hold U+0000 (it fails the statement), so no call accepts it, on either database;
 * nor a body nested deeper than any call's (decision 030).
 */
export function guardBodies(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const problem = bodyProblem(request.body);
    if (!problem) return;
    // Deep nesting is refused whole: its message leads, and no field below it is worth naming.
    const message = problem.message === NESTING_MESSAGE ? NESTING_MESSAGE : 'Please check the highlighted fields.';
    throw badRequest(message, { [problem.field || 'request']: problem.message });
  });
}

/**
 * The first problem of a parsed JSON body, in document order: a string holding U+0000 (at its dotted
 * path, '' for the body itself), or nesting deeper than MAX_JSON_DEPTH (at the top-level field that
 * holds it). Iterative: a 64 KB body can nest 32,000 levels, far past the call stack (issue 16, item 13).
 */
function bodyProblem(body: unknown): { field: string; message: string } | undefined {
  const stack: { value: unknown; path: string; depth: number; top: string }[] = [{ value: body, path: '', depth: 0, top: '' }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value, path, depth, top } = next;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return { field: path, message: NUL_MESSAGE };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) return { field: Array.isArray(body) ? '' : top, message: NESTING_MESSAGE };
    const entries = Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i]!;
      stack.push({ value: item, path: path ? `${path}.${key}` : key, depth: depth + 1, top: top || key });
    }
  }
  return undefined;
}
