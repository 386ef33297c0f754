import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  /** Ends a pooled transport's connections. */
  close?(): void;
}

/** SMTP when SMTP_URL is set; otherwise the mail is written to the log so a local operator can follow the link. */
/** pool: keep a few SMTP connections open and reuse them (the notification worker's bursts, decision 044). */
export function createMailer(options: { smtpUrl?: string; from: string; log: FastifyBaseLogger; pool?: boolean }): Mailer {
  if (!options.smtpUrl) {
    return {
      async send(mail) {
        options.log.warn({ mail }, 'SMTP_URL is not set: mail written to the log instead of sent');
      },
    };
  }
  const transport = options.pool
    ? nodemailer.createTransport({ url: options.smtpUrl, pool: true, maxConnections: 10, maxMessages: Infinity })
    : nodemailer.createTransport(options.smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from: options.from, ...mail });
    },
    close: () => transport.close(),
  };
}
