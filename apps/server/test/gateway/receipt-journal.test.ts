import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, stat, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JournalLockedError, ReceiptJournal } from '../../src/gateway/receipt-journal';

const message = (n: number) => ({ topic: `pivot/v1/machines/M-${n}/telemetry`, payload: Buffer.from(`{"n":${n}}`) });

describe('the receipt journal', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), 'pivot-journal-'));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  const segmentFiles = async () => (await readdir(directory)).filter((name) => name.endsWith('.journal'));

  it('gives a later start what was written and not settled, in order', () => {
    const first = ReceiptJournal.open(directory);
    const receipts = [1, 2, 3, 4].map((n) => first.append(message(n)));
    first.settle(receipts[1]!);
    // No close: the process was killed.

    // A settled record among unsettled ones comes again: storing is idempotent, and the journal
    // stays one plain append per message.
    const second = ReceiptJournal.open(directory);
    expect(second.leftovers()).toEqual([message(1), message(2), message(3), message(4)]);
  });

  it('writes what was appended while held at the release, in order, and nothing that was settled before', () => {
    const journal = ReceiptJournal.open(directory);
    journal.append(message(1));
    journal.hold();
    for (const n of [2, 3]) journal.append(message(n));
    // Killed now: the held messages were not acknowledged yet, and the broker sends them again.
    expect(ReceiptJournal.open(directory).leftovers()).toEqual([message(1)]);
    journal.release();
    journal.append(message(4));
    expect(ReceiptJournal.open(directory).leftovers()).toEqual([1, 2, 3, 4].map(message));

    const emptied = ReceiptJournal.open(path.join(directory, 'emptied'));
    emptied.hold();
    for (const receipt of [5, 6].map((n) => emptied.append(message(n)))) emptied.settle(receipt);
    emptied.release();
    expect(ReceiptJournal.open(path.join(directory, 'emptied')).leftovers()).toEqual([]);
  });

  it('empties a segment in place once everything in it is settled', async () => {
    const journal = ReceiptJournal.open(directory);
    const receipts = [1, 2].map((n) => journal.append(message(n)));
    for (const receipt of receipts) journal.settle(receipt);
    const [file] = await segmentFiles();
    expect((await stat(path.join(directory, file!))).size).toBe(0);
    expect(ReceiptJournal.open(directory).leftovers()).toEqual([]);
  });

  it('forgets the leftovers once they are discarded, keeping what was journalled since', () => {
    ReceiptJournal.open(directory).append(message(1));
    const restarted = ReceiptJournal.open(directory);
    const replayed = restarted.leftovers().map((leftover) => restarted.append(leftover));
    restarted.discardLeftovers();
    expect(ReceiptJournal.open(directory).leftovers()).toEqual([message(1)]);
    for (const receipt of replayed) restarted.settle(receipt);
    expect(ReceiptJournal.open(directory).leftovers()).toEqual([]);
  });

  it('removes a closed segment when its last record is settled', async () => {
    const journal = ReceiptJournal.open(directory);
    const receipt = journal.append(message(1));
    journal.close();
    expect(await segmentFiles()).toHaveLength(1);
    journal.settle(receipt);
    expect(await segmentFiles()).toHaveLength(0);
  });

  it('ignores a record cut short by the kill that left it', async () => {
    const journal = ReceiptJournal.open(directory);
    journal.append(message(1));
    journal.append(message(2));
    const [file] = await segmentFiles();
    const full = path.join(directory, file!);
    const { size } = await stat(full);
    await truncate(full, size - 3);
    expect(ReceiptJournal.open(directory).leftovers()).toEqual([message(1)]);
  });

  it('refuses a second live process on the same journal, and takes over from a dead one', async () => {
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      await writeFile(path.join(directory, 'lock'), String(other.pid));
      expect(() => ReceiptJournal.open(directory)).toThrow(JournalLockedError);
    } finally {
      other.kill('SIGKILL');
      await new Promise((resolve) => other.once('exit', resolve));
    }
    expect(() => ReceiptJournal.open(directory)).not.toThrow();
  });
});
