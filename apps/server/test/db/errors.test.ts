import { describe, expect, it } from 'vitest';
import { classifyWriteFailure, databaseMessage } from '../../src/db/errors';

/** As drizzle wraps a driver's error: its own message names the statement and its parameters. */
const wrapped = (cause: Error) => new Error('Failed query: insert into telemetry … params: …', { cause });
const coded = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('a failed write', () => {
  it('is refused when the database refuses the values: data exceptions, constraints, limits', () => {
    for (const code of ['22021', '22003', '22P02', '23505', '23514', '54000']) {
      expect(classifyWriteFailure(wrapped(coded('refused', code))), code).toBe('refused');
    }
  });

  it('is unavailable when the database fails for a reason of its own, or the connection does', () => {
    for (const code of ['08006', '57P01', '53300', '40001', '40P01', '42P01', 'ECONNREFUSED', 'ECONNRESET']) {
      expect(classifyWriteFailure(wrapped(coded('away', code))), code).toBe('unavailable');
    }
  });

  it('is unknown without a code, which a trivial query tells apart', () => {
    expect(classifyWriteFailure(wrapped(new Error('Connection terminated unexpectedly')))).toBe('unknown');
    expect(classifyWriteFailure(new Error('PGlite is closed'))).toBe('unknown');
  });

  it('is told in the database’s words, without the statement', () => {
    const error = wrapped(coded('invalid byte sequence for encoding "UTF8": 0x00', '22021'));
    expect(databaseMessage(error)).toBe('invalid byte sequence for encoding "UTF8": 0x00');
    expect(databaseMessage('plain')).toBe('plain');
  });
});
