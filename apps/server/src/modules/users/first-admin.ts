import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import type { PasswordHasher } from './password-hasher';
import { countAdmins, insertUserIfAbsent } from './users.repository';

const GENERATED_ADMIN_EMAIL = 'admin@pivot.local';

/** A generated password that satisfies every rule of docs/product.md#validation. */
function generatePassword(): string {
  return `${randomBytes(12).toString('base64url')}-Aa1!`;
}

/**
 * Makes sure the product can be administered: with no administrator yet, creates one from
 * ADMIN_EMAIL and ADMIN_PASSWORD, or generates the missing parts and prints them once.
 * An existing account is never changed.
 */
export async function ensureFirstAdmin(
  db: Database,
  hasher: PasswordHasher,
  options: {
    email: string | undefined;
    password: string | undefined;
    log: FastifyBaseLogger;
    print: (text: string) => void;
  },
): Promise<void> {
  if ((await countAdmins(db)) > 0) return;
  const email = options.email ?? GENERATED_ADMIN_EMAIL;
  const password = options.password ?? generatePassword();
  const created = await insertUserIfAbsent(db, {
    firstName: 'Admin',
    lastName: 'Admin',
    email,
    admin: true,
    language: 'pl',
    passwordHash: await hasher.hash(password),
    activatedAt: new Date(),
  });
  if (!created) {
    options.log.warn({ email }, 'no administrator exists, and the account for ADMIN_EMAIL is not an administrator');
    return;
  }
  options.log.info({ email }, 'first administrator created');
  if (!options.password) {
    options.print(
      `\nFirst administrator created.\n  email:    ${email}\n  password: ${password}\nThis password is shown only once.\n`,
    );
  }
}
