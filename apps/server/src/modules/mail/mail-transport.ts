import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type nodemailer from 'nodemailer';

export type OutgoingMail = { to: string; subject: string; text: string; html: string };

export type MailTransport = {
  send(message: OutgoingMail): Promise<void>;
  /** Where mail goes, safe to print: never contains credentials. */
  description: string;
};

// The worker sends one mail at a time, so a server that accepts the connection and then stalls
// must not hold the queue for nodemailer's default of ten minutes. Query parameters in SMTP_URL
// still override these.
const SMTP_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 };

/** A nodemailer transport made at the first mail: nodemailer loads then, not with the server (docs/decisions/0008). */
function madeAtFirstMail<Made>(make: (mailer: typeof nodemailer) => Made): () => Promise<Made> {
  let made: Made | undefined;
  return async () => (made ??= make((await import('nodemailer')).default));
}

export function outboxFolder(dataDir: string): string {
  return path.join(dataDir, 'outbox');
}

/** SMTP when a server is configured; otherwise files in the data folder that anyone can open in a mail client. */
export function createMailTransport(options: {
  smtpUrl: string | undefined;
  mailFrom: string;
  dataDir: string;
}): MailTransport {
  return options.smtpUrl
    ? smtpTransport(options.smtpUrl, options.mailFrom)
    : fileTransport(outboxFolder(options.dataDir), options.mailFrom);
}

function smtpTransport(smtpUrl: string, mailFrom: string): MailTransport {
  const url = new URL(smtpUrl);
  const transporter = madeAtFirstMail((mailer) =>
    mailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS }, { from: mailFrom }),
  );
  return {
    description: `SMTP ${url.protocol}//${url.host}`,
    async send(message) {
      await (await transporter()).sendMail(message);
    },
  };
}

function fileTransport(folder: string, mailFrom: string): MailTransport {
  // RFC 822 wants CRLF line ends; mail clients open such .eml files as they are.
  const composer = madeAtFirstMail((mailer) =>
    mailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' }, { from: mailFrom }),
  );
  // Each file gets a later millisecond than the one before, so names sort in sending order even in a burst.
  let lastTimestamp = 0;
  return {
    description: `outbox folder ${folder}`,
    async send(message) {
      const { message: content } = await (await composer()).sendMail(message);
      await mkdir(folder, { recursive: true });
      lastTimestamp = Math.max(Date.now(), lastTimestamp + 1);
      // The id keeps names unique when several instances share the folder.
      const name = `${new Date(lastTimestamp).toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`;
      // Whoever watches the folder never sees a half-written file: rename is atomic, and the
      // temporary name does not end in .eml.
      const temporary = path.join(folder, `.${name}.tmp`);
      try {
        await writeFile(temporary, content);
        await rename(temporary, path.join(folder, name));
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
  };
}
