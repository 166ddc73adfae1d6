import type { Queryable } from '../../db/client';
import type { OutgoingMail } from './mail-transport';
import { enqueueMail } from './mail.repository';
import type { OutboxWorker } from './outbox-worker';

/** Outgoing mail: queued with what caused it, sent by the outbox worker. */
export class MailService {
  constructor(
    private readonly outbox: OutboxWorker,
    /** Where mail goes, safe to print. */
    readonly description: string,
  ) {}

  /** Pass the transaction that does what the mail tells about, so neither exists without the other. */
  queue(db: Queryable, mail: OutgoingMail): Promise<void> {
    return enqueueMail(db, mail);
  }

  /** Call once the transaction that queued mail has committed: the worker sends it soon rather than at its next poll. */
  wake(): void {
    this.outbox.wake();
  }

  /** Sends every mail that is due now and returns how many went out. */
  drain(): Promise<number> {
    return this.outbox.drain();
  }
}
