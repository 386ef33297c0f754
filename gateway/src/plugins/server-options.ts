import crypto from 'node:crypto';
import http from 'node:http';
import { LogController, type FastifyHttpOptions, type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The options Fastify is made with: logging, limits and timeouts, and the answers for requests no route sees. */
export function serverOptions(config: Config, logger: FastifyServerOptions['logger'] | undefined): FastifyHttpOptions<http.Server> {
  return {
    logger: logger ?? { level: config.LOG_LEVEL, redact: ['req.headers.authorization'] },
    // Fastify's two info lines per request cost more than a cached answer; see plugins/logging.ts.
    // (Through a LogController: the top-level disableRequestLogging option warns FSTDEP023 at every start.)
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 64 * 1024,
    genReqId(req) {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : crypto.randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
    // Slow clients (decision 030): the headers, and the whole request with its body, must arrive in time
    // (Node answers 408), and a connection on which nothing moves is closed. Node checks the first two
    // every connectionsCheckingInterval (30 s by default): often enough to keep to the timeouts set.
    requestTimeout: config.GATEWAY_REQUEST_TIMEOUT_MS,
    connectionTimeout: config.GATEWAY_IDLE_TIMEOUT_MS,
    http: {
      headersTimeout: config.GATEWAY_HEADERS_TIMEOUT_MS,
      requestTimeout: config.GATEWAY_REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: Math.min(30_000, Math.ceil(config.GATEWAY_HEADERS_TIMEOUT_MS / 4)),
    },
    clientErrorHandler(error, socket) {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const { status, message } = clientErrorAnswer(error.code);
      // Anyone can cause these: one line, no stack.
      (this as unknown as FastifyInstance).log.info(
        { code: error.code, remoteAddress: socket.remoteAddress, status },
        'connection refused before a complete request',
      );
      const body = JSON.stringify({ message });
      if (socket.writable) {
        socket.write(
          `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      }
      socket.destroy();
    },
    // Errors the router raises before any route runs (a malformed %-escape, an over-long path
    // parameter) would otherwise get Fastify's own body; answer them in the contract's shape.
    frameworkErrors(error, _request, res) {
      const reply = res as unknown as FastifyReply;
      const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
      reply.status(status).send({ message: status === 414 ? 'The address is too long.' : 'The address is not valid.' });
    },
  };
}

/** Answers for connections that fail before a request is complete (Node's clientError), in the contract's shape. */
function clientErrorAnswer(code: string | undefined): { status: number; message: string } {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, message: 'The request took too long to arrive. Please try again.' };
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, message: 'The request headers are too large.' };
  return { status: 400, message: 'The request could not be read.' };
}
