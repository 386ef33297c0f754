export type FieldErrors = Record<string, string>;

/** An expected failure: becomes `{ message, errors? }` with this status. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: FieldErrors,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, errors?: FieldErrors) => new HttpError(400, message, errors);
export const unauthorized = (message = 'Please log in to continue.') => new HttpError(401, message);
export const forbidden = (message = 'You are not allowed to do that.') => new HttpError(403, message);
export const notFound = (message = 'Not found.') => new HttpError(404, message);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new HttpError(429, `Too many attempts. Please wait ${retryAfterSeconds} seconds and try again.`);
export const conflict = (message: string, errors?: FieldErrors) => new HttpError(409, message, errors);

/** U+0000 cannot be stored in PostgreSQL text: refused in every field. */
export const NUL_MESSAGE = 'This text contains a NUL character (U+0000), which is not allowed.';
