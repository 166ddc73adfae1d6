import {
  closeSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  unlinkSync,
  writeFileSync,
  writevSync,
} from 'node:fs';
import path from 'node:path';

/** A machine message as it came from the broker. */
export type ReceivedMessage = { topic: string; payload: Buffer };

/** One journalled message, to settle once it is stored. */
export type Receipt = { readonly segment: Segment };

type Segment = {
  file: string;
  fd: number;
  /** Where the next record goes; the file is written by position, so it can be emptied in place. */
  size: number;
  openedAt: number;
  /** Records appended to it and not settled yet. */
  outstanding: number;
  /** Records appended while the journal is held, to be written at its release. */
  held: Buffer[];
  /** No longer written to: it goes once its last record is settled. */
  closed: boolean;
};

/** A segment is closed and a new one opened after this long, so a settled stretch of records can go. */
const SEGMENT_MAX_AGE_MS = 2000;
const SEGMENT_MAX_BYTES = 16 * 1024 * 1024;
/** Topic length and payload length, before each record's bytes. */
const HEADER_BYTES = 8;

export class JournalLockedError extends Error {}

/**
 * The server acknowledges a machine's message to the broker as soon as it has it, and stores
 * reports in batches a moment later. This journal closes that gap: each message is appended here
 * before the acknowledgement leaves, and settled once it is stored. A server killed in between
 * (kill -9, a crash) finds the unsettled messages at its next start and stores them then, so an
 * acknowledged report is never lost with the process. The writes go to the operating system's
 * page cache, not to the disk: they survive the process, not a power cut of the host (the broker's
 * own queue is in the same position).
 *
 * Segments are files named by a sequence number. The open segment is emptied in place whenever
 * everything in it is settled, and replaced after a couple of seconds, so that under a steady
 * stream old segments go as soon as their last record is stored.
 */
export class ReceiptJournal {
  private current: Segment | undefined;
  private sequence: number;
  private holding = false;
  private readonly leftoverFiles: string[];

  private constructor(
    private readonly directory: string,
    existing: string[],
  ) {
    this.leftoverFiles = existing.map((name) => path.join(directory, name));
    this.sequence = existing.reduce((highest, name) => Math.max(highest, Number.parseInt(name, 10)), 0);
  }

  /**
   * Opens the journal of one server instance. Two live processes must not share it (nor the
   * broker session named alike): a lock file names the process holding it.
   */
  static open(directory: string): ReceiptJournal {
    mkdirSync(directory, { recursive: true });
    takeLock(path.join(directory, 'lock'));
    const segments = readdirSync(directory)
      .filter((name) => /^\d+\.journal$/.test(name))
      .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
    return new ReceiptJournal(directory, segments);
  }

  /** What a previous run of this instance received and never stored, oldest first. */
  leftovers(): ReceivedMessage[] {
    return this.leftoverFiles.flatMap((file) => readRecords(readFileSync(file)));
  }

  /** Forgets the previous run's leftovers, once they are journalled again as received now. */
  discardLeftovers(): void {
    for (const file of this.leftoverFiles.splice(0)) removeFile(file);
  }

  /**
   * Writes a message down; synchronous, so it is in the journal before the broker is answered.
   * While the journal is held, it is written at the release instead.
   */
  append(message: ReceivedMessage): Receipt {
    const segment = this.writableSegment();
    const topic = Buffer.from(message.topic, 'utf8');
    const record = Buffer.allocUnsafe(HEADER_BYTES + topic.length + message.payload.length);
    record.writeUInt32BE(topic.length, 0);
    record.writeUInt32BE(message.payload.length, 4);
    topic.copy(record, HEADER_BYTES);
    message.payload.copy(record, HEADER_BYTES + topic.length);
    segment.held.push(record);
    segment.outstanding += 1;
    if (!this.holding) writeHeld(segment);
    return { segment };
  }

  /**
   * Keeps what is appended from now on in memory until `release`, which writes it all at once:
   * one write for the many messages a read from the broker brings instead of one each. For a
   * caller that holds the acknowledgements of those messages back as long (the gateway corks its
   * socket): they must not leave before the release.
   */
  hold(): void {
    this.holding = true;
  }

  /** Writes what was appended while held. */
  release(): void {
    this.holding = false;
    if (this.current) writeHeld(this.current);
  }

  /** The message is stored: it need not be replayed. */
  settle(receipt: Receipt): void {
    const segment = receipt.segment;
    segment.outstanding -= 1;
    if (segment.outstanding > 0) return;
    // Stored before they were even written: they need not be.
    segment.held = [];
    if (segment.closed) {
      removeFile(segment.file);
    } else {
      ftruncateSync(segment.fd, 0);
      segment.size = 0;
    }
  }

  /** Closes the open segment; what is unsettled in it stays for the next start. */
  close(): void {
    if (this.current) this.retire(this.current);
    this.current = undefined;
    releaseLock(path.join(this.directory, 'lock'));
  }

  private writableSegment(): Segment {
    const now = Date.now();
    const current = this.current;
    if (current && now - current.openedAt < SEGMENT_MAX_AGE_MS && current.size < SEGMENT_MAX_BYTES) return current;
    if (current) this.retire(current);
    this.sequence += 1;
    const file = path.join(this.directory, `${String(this.sequence).padStart(12, '0')}.journal`);
    this.current = {
      file,
      fd: openSync(file, 'w'),
      size: 0,
      openedAt: now,
      outstanding: 0,
      held: [],
      closed: false,
    };
    return this.current;
  }

  private retire(segment: Segment): void {
    writeHeld(segment);
    closeSync(segment.fd);
    segment.closed = true;
    if (segment.outstanding === 0) removeFile(segment.file);
  }
}

/** Writes a segment's held records at its end, in one system call. */
function writeHeld(segment: Segment): void {
  if (segment.held.length === 0) return;
  segment.size += writevSync(segment.fd, segment.held, segment.size);
  segment.held = [];
}

/** The records of a segment; a record cut short by the kill that left it is not one. */
function readRecords(bytes: Buffer): ReceivedMessage[] {
  const records: ReceivedMessage[] = [];
  let offset = 0;
  while (offset + HEADER_BYTES <= bytes.length) {
    const topicLength = bytes.readUInt32BE(offset);
    const payloadLength = bytes.readUInt32BE(offset + 4);
    const end = offset + HEADER_BYTES + topicLength + payloadLength;
    if (end > bytes.length) break;
    const topicStart = offset + HEADER_BYTES;
    records.push({
      topic: bytes.toString('utf8', topicStart, topicStart + topicLength),
      payload: Buffer.from(bytes.subarray(topicStart + topicLength, end)),
    });
    offset = end;
  }
  return records;
}

function takeLock(file: string): void {
  try {
    const holder = Number.parseInt(readFileSync(file, 'utf8'), 10);
    if (holder !== process.pid && isRunning(holder)) {
      throw new JournalLockedError(
        `Another server process (pid ${holder}) runs with this SERVER_ID on this data folder: give each instance its own SERVER_ID or DATA_DIR.`,
      );
    }
  } catch (error) {
    if (error instanceof JournalLockedError) throw error;
    // No lock, or an unreadable one: nobody holds it.
  }
  writeFileSync(file, String(process.pid));
}

function releaseLock(file: string): void {
  try {
    if (Number.parseInt(readFileSync(file, 'utf8'), 10) === process.pid) removeFile(file);
  } catch {
    // Already gone.
  }
}

/** A file that may already be gone with its folder (a test's data folder, removed after it). */
function removeFile(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
