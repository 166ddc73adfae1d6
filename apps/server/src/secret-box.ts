import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomToken } from './secrets';

/** Where the key made for a server without DEVICE_SECRET_KEY is kept: beside the data, never in a backup. */
export const SEALING_KEY_FILE = 'device-secret.key';
const VERSION = 'v1';
const IV_BYTES = 12;

/** What a box seals: each its own key, drawn from the one key text. */
export const SEALED_SECRETS = {
  /** Controllers' broker secrets, so a broker that lost its accounts gets every one back (docs/decisions/0007-device-secrets-sealed.md). */
  device: 'pivot device secrets v1',
  /** Authenticator apps' TOTP secrets (docs/two-factor.md), so a copy of the database or a backup signs in nowhere. */
  secondFactor: 'pivot second factor v1',
} as const;

/**
 * Secrets the server must read again sealed with AES-256-GCM under a key kept outside the
 * database. The owner (a controller's machine ID, a user's id) is the additional data: a sealed
 * secret copied to another row does not open there.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(keyText: string, purpose: keyof typeof SEALED_SECRETS) {
    // The operator's text may be any 32 characters or more; HKDF makes 256 even bits of it.
    this.key = Buffer.from(hkdfSync('sha256', keyText, '', SEALED_SECRETS[purpose], 32));
  }

  seal(owner: string, secret: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(owner));
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [VERSION, iv, sealed, cipher.getAuthTag()].map(encode).join('.');
  }

  /** The secret, or undefined when it was sealed under another key (or for another owner). */
  open(owner: string, sealed: string): string | undefined {
    const [version, iv, ciphertext, tag] = sealed.split('.');
    if (version !== VERSION || !iv || !ciphertext || !tag) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(owner));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}

const encode = (part: string | Buffer) => (typeof part === 'string' ? part : part.toString('base64url'));

/**
 * DEVICE_SECRET_KEY, or the key kept in the data folder, made at the first start without one
 * (unless `make` is false: a command must not seal or open under a key of its own). An operator
 * on PostgreSQL sets it in the environment: the data folder of one instance is not shared.
 */
export async function sealingKey(
  configured: string | undefined,
  dataDir: string,
  { make = true }: { make?: boolean } = {},
): Promise<string> {
  if (configured) return configured;
  const file = path.join(dataDir, SEALING_KEY_FILE);
  if (make) {
    await mkdir(dataDir, { recursive: true });
    // 'wx': made only when none is kept; an instance starting at the same moment keeps the first one.
    await writeFile(file, `${randomToken()}\n`, { mode: 0o600, flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  }
  const kept = (await readFile(file, 'utf8').catch(() => '')).trim();
  if (kept.length < 32) {
    throw new Error(`${file} holds no key of 32 characters or more: restore it, or set DEVICE_SECRET_KEY`);
  }
  return kept;
}
