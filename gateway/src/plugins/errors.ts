import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { SERVER_ERROR } from '@custom-room/contract';
import { isDatabaseUnavailable, isStorageFault, isWriteConflict } from '../db/index.js';
import { HttpError, type FieldErrors } from '../lib/errors.js';

/** Seconds a client should wait before retrying while the database is unreachable. */
const UNAVAILABLE_RETRY_SECONDS = 5;
/** A full disk needs someone to free space: minutes, not seconds (decision 032). */
const STORAGE_RETRY_SECONDS = 120;
/** A write that lost a deadlock twice in a row: the crowd around that row thins out within seconds. */
const CONFLICT_RETRY_SECONDS = 2;

export const STORAGE_FAULT_MESSAGE = 'The server cannot save right now. Please try again in a few minutes.';
export const WRITE_CONFLICT_MESSAGE = 'Many changes to the same data arrived at once and yours could not be saved. Please try again.';

const MESSAGES: Record<number, string> = {
  400: 'Please check the highlighted fields.',
  401: 'Please log in to continue.',
  403: 'You are not allowed to do that.',
  404: 'Not found.',
  405: 'Method not allowed.',
  409: 'That conflicts with existing data.',
  413: 'The upload is too large.',
  415: 'Unsupported media type.',
  429: 'Too many attempts. Please wait a minute and try again.',
};

/** One error handler: field errors on 400, the message below 500, a generic message and a log line for 5xx. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return reply
        .status(error.statusCode)
        .send(error.errors ? { message: error.message, errors: error.errors } : { message: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: FieldErrors = {};
      for (const v of error.validation) {
        const field = v.instancePath.replace(/^\//, '').replace(/\//g, '.') || error.validationContext || 'request';
        errors[field] ??= v.message;
      }
      return reply.status(400).send({ message: MESSAGES[400], errors });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own errors (bad JSON, wrong content type, body too large) and plugin errors.
      const message =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 'The request body is not valid JSON.'
          : (error.code?.startsWith('FST_') ? MESSAGES[status] : error.message) || MESSAGES[status] || 'Bad request.';
      return reply.status(status).send({ message });
    }
    if (isStorageFault(error)) {
      request.server.store.noteWriteFailure(error);
      request.log.error({ err: error, reqId: request.id }, 'storage fault: a write failed');
      reply.header('retry-after', String(STORAGE_RETRY_SECONDS));
      return reply.status(503).send({ message: STORAGE_FAULT_MESSAGE });
    }
    if (isWriteConflict(error)) {
      request.log.warn({ err: error, reqId: request.id }, 'write conflict after a retry');
      reply.header('retry-after', String(CONFLICT_RETRY_SECONDS));
      return reply.status(503).send({ message: WRITE_CONFLICT_MESSAGE });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error, reqId: request.id }, 'database unavailable');
      reply.header('retry-after', String(UNAVAILABLE_RETRY_SECONDS));
      return reply.status(503).send({ message: 'The service is briefly unavailable. Please try again in a moment.' });
    }
    request.log.error({ err: error, reqId: request.id }, 'request failed');
    return reply.status(500).send({ message: SERVER_ERROR });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ message: `No route for ${request.method} ${request.url.split('?')[0]}.` });
  });
}
