import { z } from 'zod';
import { PasswordInputSchema } from './passwords';

/** An authenticator app's code (RFC 6238: 6 digits, every 30 s); spaces a user types in are dropped. */
export const TotpCodeSchema = z
  .string()
  .transform((code) => code.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Expected the 6 digits the authenticator app shows'));

/** How many single-use recovery codes an account holds after enrolment or a new set. */
export const RECOVERY_CODE_COUNT = 10;

/**
 * A recovery code: 16 letters and digits in four groups (`k7qm-2xcv-9tnp-4hwe`, 80 bits), read
 * without regard to case, spaces or hyphens.
 */
export const RecoveryCodeSchema = z
  .string()
  .transform((code) => code.replace(/[\s-]+/g, '').toLowerCase())
  .pipe(z.string().regex(/^[a-z0-9]{16}$/, 'Expected a recovery code of 16 letters and digits'));

/** How long the step between a right password and its second factor may take. */
export const SIGN_IN_CHALLENGE_SECONDS = 5 * 60;
/** How long a browser the user chose to remember skips the second factor. */
export const REMEMBERED_BROWSER_DAYS = 30;

/** The second step of signing in: the challenge and an authenticator's code or one recovery code. */
export const SecondFactorSignInBodySchema = z.union([
  z.strictObject({
    challenge: z.string().min(1).max(200),
    code: TotpCodeSchema,
    /** Skips the second factor on this browser for REMEMBERED_BROWSER_DAYS. */
    rememberBrowser: z.boolean().default(false),
  }),
  z.strictObject({
    challenge: z.string().min(1).max(200),
    recoveryCode: RecoveryCodeSchema,
    rememberBrowser: z.boolean().default(false),
  }),
]);
export type SecondFactorSignInBody = z.infer<typeof SecondFactorSignInBodySchema>;

/** The signed-in user's second factor. */
export const SecondFactorStatusSchema = z.strictObject({
  enabled: z.boolean(),
  /** When it was turned on (ISO 8601), null when off. */
  enabled_at: z.string().nullable(),
  /** Recovery codes not used yet. */
  recovery_codes_left: z.number().int().min(0),
});
export type SecondFactorStatus = z.infer<typeof SecondFactorStatusSchema>;

/** What changes the second factor asks for: the account's password, as a new email does. */
export const SecondFactorPasswordBodySchema = z.strictObject({ password: PasswordInputSchema });
export type SecondFactorPasswordBody = z.infer<typeof SecondFactorPasswordBodySchema>;

/** A new secret to put in an authenticator app, not in force until a code from it confirms it. */
export const SecondFactorSetupSchema = z.strictObject({
  /** Base32, for typing in by hand. */
  secret: z.string(),
  /** otpauth:// URI, for the QR code. */
  uri: z.string(),
});
export type SecondFactorSetup = z.infer<typeof SecondFactorSetupSchema>;

export const SecondFactorConfirmBodySchema = z.strictObject({ code: TotpCodeSchema });
export type SecondFactorConfirmBody = z.infer<typeof SecondFactorConfirmBodySchema>;

/** Recovery codes, shown once: only their hashes are kept. */
export const RecoveryCodesSchema = z.strictObject({
  recovery_codes: z.array(z.string()).length(RECOVERY_CODE_COUNT),
});
export type RecoveryCodes = z.infer<typeof RecoveryCodesSchema>;
