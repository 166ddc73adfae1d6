import {
  type CipherGCM,
  type DecipherGCM,
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
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
import type { Language } from '@pivot/contracts';
import { z } from 'zod';
import { type OperatorMessageCode, type OperatorMessageParams, operatorMessage } from '../i18n/messages';

/*
 * A backup is one file: a fixed 4 KiB header, then the payload.
 *
 *   "PIVOT-BACKUP\n" + the manifest as JSON + "\n"
 *   "seal " + 64 hex digits + "\n", then spaces to 4096 bytes, the last one "\n"
 *   payload: gzip of the dump's lines, AES-256-GCM encrypted when a passphrase is given
 *
 * The manifest names the payload's length and SHA-256, and the seal covers the header's first
 * lines (up to and including the manifest's "\n"), so header and payload together: an HMAC-SHA256
 * under a key derived from the passphrase when the file is encrypted, so that no one without the
 * passphrase can change a byte of either (GCM's tag, in the manifest, could not cover the header
 * that holds it), and a SHA-256 otherwise, which tells damage apart (anyone may recompute it). The
 * file is written under a temporary name, the header last, and renamed only once complete and on
 * disk: a backup killed half way leaves no file that looks whole.
 *
 * Format 1 had no seal line and is still read: its header is not covered, but its payload is
 * (GCM's tag when encrypted), and a restore checks the rest against the content before it
 * changes anything: each table's rows against the manifest's counts, their columns against the
 * schema of the manifest's migration (docs/operations.md, "Backups").
 */

const MAGIC = 'PIVOT-BACKUP\n';
export const BACKUP_HEADER_BYTES = 4096;
export const BACKUP_FORMAT_VERSION = 2;
const SEAL_PREFIX = 'seal ';

/** scrypt's cost: 2^15 × 8 × 128 bytes = 32 MiB of memory for each guess. */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1 } as const;
const SCRYPT_MAX_MEMORY = 64 * 1024 * 1024;
/**
 * What a header may ask of scrypt: a crafted header must not make a restore hang or fail inside
 * scrypt. Any backup this product wrote is within them.
 */
const KDF_LIMITS = { minN: 2 ** 14, maxMemory: 32 * 1024 * 1024, maxP: 4, minSalt: 16, maxSalt: 64 } as const;
const KEY_CHECK_LABEL = 'pivot-backup-key-check';
const SEAL_KEY_LABEL = 'pivot-backup-seal';

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
type Encryption = z.infer<typeof EncryptionSchema>;

export const BackupManifestSchema = z.object({
  format: z.union([z.literal(1), z.literal(BACKUP_FORMAT_VERSION)]),
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

/**
 * A backup that cannot be read as it is, or an operator's command that cannot go on: its code and
 * parameters say why, in words an operator acts on, in either language; `message` is the English.
 */
export class BackupFileError<C extends OperatorMessageCode = OperatorMessageCode> extends Error {
  readonly params: OperatorMessageParams<C>;
  constructor(
    readonly code: C,
    ...params: OperatorMessageParams<C>
  ) {
    super(operatorMessage(code, 'en', ...params));
    this.params = params;
  }

  messageIn(language: Language): string {
    return operatorMessage(this.code, language, ...this.params);
  }
}

function deriveKey(passphrase: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(passphrase, salt, 32, { ...cost, maxmem: SCRYPT_MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

const keyCheckOf = (key: Buffer) => createHmac('sha256', key).update(KEY_CHECK_LABEL).digest();
/** The seal's key is not the cipher's: one key, one use. */
const sealKeyOf = (key: Buffer) => Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), SEAL_KEY_LABEL, 32));

/** The seal of a header's sealed lines (which name the payload's SHA-256), under the key when encrypted. */
function sealOf(sealedHeader: Buffer, key: Buffer | undefined): Buffer {
  const sealer = key ? createHmac('sha256', sealKeyOf(key)) : createHash('sha256');
  return sealer.update(sealedHeader).digest();
}

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

/** The header's lines that the seal covers, with the manifest. */
function sealedHeaderOf(manifest: BackupManifest): Buffer {
  return Buffer.from(`${MAGIC}${JSON.stringify(manifest)}\n`, 'utf8');
}

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
  const tap = new HashingTap();
  const file = createWriteStream(partial, { flags: 'wx', start: BACKUP_HEADER_BYTES, mode: 0o600 });
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
    let encryption: Encryption | null = null;
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
    const sealedHeader = sealedHeaderOf(manifest);
    const seal = sealOf(sealedHeader, key).toString('hex');
    const header = Buffer.concat([sealedHeader, Buffer.from(`${SEAL_PREFIX}${seal}\n`)]);
    if (header.length >= BACKUP_HEADER_BYTES) throw new Error('the backup manifest outgrew its header');
    const handle = await open(partial, 'r+');
    try {
      await handle.write(
        Buffer.concat([header, Buffer.alloc(BACKUP_HEADER_BYTES - header.length - 1, ' '), Buffer.from('\n')]),
        0,
        BACKUP_HEADER_BYTES,
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

type BackupHeader = { manifest: BackupManifest; sealedHeader: Buffer; seal: Buffer | undefined };

/** Decodes a header's base64 value of an exact length (or range): anything else is not what a backup writes. */
function decodeBase64(value: string, [min, max]: readonly [number, number]): Buffer | undefined {
  const bytes = Buffer.from(value, 'base64');
  const canonical = bytes.toString('base64') === value;
  return canonical && bytes.length >= min && bytes.length <= max ? bytes : undefined;
}

type EncryptionParameters = {
  salt: Buffer;
  nonce: Buffer;
  tag: Buffer;
  keyCheck: Buffer;
  N: number;
  r: number;
  p: number;
};

/** The encryption's settings, refused before any work when out of what scrypt and GCM may be asked. */
function encryptionParameters(file: string, encryption: Encryption): EncryptionParameters {
  const { N, r, p, salt } = encryption.kdf;
  const parameters = {
    salt: decodeBase64(salt, [KDF_LIMITS.minSalt, KDF_LIMITS.maxSalt]),
    nonce: decodeBase64(encryption.nonce, [12, 12]),
    tag: decodeBase64(encryption.tag, [16, 16]),
    keyCheck: decodeBase64(encryption.keyCheck, [32, 32]),
  };
  const costInBounds =
    N >= KDF_LIMITS.minN &&
    (N & (N - 1)) === 0 &&
    r >= 1 &&
    128 * N * r <= KDF_LIMITS.maxMemory &&
    p >= 1 &&
    p <= KDF_LIMITS.maxP;
  const { salt: saltBytes, nonce, tag, keyCheck } = parameters;
  if (!costInBounds || !saltBytes || !nonce || !tag || !keyCheck) {
    throw new BackupFileError('backup_encryption_settings_refused', { file });
  }
  return { salt: saltBytes, nonce, tag, keyCheck, N, r, p };
}

/** Reads the header: the manifest, and (from format 2) the lines the seal covers and the seal. */
function parseHeader(file: string, header: Buffer): BackupHeader {
  if (!header.toString('latin1').startsWith(MAGIC)) {
    throw new BackupFileError('backup_not_a_backup', { file });
  }
  if (header.length < BACKUP_HEADER_BYTES) {
    throw new BackupFileError('backup_truncated_in_header', { file });
  }
  const unreadable = () => new BackupFileError('backup_header_unreadable', { file });
  const manifestEnd = header.indexOf('\n', MAGIC.length);
  if (manifestEnd < 0) throw unreadable();
  let manifest: BackupManifest;
  try {
    manifest = BackupManifestSchema.parse(JSON.parse(header.subarray(MAGIC.length, manifestEnd).toString('utf8')));
  } catch {
    throw unreadable();
  }
  if (manifest.format === 1) return { manifest, sealedHeader: Buffer.alloc(0), seal: undefined };
  const sealedHeader = header.subarray(0, manifestEnd + 1);
  const rest = header.subarray(manifestEnd + 1).toString('latin1');
  const match = /^seal ([0-9a-f]{64})\n *\n$/.exec(rest);
  if (!match) throw unreadable();
  return { manifest, sealedHeader, seal: Buffer.from(match[1]!, 'hex') };
}

async function readHeader(file: string): Promise<{ header: BackupHeader; size: number }> {
  const size = await stat(file).then(
    (stats) => stats.size,
    () => {
      throw new BackupFileError('backup_no_such_file', { file });
    },
  );
  const handle = await open(file, 'r');
  const bytes = Buffer.alloc(Math.min(BACKUP_HEADER_BYTES, size));
  try {
    await handle.read(bytes, 0, bytes.length, 0);
  } finally {
    await handle.close();
  }
  const header = parseHeader(file, bytes);
  const expected = BACKUP_HEADER_BYTES + header.manifest.payloadBytes;
  if (size < expected) {
    throw new BackupFileError('backup_truncated', { file, size, expected });
  }
  if (size > expected) throw new BackupFileError('backup_extra_bytes', { file, extra: size - expected });
  if (header.manifest.encryption) encryptionParameters(file, header.manifest.encryption);
  return { header, size };
}

/** Checks the seal (format 2): without the key, only an unencrypted file's. */
function checkSeal(file: string, { manifest, sealedHeader, seal }: BackupHeader, key: Buffer | undefined): void {
  if (!seal || (manifest.encryption && !key)) return;
  if (!timingSafeEqual(sealOf(sealedHeader, key), seal)) {
    throw new BackupFileError('backup_seal_mismatch', { file });
  }
}

/** Reads the whole payload once: its SHA-256 (which the seal covers) against the manifest. */
async function checkPayload(file: string, manifest: BackupManifest): Promise<void> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { start: BACKUP_HEADER_BYTES })) hash.update(chunk as Buffer);
  if (hash.digest('hex') !== manifest.payloadSha256) {
    throw new BackupFileError('backup_checksum_mismatch', { file });
  }
}

/**
 * Reads and checks a backup's header, length and payload checksum (and an unencrypted file's seal)
 * without a passphrase and without restoring anything: a file that is not a backup, truncated or
 * altered is refused here with a message that says which.
 */
export async function verifyBackupFile(file: string): Promise<BackupManifest> {
  const { header } = await readHeader(file);
  checkSeal(file, header, undefined);
  await checkPayload(file, header.manifest);
  return header.manifest;
}

/** The manifest of a backup's first BACKUP_HEADER_BYTES, read before the rest arrives; `source` names it in errors. */
export function manifestOfHeader(source: string, header: Buffer): BackupManifest {
  return parseHeader(source, header.subarray(0, BACKUP_HEADER_BYTES)).manifest;
}

/** Whether the passphrase opens an encrypted backup (its encryption settings refused when out of bounds). */
export async function passphraseOpens(source: string, encryption: Encryption, passphrase: string): Promise<boolean> {
  const { salt, keyCheck, N, r, p } = encryptionParameters(source, encryption);
  return timingSafeEqual(keyCheckOf(await deriveKey(passphrase, salt, { N, r, p })), keyCheck);
}

/** How a restore may open a backup. */
export type BackupAccess = {
  passphrase?: string | undefined;
  /** Restore a file that is not encrypted although a passphrase is set (it may have been stripped of it). */
  allowUnencrypted?: boolean;
};

/** A backup whose header, passphrase, length, checksum and seal were checked; `key` opens its payload. */
export type OpenedBackup = { file: string; manifest: BackupManifest; size: number; key: Buffer | undefined };

/** Derives the key and checks it against the header: a wrong passphrase is refused before any decryption. */
async function keyFor(file: string, encryption: Encryption, passphrase: string): Promise<Buffer> {
  const { salt, keyCheck, N, r, p } = encryptionParameters(file, encryption);
  const key = await deriveKey(passphrase, salt, { N, r, p });
  if (!timingSafeEqual(keyCheckOf(key), keyCheck)) {
    throw new BackupFileError('backup_wrong_passphrase');
  }
  return key;
}

/**
 * Checks everything about a backup but its content before anything is restored: the header and its
 * encryption settings, that the passphrase set is the one the file needs (a passphrase set for a
 * file that says it is not encrypted is refused unless `allowUnencrypted`: it may have been
 * swapped), the length, the checksum and the seal.
 */
export async function openBackupFile(file: string, access: BackupAccess): Promise<OpenedBackup> {
  const { header, size } = await readHeader(file);
  const { encryption } = header.manifest;
  if (encryption && !access.passphrase) {
    throw new BackupFileError('backup_passphrase_required');
  }
  if (!encryption && access.passphrase && !access.allowUnencrypted) {
    throw new BackupFileError('backup_unexpectedly_unencrypted');
  }
  const key = encryption && access.passphrase ? await keyFor(file, encryption, access.passphrase) : undefined;
  checkSeal(file, header, key);
  await checkPayload(file, header.manifest);
  return { file, manifest: header.manifest, size, key };
}

/**
 * The payload's lines, decrypted and decompressed, from a backup openBackupFile checked. The bytes
 * read are checked again as they pass (the file may change after the check): a payload that no
 * longer matches, fails GCM's tag or ends without gzip's end throws after the last line.
 */
export async function* readBackupLines(backup: OpenedBackup): AsyncGenerator<string> {
  const { file, manifest, key } = backup;
  let decipher: DecipherGCM | undefined;
  if (manifest.encryption) {
    // openBackupFile gives an encrypted backup its key, or refuses it.
    const { nonce, tag } = encryptionParameters(file, manifest.encryption);
    decipher = createDecipheriv('aes-256-gcm', key!, nonce);
    decipher.setAuthTag(tag);
  }
  const tap = new HashingTap();
  const text = new PassThrough();
  const flowing = pipeline([
    createReadStream(file, { start: BACKUP_HEADER_BYTES }),
    tap,
    ...(decipher ? [decipher] : []),
    createGunzip(),
    text,
  ]);
  const failed = flowing.then(
    () => undefined,
    (error: unknown) => error,
  );
  const unreadable = (error: unknown) =>
    new BackupFileError('backup_payload_unreadable', { reason: (error as Error).message });
  try {
    for await (const line of createInterface({ input: text, crlfDelay: Infinity })) yield line;
  } catch (error) {
    throw unreadable((await failed) ?? error);
  } finally {
    // A reader that stops early (a refused row) leaves no file open: the pipeline closes every stage.
    text.destroy();
  }
  const error = await failed;
  if (error) throw unreadable(error);
  if (tap.bytes !== manifest.payloadBytes || tap.hash.digest('hex') !== manifest.payloadSha256) {
    throw new BackupFileError('backup_changed_while_read', { file });
  }
}
