import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BackupAccess,
  type BackupManifest,
  BackupFileError,
  openBackupFile,
  readBackupLines,
  writeBackupFile,
} from '../../src/backup/backup-file';
import { proveBackup, restoreBackup, takeBackup } from '../../src/backup/backups';
import { type DatabaseHandle, openDatabase } from '../../src/db/client';
import { createTestDatabase, withEmbeddedDatabase } from '../support/database';
import { migrationsFolder } from '../support/migrations';
import { runBackupCommand } from '../support/backup-command';

const PASSPHRASE = 'correct horse battery';
const MAGIC = 'PIVOT-BACKUP\n';
const HEADER_BYTES = 4096;

/** The source holds 4 users and 6 machines; every target holds 2 and 3 until a restore succeeds. */
const TARGET_COUNTS = { users: 2, machines: 3 };

async function seed(db: DatabaseHandle['db'], users: number, machines: number, label: string): Promise<void> {
  for (let index = 0; index < users; index += 1) {
    await db.execute(
      sql`insert into users (first_name, last_name, email) values ('Ann', ${label}, ${`${label}-${index}@farm.test`})`,
    );
  }
  for (let index = 0; index < machines; index += 1) {
    await db.execute(
      sql`insert into sprinklers (internal_id, name, lat, lng) values (${`${label}-${index}`}, 'Pivot', 52.2, 17.1)`,
    );
  }
}

async function countsOf(db: DatabaseHandle['db']): Promise<{ users: number; machines: number }> {
  const result = await db.execute(
    sql`select (select count(*)::int from users) as users, (select count(*)::int from sprinklers) as machines`,
  );
  return (result as unknown as { rows: { users: number; machines: number }[] }).rows[0]!;
}

/** A backup file taken apart: the manifest as JSON, the seal line's digest (format 2), the payload. */
type Parts = { manifest: BackupManifest; seal: string | undefined; payload: Buffer };

function partsOf(bytes: Buffer): Parts {
  const manifestEnd = bytes.indexOf('\n', MAGIC.length);
  const seal = /^seal ([0-9a-f]{64})\n/.exec(bytes.subarray(manifestEnd + 1, HEADER_BYTES).toString('latin1'));
  return {
    manifest: JSON.parse(bytes.subarray(MAGIC.length, manifestEnd).toString('utf8')) as BackupManifest,
    seal: seal?.[1],
    payload: bytes.subarray(HEADER_BYTES),
  };
}

/**
 * Puts a file together again as the tamperer wants it: `recompute` sets the payload's length and
 * SHA-256 and the seal as an unencrypted file's (anyone can: no key); `formatOne` writes the header
 * as format 1 did, without a seal line (as the file had it, unless told).
 */
function fileOf(parts: Parts, options: { recompute?: boolean; formatOne?: boolean } = {}): Buffer {
  const formatOne = options.formatOne ?? parts.seal === undefined;
  const manifest = structuredClone(parts.manifest);
  if (options.recompute) {
    manifest.payloadBytes = parts.payload.length;
    manifest.payloadSha256 = createHash('sha256').update(parts.payload).digest('hex');
  }
  const sealed = `${MAGIC}${JSON.stringify(manifest)}`;
  const seal = options.recompute
    ? createHash('sha256').update(`${sealed}\n`).digest('hex')
    : (parts.seal ?? '0'.repeat(64));
  const header = Buffer.alloc(HEADER_BYTES, ' ');
  header.write(formatOne ? sealed : `${sealed}\nseal ${seal}\n`, 'utf8');
  header[HEADER_BYTES - 1] = 0x0a;
  return Buffer.concat([header, parts.payload]);
}

function edited(bytes: Buffer, edit: (manifest: BackupManifest) => void, options?: { formatOne?: boolean }): Buffer {
  const parts = partsOf(bytes);
  edit(parts.manifest);
  return fileOf(parts, options);
}

function withPayload(bytes: Buffer, payload: Buffer, recompute: boolean): Buffer {
  return fileOf({ ...partsOf(bytes), payload }, { recompute });
}

function flipBit(bytes: Buffer, at: number): Buffer {
  const copy = Buffer.from(bytes);
  copy[at] = copy[at]! ^ 0x01;
  return copy;
}

const flipBase64 = (value: string) => flipBit(Buffer.from(value, 'base64'), 0).toString('base64');
const encryptionOf = (manifest: BackupManifest) => manifest.encryption!;

/** An older migration's tag, read from the journal before the cases run. */
let MIGRATION_9 = '';

type Files = { plain: Buffer; encrypted: Buffer };
type Case = [name: string, make: (files: Files) => Buffer, access: BackupAccess, refusal: RegExp];

const withPassphrase = { passphrase: PASSPHRASE };
const sealBroken = /was altered or damaged: its header does not match its seal/;

const CASES: Case[] = [
  // Each field of the header, on an encrypted file (the seal is an HMAC under the passphrase).
  [
    'format 2 → 3',
    (f) => edited(f.encrypted, (m) => Object.assign(m, { format: 3 })),
    withPassphrase,
    /header cannot be read/,
  ],
  ['tables: a count', (f) => edited(f.encrypted, (m) => (m.tables.users! += 1)), withPassphrase, sealBroken],
  ['tables: a table removed', (f) => edited(f.encrypted, (m) => delete m.tables.users), withPassphrase, sealBroken],
  ['machineCount', (f) => edited(f.encrypted, (m) => (m.machineCount = 60)), withPassphrase, sealBroken],
  ['productVersion', (f) => edited(f.encrypted, (m) => (m.productVersion = '9.9.9')), withPassphrase, sealBroken],
  [
    'database',
    (f) => edited(f.encrypted, (m) => (m.database = m.database === 'pglite' ? 'postgres' : 'pglite')),
    withPassphrase,
    sealBroken,
  ],
  ['takenAt', (f) => edited(f.encrypted, (m) => (m.takenAt = '2020-01-01T00:00:00.000Z')), withPassphrase, sealBroken],
  ['files', (f) => edited(f.encrypted, (m) => (m.files = ['demo-fleet-credentials.json'])), withPassphrase, sealBroken],
  ['migration', (f) => edited(f.encrypted, (m) => (m.migration.index -= 1)), withPassphrase, sealBroken],
  ['payloadBytes', (f) => edited(f.encrypted, (m) => (m.payloadBytes -= 1)), withPassphrase, /1 bytes too many/],
  ['payloadSha256', (f) => edited(f.encrypted, (m) => (m.payloadSha256 = '0'.repeat(64))), withPassphrase, sealBroken],
  [
    'encryption: the tag',
    (f) => edited(f.encrypted, (m) => (encryptionOf(m).tag = flipBase64(encryptionOf(m).tag))),
    withPassphrase,
    sealBroken,
  ],
  [
    'encryption: the nonce',
    (f) => edited(f.encrypted, (m) => (encryptionOf(m).nonce = flipBase64(encryptionOf(m).nonce))),
    withPassphrase,
    sealBroken,
  ],
  [
    'encryption: the salt',
    (f) => edited(f.encrypted, (m) => (encryptionOf(m).kdf.salt = flipBase64(encryptionOf(m).kdf.salt))),
    withPassphrase,
    /does not open this backup/,
  ],
  [
    'encryption: the key check',
    (f) => edited(f.encrypted, (m) => (encryptionOf(m).keyCheck = flipBase64(encryptionOf(m).keyCheck))),
    withPassphrase,
    /does not open this backup/,
  ],
  ['the seal', (f) => fileOf({ ...partsOf(f.encrypted), seal: '0'.repeat(64) }), withPassphrase, sealBroken],
  ['a header field, unencrypted', (f) => edited(f.plain, (m) => (m.tables.users! += 1)), {}, sealBroken],
  // Key derivation settings that would make scrypt fail or run for hours.
  ...(
    [
      ['N = 2^31', { N: 2 ** 31 }],
      ['N = 3', { N: 3 }],
      ['N = 2^10', { N: 2 ** 10 }],
      ['r = 0', { r: 0 }],
      ['p = 1000', { p: 1000 }],
      ['salt empty', { salt: '' }],
      ['salt of 4 bytes', { salt: 'AAAAAA==' }],
    ] as const
  ).map(([name, kdf]): Case => [
    `crafted key derivation: ${name}`,
    (f) => edited(f.encrypted, (m) => Object.assign(encryptionOf(m).kdf, kdf)),
    withPassphrase,
    /encryption settings are not ones this product writes/,
  ]),
  // The payload.
  ['encrypted payload: a bit', (f) => flipBit(f.encrypted, f.encrypted.length - 100), withPassphrase, /is corrupted/],
  [
    'encrypted payload: a bit, checksum recomputed',
    (f) => withPayload(f.encrypted, flipBit(partsOf(f.encrypted).payload, 10), true),
    withPassphrase,
    sealBroken,
  ],
  ['plain payload: a bit', (f) => flipBit(f.plain, f.plain.length - 100), {}, /is corrupted/],
  [
    'plain payload: a bit, checksums recomputed',
    (f) => withPayload(f.plain, flipBit(partsOf(f.plain).payload, 40), true),
    {},
    /payload cannot be read/,
  ],
  [
    'plain payload: gzip end damaged, checksums recomputed',
    (f) => withPayload(f.plain, flipBit(partsOf(f.plain).payload, partsOf(f.plain).payload.length - 6), true),
    {},
    /payload cannot be read/,
  ],
  [
    'plain payload: gzip end cut, checksums recomputed',
    (f) => withPayload(f.plain, partsOf(f.plain).payload.subarray(0, -8), true),
    {},
    /payload cannot be read/,
  ],
  [
    'encrypted payload: cut short, checksum recomputed',
    (f) => withPayload(f.encrypted, partsOf(f.encrypted).payload.subarray(0, -10), true),
    withPassphrase,
    sealBroken,
  ],
  // Truncation and trailing bytes.
  ['truncated inside the header', (f) => f.encrypted.subarray(0, 100), withPassphrase, /ends inside its header/],
  ['truncated after the header', (f) => f.encrypted.subarray(0, HEADER_BYTES + 10), withPassphrase, /is truncated/],
  ['truncated 10 bytes short', (f) => f.encrypted.subarray(0, -10), withPassphrase, /is truncated/],
  ['trailing bytes', (f) => Buffer.concat([f.encrypted, Buffer.from('junk')]), withPassphrase, /4 bytes too many/],
  [
    'plain: trailing bytes, checksums recomputed',
    (f) => withPayload(f.plain, Buffer.concat([partsOf(f.plain).payload, Buffer.from('junk')]), true),
    {},
    /payload cannot be read/,
  ],
  // What the passphrase and the file say of each other.
  [
    'an encrypted file that says it is not',
    (f) => edited(f.encrypted, (m) => (m.encryption = null)),
    withPassphrase,
    /not encrypted, yet BACKUP_PASSPHRASE is set/,
  ],
  ['an unencrypted file with a passphrase set', (f) => f.plain, withPassphrase, /add --allow-unencrypted/],
  ['an encrypted file without a passphrase', (f) => f.encrypted, {}, /This backup is encrypted: set BACKUP_PASSPHRASE/],
  [
    'format 1 (no seal) with its migration changed',
    (f) =>
      edited(f.encrypted, (m) => Object.assign(m, { format: 1, migration: { index: 9, tag: MIGRATION_9 } }), {
        formatOne: true,
      }),
    withPassphrase,
    /rows of \w+ do not fit the schema of its migration/,
  ],
];

// Each case restores into an embedded database; the untouched files' test restores four times:
// beside the test command's other suites that took over 30 s.
describe('a tampered backup', { timeout: 90_000 }, () => {
  let source: DatabaseHandle;
  let target: DatabaseHandle;
  let folder: string;
  const files: Files = { plain: Buffer.alloc(0), encrypted: Buffer.alloc(0) };

  beforeAll(async () => {
    const journal = JSON.parse(await readFile(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
      entries: { tag: string }[];
    };
    MIGRATION_9 = journal.entries[9]!.tag;
    folder = await mkdtemp(path.join(os.tmpdir(), 'pivot-tampered-'));
    source = await createTestDatabase();
    await seed(source.db, 4, 6, 'source');
    await takeBackup(source, path.join(folder, 'plain.pivotbackup'), { dataDir: folder });
    await takeBackup(source, path.join(folder, 'encrypted.pivotbackup'), { dataDir: folder, passphrase: PASSPHRASE });
    files.plain = await readFile(path.join(folder, 'plain.pivotbackup'));
    files.encrypted = await readFile(path.join(folder, 'encrypted.pivotbackup'));
    target = await createTestDatabase();
    await seed(target.db, TARGET_COUNTS.users, TARGET_COUNTS.machines, 'target');
  });
  afterAll(async () => {
    await source.close();
    await target.close();
    await rm(folder, { recursive: true, force: true });
  });

  /** What `npm run restore -- <file> --force` does: proves the file, then replaces the target. */
  async function restoreForced(bytes: Buffer, access: BackupAccess): Promise<unknown> {
    const file = path.join(folder, 'tampered.pivotbackup');
    await writeFile(file, bytes);
    return proveBackup(file, access)
      .then((backup) => restoreBackup(target, backup, { dataDir: folder, force: true }))
      .then(
        () => undefined,
        (error: unknown) => error,
      );
  }

  it.each(CASES)('%s: refused in one line, the target unchanged', async (_name, make, access, refusal) => {
    const error = await restoreForced(make(files), access);
    expect(error).toBeInstanceOf(BackupFileError);
    expect((error as Error).message).toMatch(refusal);
    expect((error as Error).message).not.toContain('\n');
    expect(await countsOf(target.db)).toEqual(TARGET_COUNTS);
  });

  it('restores the untouched files, and a format 1 file, with the flags they need', async () => {
    const formatOne = edited(files.encrypted, (m) => Object.assign(m, { format: 1 }), { formatOne: true });
    for (const [bytes, access] of [
      [files.encrypted, withPassphrase],
      [files.plain, {}],
      [files.plain, { passphrase: PASSPHRASE, allowUnencrypted: true }],
      [formatOne, withPassphrase],
    ] as const) {
      expect(await restoreForced(bytes, access)).toBeUndefined();
      expect(await countsOf(target.db)).toEqual({ users: 4, machines: 6 });
      // Back to the target's own content for the next.
      await target.db.execute(sql`delete from users`);
      await target.db.execute(sql`delete from sprinklers`);
      await seed(target.db, TARGET_COUNTS.users, TARGET_COUNTS.machines, 'target');
    }
  });

  it('leaves the database as it was when the load fails half way', async () => {
    // A sound file (its seal and checksums right) whose rows the database refuses: a user without a name.
    const opened = await openBackupFile(path.join(folder, 'plain.pivotbackup'), {});
    const lines: string[] = [];
    for await (const line of readBackupLines(opened)) lines.push(line);
    const file = path.join(folder, 'refused-row.pivotbackup');
    await writeBackupFile(file, async (sink) => {
      let table = '';
      for (const line of lines) {
        if (line.startsWith('T ')) table = line.slice(2);
        await sink.line(
          table === 'users' && line.startsWith('R ') ? line.replace(/"first_name":"[^"]*"/, '"first_name":null') : line,
        );
      }
      const { productVersion, migration, takenAt, database, machineCount, tables, files: kept } = opened.manifest;
      return { productVersion, migration, takenAt, database, machineCount, tables, files: kept };
    });
    const error = await proveBackup(file, {})
      .then((backup) => restoreBackup(target, backup, { dataDir: folder, force: true }))
      .catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/was undone, so the database is as it was: .*first_name/);
    expect(await countsOf(target.db)).toEqual(TARGET_COUNTS);
  });
});

// Each test runs `npm run restore` as a process of its own, some several times: under the test
// command's load a run takes many seconds.
describe('npm run restore', { timeout: 90_000 }, () => {
  let folder: string;
  let dataDir: string;
  let encrypted: string;
  let plain: string;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'pivot-restore-command-'));
    dataDir = path.join(folder, 'data');
    const source = await openDatabase({
      databaseUrl: undefined,
      dataDir: await withEmbeddedDatabase(path.join(folder, 'source')),
    });
    await seed(source.db, 4, 6, 'source');
    encrypted = path.join(folder, 'encrypted.pivotbackup');
    plain = path.join(folder, 'plain.pivotbackup');
    await takeBackup(source, encrypted, { dataDir: folder, passphrase: PASSPHRASE });
    await takeBackup(source, plain, { dataDir: folder });
    await source.close();
    const target = await openDatabase({ databaseUrl: undefined, dataDir: await withEmbeddedDatabase(dataDir) });
    await seed(target.db, TARGET_COUNTS.users, TARGET_COUNTS.machines, 'target');
    await target.close();
    // Two databases and two backups, one encrypted with scrypt: tens of seconds on two cores
    // shared with the other suites.
  }, 180_000);
  afterAll(() => rm(folder, { recursive: true, force: true }));

  const runCommand = (args: string[], passphrase: string, locale?: NodeJS.ProcessEnv) =>
    runBackupCommand(args, { dataDir, passphrase, locale });

  async function targetCounts() {
    const target = await openDatabase({ databaseUrl: undefined, dataDir });
    try {
      return await countsOf(target.db);
    } finally {
      await target.close();
    }
  }

  it.each([
    [
      'a flipped tag',
      () =>
        readFile(encrypted).then((bytes) =>
          edited(bytes, (m) => (encryptionOf(m).tag = flipBase64(encryptionOf(m).tag))),
        ),
      PASSPHRASE,
    ],
    [
      'crafted key derivation',
      () => readFile(encrypted).then((bytes) => edited(bytes, (m) => (encryptionOf(m).kdf.N = 3))),
      PASSPHRASE,
    ],
    ['a passphrase for an unencrypted file', () => readFile(plain), PASSPHRASE],
  ])('refuses %s with one line and exit code 1, the target unchanged', async (_name, make, passphrase) => {
    const file = path.join(folder, 'tampered.pivotbackup');
    await writeFile(file, await make());
    const { code, stderr } = await runCommand(['restore', file, '--force'], passphrase);
    expect(code).toBe(1);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(await targetCounts()).toEqual(TARGET_COUNTS);
    expect((await readdir(folder)).filter((name) => name.includes('.partial-'))).toEqual([]);
  });

  describe("in the operator's language", () => {
    const sealBroken = () =>
      readFile(plain).then((bytes) => edited(bytes, (manifest) => (manifest.productVersion = '9.9.9')));

    it('refuses a tampered file in Polish under LANG=pl_PL.UTF-8, the target unchanged', async () => {
      const file = path.join(folder, 'tampered-pl.pivotbackup');
      await writeFile(file, await sealBroken());
      const { code, stderr } = await runCommand(['restore', file, '--force'], '', { LANG: 'pl_PL.UTF-8' });
      expect(code).toBe(1);
      expect(stderr.trimEnd().split('\n')).toEqual([
        `${file} został zmieniony lub uszkodzony: jego nagłówek nie zgadza się z pieczęcią. Użyj innej kopii zapasowej.`,
      ]);
      expect(await targetCounts()).toEqual(TARGET_COUNTS);
    });

    it('speaks English when told --lang en, whatever the locale says (and takes no option for the file)', async () => {
      const file = path.join(folder, 'tampered-en.pivotbackup');
      await writeFile(file, await sealBroken());
      const { code, stderr } = await runCommand(['restore', '--lang', 'en', file, '--force'], '', {
        LC_ALL: 'pl_PL.UTF-8',
        LANG: 'pl_PL.UTF-8',
      });
      expect(code).toBe(1);
      expect(stderr.trimEnd().split('\n')).toEqual([
        `${file} was altered or damaged: its header does not match its seal. Use another backup.`,
      ]);
      expect(await targetCounts()).toEqual(TARGET_COUNTS);
    });

    it('takes LC_ALL before LANG, and --lang pl before both', async () => {
      const { stderr: fromLcAll } = await runCommand(['restore', '--force'], '', {
        LC_ALL: 'pl_PL.UTF-8',
        LANG: 'en_GB.UTF-8',
      });
      expect(fromLcAll.trimEnd().split('\n')).toEqual([
        expect.stringMatching(/^użycie: .*podaj plik kopii do odtworzenia$/),
      ]);
      const { stderr: fromOption } = await runCommand(['restore', '--force', '--lang=pl'], '', { LC_ALL: 'C' });
      expect(fromOption.trimEnd().split('\n')).toEqual([expect.stringMatching(/^użycie: /)]);
      const { code, stderr: refused } = await runCommand(['restore', '--force', '--lang', 'de'], '', {
        LC_MESSAGES: 'pl_PL.UTF-8',
      });
      expect(code).toBe(1);
      expect(refused.trimEnd().split('\n')).toEqual([
        expect.stringMatching(/--lang przyjmuje pl albo en, a nie "de"$/),
      ]);
      // Three commands, each a process of its own: on a busy machine one takes over 10 s.
    }, 90_000);
  });
});
