import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client';
import { activationMail, passwordResetMail } from '../../src/modules/mail/mail-templates';
import { type OutgoingMail, createMailTransport, outboxFolder } from '../../src/modules/mail/mail-transport';
import { enqueueMail } from '../../src/modules/mail/mail.repository';
import { mailOutbox } from '../../src/modules/mail/mail.table';
import { OutboxWorker } from '../../src/modules/mail/outbox-worker';
import { createTestDatabase } from '../support/database';

const MAIL_FROM = 'Pivot <no-reply@pivot.test>';
const LINK = 'https://pivot.example/set-password/17/token-value?from=mail&step=1';

type ReceivedMail = { to: string[]; raw: string };

/** A real SMTP server on a local port that keeps what it receives, and can go down and come back on the same port. */
class LocalSmtpServer {
  readonly received: ReceivedMail[] = [];
  /** True while a message is being received, to catch a worker in the middle of a send. */
  receiving = false;
  port = 0;
  private server: SMTPServer | undefined;

  constructor(private readonly replyDelayMs = 0) {}

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  recipients(): string[] {
    return this.received.flatMap((mail) => mail.to);
  }

  async start(): Promise<void> {
    const server = new SMTPServer({
      secure: false,
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        this.receiving = true;
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          setTimeout(() => {
            this.received.push({
              to: session.envelope.rcptTo.map((recipient) => recipient.address),
              raw: Buffer.concat(chunks).toString('latin1'),
            });
            this.receiving = false;
            callback();
          }, this.replyDelayMs);
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** A local port nothing listens on, so connecting to it is refused at once. */
async function refusingPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Header names in lower case, folded lines joined: enough of RFC 822 to read a message back. */
function headersOf(raw: string): Map<string, string> {
  const head = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  return new Map(
    head.split('\r\n').map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
}

/** The body as UTF-8 text. Nodemailer writes Latin-script text as quoted-printable, which splits and escapes a long link. */
function decodedBody(raw: string): string {
  const body = raw
    .slice(raw.indexOf('\r\n\r\n'))
    .replace(/=\r\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(body, 'latin1').toString('utf8');
}

function accountMail(to: string): OutgoingMail {
  return { to, ...activationMail({ language: 'pl', firstName: 'Anna', link: LINK, productName: 'Pivot' }) };
}

describe('file transport', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'pivot-mail-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('writes each mail as an .eml file in the outbox folder, named in sending order', async () => {
    const transport = createMailTransport({ smtpUrl: undefined, mailFrom: MAIL_FROM, dataDir });
    const folder = outboxFolder(dataDir);
    expect(transport.description).toBe(`outbox folder ${folder}`);

    const mail = accountMail('anna@farm.test');
    await transport.send(mail);
    await transport.send({ ...mail, to: 'bartek@farm.test' });

    const files = (await readdir(folder)).sort();
    expect(files).toHaveLength(2);
    for (const file of files) expect(file).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-[0-9a-f-]{36}\.eml$/);
    const messages = await Promise.all(files.map((file) => readFile(path.join(folder, file), 'latin1')));
    const recipients = messages.map((raw) => headersOf(raw).get('to'));
    expect(recipients).toEqual(['anna@farm.test', 'bartek@farm.test']);

    const raw = messages[0] ?? '';
    expect(
      raw
        .split('\n')
        .slice(0, -1)
        .every((line) => line.endsWith('\r')),
    ).toBe(true);
    const headers = headersOf(raw);
    expect(headers.get('subject')).toBe(mail.subject);
    expect(headers.get('from')).toBe(MAIL_FROM);
    expect(headers.get('content-type')).toMatch(/^multipart\/alternative/);
    const body = decodedBody(raw);
    expect(body).toContain(LINK);
    expect(body).toContain('Link jest ważny przez 7 dni');
    expect(body).toContain('<!doctype html>');
  });
});

describe('SMTP transport', () => {
  const smtp = new LocalSmtpServer();
  beforeAll(() => smtp.start());
  afterAll(() => smtp.stop());

  it('describes the server without its credentials', () => {
    const transport = createMailTransport({
      smtpUrl: 'smtps://mailer:secret@mail.example.com:465',
      mailFrom: MAIL_FROM,
      dataDir: os.tmpdir(),
    });
    expect(transport.description).toBe('SMTP smtps://mail.example.com:465');
  });

  it('delivers to a real SMTP server', async () => {
    const transport = createMailTransport({ smtpUrl: smtp.url, mailFrom: MAIL_FROM, dataDir: os.tmpdir() });
    const mail = {
      to: 'anna@farm.test',
      ...passwordResetMail({ language: 'en', firstName: 'Anna', link: LINK, productName: 'Pivot' }),
    };
    await transport.send(mail);

    expect(smtp.received).toHaveLength(1);
    const [received] = smtp.received;
    expect(received?.to).toEqual(['anna@farm.test']);
    const raw = received?.raw ?? '';
    expect(headersOf(raw).get('subject')).toBe(mail.subject);
    expect(decodedBody(raw)).toContain(LINK);
  });
});

describe('outbox worker', () => {
  type LogLine = { level: number; msg: string; mailId?: number };
  const logs: LogLine[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => logs.push(JSON.parse(line) as LogLine) });
  const smtp = new LocalSmtpServer();
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await createTestDatabase();
    await smtp.start();
  });
  afterAll(async () => {
    await smtp.stop();
    await handle.close();
  });

  function workerFor(smtpUrl: string, options: { maxAttempts?: number; pollIntervalMs?: number } = {}) {
    const transport = createMailTransport({ smtpUrl, mailFrom: MAIL_FROM, dataDir: os.tmpdir() });
    return new OutboxWorker({ db: handle.db, transport, logger, secretIssuers: new Map(), ...options });
  }

  async function rowFor(recipient: string) {
    const [row] = await handle.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, recipient));
    if (!row) throw new Error(`no outbox row for ${recipient}`);
    return row;
  }

  /** Stands in for waiting out the retry delay. */
  async function makeDue(id: number): Promise<void> {
    await handle.db
      .update(mailOutbox)
      .set({ nextAttemptAt: sql`now() - interval '1 second'` })
      .where(eq(mailOutbox.id, id));
  }

  it('sends queued mails and marks them sent', async () => {
    await handle.db.transaction(async (tx) => {
      await enqueueMail(tx, accountMail('first@farm.test'));
      await enqueueMail(tx, accountMail('second@farm.test'));
    });

    expect(await workerFor(smtp.url).drain()).toBe(2);

    expect(smtp.recipients()).toEqual(expect.arrayContaining(['first@farm.test', 'second@farm.test']));
    for (const recipient of ['first@farm.test', 'second@farm.test']) {
      const row = await rowFor(recipient);
      expect(row.status).toBe('sent');
      expect(row.sentAt).toBeInstanceOf(Date);
      expect(row.attempts).toBe(0);
    }
  });

  it('keeps a mail while the SMTP server is down and sends it once the server is back', async () => {
    const worker = workerFor(smtp.url);
    await smtp.stop();
    await enqueueMail(handle.db, accountMail('patient@farm.test'));

    expect(await worker.drain()).toBe(0);
    const failed = await rowFor('patient@farm.test');
    expect(failed.status).toBe('pending');
    expect(failed.attempts).toBe(1);
    expect(failed.lastError).toMatch(/ECONNREFUSED|connect/i);
    expect(failed.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 20_000);
    expect(logs).toContainEqual(expect.objectContaining({ level: 40, mailId: failed.id }));

    await smtp.start();
    expect(await worker.drain()).toBe(0);
    await makeDue(failed.id);
    expect(await worker.drain()).toBe(1);

    expect(smtp.recipients()).toContain('patient@farm.test');
    const sent = await rowFor('patient@farm.test');
    expect(sent.status).toBe('sent');
    expect(sent.attempts).toBe(1);
  });

  it('gives up after the last attempt and logs it as an error', async () => {
    const worker = workerFor(`smtp://127.0.0.1:${await refusingPort()}`, { maxAttempts: 3 });
    await enqueueMail(handle.db, accountMail('unlucky@farm.test'));
    const { id } = await rowFor('unlucky@farm.test');

    for (let attempt = 1; attempt <= 3; attempt += 1) {
      expect(await worker.drain()).toBe(0);
      expect(await rowFor('unlucky@farm.test')).toMatchObject({
        attempts: attempt,
        status: attempt < 3 ? 'pending' : 'failed',
      });
      await makeDue(id);
    }

    expect(await worker.drain()).toBe(0);
    const row = await rowFor('unlucky@farm.test');
    expect(row).toMatchObject({ status: 'failed', attempts: 3, sentAt: null });
    expect(row.lastError).toBeTruthy();
    expect(logs.filter((line) => line.level === 50 && line.mailId === id)).toHaveLength(1);
  });

  it('delivers each mail exactly once when two workers drain together', async () => {
    const recipients = Array.from({ length: 20 }, (_, index) => `crowd-${index}@farm.test`);
    for (const recipient of recipients) await enqueueMail(handle.db, accountMail(recipient));

    const counts = await Promise.all([workerFor(smtp.url).drain(), workerFor(smtp.url).drain()]);

    expect(counts[0] + counts[1]).toBe(recipients.length);
    const delivered = smtp.recipients().filter((recipient) => recipient.startsWith('crowd-'));
    expect(delivered.sort()).toEqual([...recipients].sort());
    const rows = await handle.db.select().from(mailOutbox).where(inArray(mailOutbox.recipient, recipients));
    expect(rows.every((row) => row.status === 'sent')).toBe(true);
  });

  it('sends soon after a wake and lets a send in progress finish when stopped', async () => {
    const slowSmtp = new LocalSmtpServer(300);
    await slowSmtp.start();
    const worker = workerFor(slowSmtp.url, { pollIntervalMs: 60_000 });
    try {
      worker.start();
      await enqueueMail(handle.db, accountMail('woken@farm.test'));
      worker.wake();
      worker.wake();
      await vi.waitFor(() => expect(slowSmtp.receiving).toBe(true), { timeout: 5_000 });

      await worker.stop();
      expect((await rowFor('woken@farm.test')).status).toBe('sent');

      await enqueueMail(handle.db, accountMail('after-stop@farm.test'));
      worker.wake();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await rowFor('after-stop@farm.test')).status).toBe('pending');
      expect(slowSmtp.recipients()).toEqual(['woken@farm.test']);
      expect(await worker.drain()).toBe(1);
    } finally {
      await worker.stop();
      await slowSmtp.stop();
    }
  });
});
