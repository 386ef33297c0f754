import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Request as ExpressRequest } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';

/**
 * Access lines and the request id (decision 036). Each request gets one id: a proxy's sane
 * `x-request-id`, else a new one. It is `reqId` on every line logged for the request (the gateway's
 * field name) and the `x-request-id` the Request handed to Remix carries, so the gateway client
 * (app/utils/gateway.server.ts requestId()) sends it on and the gateway logs the same id.
 * Logged URLs go through redactUrl: no secret query values in the log (decision 031).
 */

/** As the gateway (gateway/src/app.ts) and the gateway client accept it. */
const REQUEST_ID = /^[\w.:-]{1,128}$/;

export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

export function accessLog(logger: Logger, redactUrl: (url: string) => string, skip: (req: ExpressRequest) => boolean) {
  const urlOf = (req: IncomingMessage) => redactUrl((req as ExpressRequest).originalUrl ?? req.url ?? '');
  return pinoHttp({
    logger,
    genReqId: requestIdOf,
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'reqId' },
    // Files under /build and public/ are not worth a line each, as before (morgan came after them).
    autoLogging: { ignore: (req) => skip(req as ExpressRequest) },
    serializers: {
      req: (req: { method: string; raw: IncomingMessage }) => ({ method: req.method, url: urlOf(req.raw) }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    // As the gateway: a 5xx answer is a warning about the request; errors are what broke inside (logged where they happen).
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'warn' : 'info'),
    customSuccessMessage: (req, res) => `${req.method} ${urlOf(req)} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${urlOf(req)} ${res.statusCode} failed`,
  });
}
