import { describe, expect, it } from 'vitest';
import { BackupFileError } from '../../src/backup/backup-file';
import { commandLanguage, languageOption, withoutLanguageOption } from '../../src/i18n/command-language';
import { OPERATOR_MESSAGE_CODES, operatorMessage } from '../../src/i18n/messages';

/** Every parameter a text may name, so each code can be written out in both languages. */
const SAMPLE = {
  file: 'pivot.pivotbackup',
  size: 10,
  expected: 20,
  extra: 3,
  reason: 'unexpected end of file',
  migration: '0031_broker_accounts',
  table: 'users',
  rows: 4,
  cause: 'duplicate key value',
  dataDir: 'data',
  url: 'http://127.0.0.1:3000',
  status: 500,
  value: 'de',
  pid: 42,
  bytes: 4096,
  takenAt: '2026-11-28T20:00:00.000Z',
  version: '1.0.0',
  machines: 6,
  tables: 30,
  files: [],
  done: 1,
  total: 2,
  deviceAuth: 'none',
  missing: 2,
  restored: 1,
  unrestorable: ['pivot-7'],
} as const;

describe('the operator commands’ texts', () => {
  it('has every code in Polish and in English, each its own', () => {
    expect(OPERATOR_MESSAGE_CODES.length).toBeGreaterThan(40);
    for (const code of OPERATOR_MESSAGE_CODES) {
      const write = operatorMessage as (code: string, language: 'pl' | 'en', params: typeof SAMPLE) => string;
      const english = write(code, 'en', SAMPLE);
      const polish = write(code, 'pl', SAMPLE);
      expect(english, code).not.toBe('');
      expect(polish, code).not.toBe('');
      expect(polish, code).not.toBe(english);
    }
  });

  it('gives a refused backup’s reason with its parameters in either language, English as its message', () => {
    const error = new BackupFileError('backup_truncated', { file: 'a.pivotbackup', size: 100, expected: 5000 });
    expect(error.code).toBe('backup_truncated');
    expect(error.message).toBe(
      'a.pivotbackup is truncated: 100 bytes of 5000. It was cut short while being written or copied; use another backup.',
    );
    expect(error.messageIn('pl')).toBe(
      'a.pivotbackup jest ucięty: 100 bajtów z 5000. Przerwano go przy zapisie lub kopiowaniu; użyj innej kopii zapasowej.',
    );
  });
});

describe('a command’s language', () => {
  it('is the first of LC_ALL, LC_MESSAGES and LANG that is set, Polish when it starts with pl', () => {
    expect(commandLanguage(undefined, { LANG: 'pl_PL.UTF-8' })).toBe('pl');
    expect(commandLanguage(undefined, { LC_ALL: 'en_US.UTF-8', LANG: 'pl_PL.UTF-8' })).toBe('en');
    expect(commandLanguage(undefined, { LC_ALL: '', LC_MESSAGES: 'pl_PL', LANG: 'C' })).toBe('pl');
    expect(commandLanguage(undefined, { LC_MESSAGES: 'C.UTF-8', LANG: 'pl_PL.UTF-8' })).toBe('en');
    expect(commandLanguage(undefined, {})).toBe('en');
  });

  it('is what --lang says, whatever the environment says', () => {
    expect(commandLanguage(languageOption(['restore', 'f', '--lang', 'en']), { LC_ALL: 'pl_PL.UTF-8' })).toBe('en');
    expect(commandLanguage(languageOption(['--lang=pl']), { LANG: 'C' })).toBe('pl');
    expect(languageOption(['--lang', 'de'])).toEqual({ invalid: 'de' });
    expect(withoutLanguageOption(['restore', '--lang', 'pl', 'f', '--force'])).toEqual(['restore', 'f', '--force']);
  });
});
