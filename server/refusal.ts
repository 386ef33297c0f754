import type { Request as ExpressRequest, Response as ExpressResponse } from 'express';
import { FORM_UNREADABLE } from '@custom-room/contract/constants';
import { clientAddress } from './forwarded.js';

/**
 * The server's own answers before Remix (decision 020): a short HTML page with its 4xx and hardening
 * headers, and one warning line (anyone can cause these), never an error with a stack.
 */

export interface Refusals {
  refuse(req: ExpressRequest, res: ExpressResponse, status: number, reason: string, title: string, message: string): void;
  tooLarge(req: ExpressRequest, res: ExpressResponse, limit: number, reason: string): void;
  unreadable(req: ExpressRequest, res: ExpressResponse, reason: string): void;
}

export function refusals(redactUrl: (url: string) => string): Refusals {
  const refuse: Refusals['refuse'] = (req, res, status, reason, title, message) => {
    req.log.warn({ status, reason, method: req.method, url: redactUrl(req.originalUrl), client: clientAddress(req) }, 'request refused');
    if (!req.complete) dropRestOfBody(req, res);
    page(res, status, title, message);
  };
  return {
    refuse,
    tooLarge(req, res, limit, reason) {
      const limitText = limit >= 1024 * 1024 ? `${Math.round(limit / (1024 * 1024))} MB` : `${limit / 1024} KB`;
      refuse(req, res, 413, reason, 'Form too large', `This form is larger than this page accepts (${limitText}). Please send less.`);
    },
    unreadable(req, res, reason) {
      refuse(req, res, 400, reason, 'Form could not be read', FORM_UNREADABLE);
    },
  };
}

/**
 * What the client is still sending after our answer is read and dropped, never kept: closing at once
 * would reset the connection under a client still writing, and it might never read the answer.
 * A client that goes on sending for long has its connection cut.
 */
export function dropRestOfBody(req: ExpressRequest, res: ExpressResponse): void {
  res.once('finish', () => {
    const cut = setTimeout(() => req.socket.destroy(), 10_000);
    cut.unref();
    req.once('end', () => clearTimeout(cut));
    req.resume();
  });
}

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** A short page of ours: no script, nothing loaded, a link home. */
export function page(res: ExpressResponse, status: number, title: string, message: string): void {
  res.status(status);
  res.set({
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
  });
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
      `<title>${escape(title)} | Custom Room</title></head><body style="font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem">` +
      `<main><h1>${escape(title)}</h1><p>${escape(message)}</p><p><a href="/">Go to the home page</a></p></main></body></html>`,
  );
}
