import { z } from 'zod';

export const MIN_PASSWORD_LENGTH = 8;
/** Long enough for any passphrase, short enough that hashing it stays cheap. */
export const MAX_PASSWORD_LENGTH = 256;

export const PASSWORD_RULES = ['min_length', 'lowercase', 'uppercase', 'digit', 'special'] as const;
export type PasswordRule = (typeof PASSWORD_RULES)[number];

const RULE_TESTS: Record<PasswordRule, (password: string) => boolean> = {
  min_length: (password) => [...password].length >= MIN_PASSWORD_LENGTH,
  lowercase: (password) => /\p{Ll}/u.test(password),
  uppercase: (password) => /\p{Lu}/u.test(password),
  digit: (password) => /\p{Nd}/u.test(password),
  // Combining marks (\p{M}) belong to the letter before them, as in a decomposed "é": not special.
  special: (password) => /[^\p{L}\p{M}\p{N}\s]/u.test(password),
};

/** The rules of docs/product.md#validation that a new password breaks; empty when it is acceptable. */
export function brokenPasswordRules(password: string): PasswordRule[] {
  return PASSWORD_RULES.filter((rule) => !RULE_TESTS[rule](password));
}

/** Any password as typed: the rules are checked by the server so that it can answer per field. */
export const PasswordInputSchema = z.string().min(1).max(MAX_PASSWORD_LENGTH);
