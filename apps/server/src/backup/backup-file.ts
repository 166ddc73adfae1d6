import {
  type CipherGCM,
  type DecipherGCM,
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  scrypt,
  timingSafeEqual,
} from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { PassThrough, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { z } from 'zod';

/*
 * A backup is one file: a fixed 4 KiB header, then the payload.
 *
 *   "PIVOT-BACKUP\n" + the manifest as JSON, padded with spaces to 4096 bytes
 *   payload: gzip of the dump's lines, AES-256-GCM encrypted when a passphrase is given
 *
 * The manifest names the payload's length and SHA-256, so a truncated or altered file is refused
 * before anything is restored. The file is written under a temporary name, the header last, and
 * renamed only once complete and on disk: a backup killed half way leaves no file that looks whole.
 */

const MAGIC = 'PIVOT-BACKUP\n';
const HEADER_BYTES = 4096;
export const BACKUP_FORMAT_VERSION = 1;

/** scrypt's cost: 2^15 × 8 × 128 bytes = 32 MiB of memory for each guess. */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1 } as const;
const SCRYPT_MAX_MEMORY = 64 * 1024 * 1024;
const KEY_CHECK_LABEL = 'pivot-backup-key-check';

const EncryptionSchema = z.object({
  algorithm: z.literal('aes-256-gcm'),
  kdf: z.object({
    name: z.literal('scrypt'),
    N: z.number().int(),
    r: z.number().int(),
    p: z.number().int(),
    salt: z.string(),
  }),
  nonce: z.string(),
  tag: z.string(),
  /** HMAC of a fixed label under the key: a wrong passphrase is told apart before any decryption. */
  keyCheck: z.string(),
});

export const BackupManifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT_VERSION),
  productVersion: z.string(),
  /** The last migration the database had applied: a restore migrates to it, then forward. */
  migration: z.object({ index: z.number().int().min(0), tag: z.string() }),
  takenAt: z.string(),
  database: z.enum(['pglite', 'postgres']),
  machineCount: z.number().int().min(0),
  tables: z.record(z.string(), z.number().int().min(0)),
  files: z.array(z.string()),
  payloadBytes: z.number().int().min(0),
  payloadSha256: z.string().regex(/^[0-9a-f]{64}$/),
  encryption: EncryptionSchema.nullable(),
});
export type BackupManifest = z.infer<typeof BackupManifestSchema>;

/** What the dump tells the manifest; the file adds the rest. */
export type DumpSummary = Omit<BackupManifest, 'format' | 'payloadBytes' | 'payloadSha256' | 'encryption'>;

/** A backup that cannot be read as it is: the message says why, in words an operator acts on. */
export class BackupFileError extends Error {}

function deriveKey(passphrase: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(passphrase, salt, 32, { ...cost, maxmem: SCRYPT_MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

const keyCheckOf = (key: Buffer) => createHmac('sha256', key).update(KEY_CHECK_LABEL).digest();

/** Counts and hashes the bytes passing through. */
class HashingTap extends Transform {
  readonly hash = createHash('sha256');
  bytes = 0;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    done(null, chunk);
  }
}

export type BackupSink = {
  /** Adds one line to the payload (waits while the file is behind). */
  line: (text: string) => Promise<void>;
};

/**
 * Writes a backup to `target`: `produce` emits the dump's lines and returns its summary. The file
 * appears under its name only when complete and flushed to disk; on failure nothing is left.
 */
export async function writeBackupFile(
  target: string,
  produce: (sink: BackupSink) => Promise<DumpSummary>,
  options: { passphrase?: string | undefined } = {},
): Promise<BackupManifest> {
  const partial = path.join(
    path.dirname(target),
    `.${path.basename(target)}.partial-${randomBytes(4).toString('hex')}`,
  );
  const gzip = createGzip();
  const tap = new HashingTap();
  let encryption: BackupManifest['encryption'] = null;
  let cipher: CipherGCM | undefined;
  let key: Buffer | undefined;
  let nonce: Buffer | undefined;
  let salt: Buffer | undefined;
  if (options.passphrase) {
    salt = randomBytes(16);
    nonce = randomBytes(12);
    key = await deriveKey(options.passphrase, salt, SCRYPT);
    cipher = createCipheriv('aes-256-gcm', key, nonce);
  }
  const file = createWriteStream(partial, { flags: 'wx', start: HEADER_BYTES, mode: 0o600 });
  const written = cipher ? pipeline(gzip, cipher, tap, file) : pipeline(gzip, tap, file);
  // A failure of the pipeline surfaces through `written`; the producer must not hang on a drain meanwhile.
  const failed = written.then(
    () => undefined,
    (error: unknown) => error,
  );
  try {
    const sink: BackupSink = {
      line: async (text) => {
        if (!gzip.write(`${text}\n`)) {
          const error = await Promise.race([once(gzip, 'drain').then(() => undefined), failed]);
          if (error) throw error;
        }
      },
    };
    const summary = await produce(sink);
    gzip.end();
    await written;
    if (cipher && key && nonce && salt) {
      encryption = {
        algorithm: 'aes-256-gcm',
        kdf: { name: 'scrypt', ...SCRYPT, salt: salt.toString('base64') },
        nonce: nonce.toString('base64'),
        tag: cipher.getAuthTag().toString('base64'),
        keyCheck: keyCheckOf(key).toString('base64'),
      };
    }
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT_VERSION,
      ...summary,
      payloadBytes: tap.bytes,
      payloadSha256: tap.hash.digest('hex'),
      encryption,
    };
    const header = Buffer.from(`${MAGIC}${JSON.stringify(manifest)}`, 'utf8');
    if (header.length >= HEADER_BYTES) throw new Error('the backup manifest outgrew its header');
    const handle = await open(partial, 'r+');
    try {
      await handle.write(
        Buffer.concat([header, Buffer.alloc(HEADER_BYTES - header.length - 1, ' '), Buffer.from('\n')]),
        0,
        HEADER_BYTES,
        0,
      );
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(partial, target);
    await syncFolder(path.dirname(target));
    return manifest;
  } catch (error) {
    // The file may still be opening: it is removed only once its stream has closed, or it would come back.
    gzip.destroy();
    await failed;
    if (!file.closed) await new Promise<void>((resolve) => file.once('close', () => resolve()));
    await rm(partial, { force: true });
    throw error;
  }
}

/** The rename itself reaches the disk only once the folder is flushed. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } catch {
    // Some file systems cannot flush a folder; the file itself is on disk.
  } finally {
    await handle.close();
  }
}

/**
 * Reads and checks a backup's manifest and payload checksum without restoring anything: a file
 * that is not a backup, truncated or altered is refused here with a message that says which.
 */
export async function verifyBackupFile(file: string): Promise<BackupManifest> {
  const size = await stat(file).then(
    (stats) => stats.size,
    () => {
      throw new BackupFileError(`${file}: no such file.`);
    },
  );
  const handle = await open(file, 'r');
  let headerText: string;
  try {
    const header = Buffer.alloc(Math.min(HEADER_BYTES, size));
    await handle.read(header, 0, header.length, 0);
    headerText = header.toString('utf8');
  } finally {
    await handle.close();
  }
  if (!headerText.startsWith(MAGIC)) {
    throw new BackupFileError(`${file} is not a Pivot backup (or its header is damaged).`);
  }
  let manifest: BackupManifest;
  try {
    manifest = BackupManifestSchema.parse(JSON.parse(headerText.slice(MAGIC.length).trim()));
  } catch {
    throw new BackupFileError(
      `${file}: the backup's header cannot be read; the file is damaged or from a newer version.`,
    );
  }
  const expected = HEADER_BYTES + manifest.payloadBytes;
  if (size < expected) {
    throw new BackupFileError(
      `${file} is truncated: ${size} bytes of ${expected}. It was cut short while being written or copied; use another backup.`,
    );
  }
  if (size > expected) throw new BackupFileError(`${file} has ${size - expected} bytes too many: it is damaged.`);
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { start: HEADER_BYTES })) hash.update(chunk as Buffer);
  if (hash.digest('hex') !== manifest.payloadSha256) {
    throw new BackupFileError(`${file} is corrupted: its checksum does not match. Use another backup.`);
  }
  return manifest;
}

/**
 * Checks the passphrase against an encrypted backup and returns the decipher to read it with;
 * undefined for a backup that is not encrypted.
 */
async function decipherFor(manifest: BackupManifest, passphrase: string | undefined): Promise<DecipherGCM | undefined> {
  const { encryption } = manifest;
  if (!encryption) return undefined;
  if (!passphrase) {
    throw new BackupFileError('This backup is encrypted: set BACKUP_PASSPHRASE to the passphrase it was made with.');
  }
  const { N, r, p, salt } = encryption.kdf;
  const key = await deriveKey(passphrase, Buffer.from(salt, 'base64'), { N, r, p });
  const check = Buffer.from(encryption.keyCheck, 'base64');
  const computed = keyCheckOf(key);
  if (check.length !== computed.length || !timingSafeEqual(check, computed)) {
    throw new BackupFileError('Wrong passphrase: BACKUP_PASSPHRASE does not open this backup.');
  }
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(encryption.nonce, 'base64'));
  decipher.setAuthTag(Buffer.from(encryption.tag, 'base64'));
  return decipher;
}

/** Checks that the passphrase opens the backup, before anything is changed. */
export async function checkPassphrase(manifest: BackupManifest, passphrase: string | undefined): Promise<void> {
  await decipherFor(manifest, passphrase);
}

/** The payload's lines, decrypted and decompressed; call after verifyBackupFile. */
export async function* readBackupLines(
  file: string,
  manifest: BackupManifest,
  passphrase: string | undefined,
): AsyncGenerator<string> {
  const decipher = await decipherFor(manifest, passphrase);
  const text = new PassThrough();
  const stages = [
    createReadStream(file, { start: HEADER_BYTES }),
    ...(decipher ? [decipher] : []),
    createGunzip(),
    text,
  ];
  const flowing = pipeline(stages);
  const failed = flowing.then(
    () => undefined,
    (error: unknown) => error,
  );
  const lines = createInterface({ input: text, crlfDelay: Infinity });
  for await (const line of lines) yield line;
  const error = await failed;
  if (error) throw new BackupFileError(`The backup's payload cannot be read: ${(error as Error).message}`);
}
