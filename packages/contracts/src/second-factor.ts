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

/** WebAuthn's bytes as the browser and @simplewebauthn carry them: base64url text. */
const base64Url = (maxLength: number) =>
  z
    .string()
    .max(maxLength)
    .regex(/^[A-Za-z0-9_-]*$/, 'Expected base64url text');

/** How many passkeys one account may hold. */
export const MAX_PASSKEYS = 10;

/** The transports a passkey's authenticator is reached by, as WebAuthn names them. */
export const PasskeyTransportSchema = z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

const PasskeyDescriptorSchema = z.object({
  id: base64Url(1400),
  type: z.literal('public-key'),
  transports: z.array(PasskeyTransportSchema).optional(),
});

const UserVerificationSchema = z.enum(['discouraged', 'preferred', 'required']);

/** What the browser's prompt to make a passkey is given (navigator.credentials.create, as JSON). */
export const PasskeyCreationOptionsSchema = z.object({
  challenge: base64Url(200),
  rp: z.object({ id: z.string().optional(), name: z.string() }),
  user: z.object({ id: base64Url(200), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.object({ alg: z.number().int(), type: z.literal('public-key') })),
  timeout: z.number().int().positive().optional(),
  excludeCredentials: z.array(PasskeyDescriptorSchema).optional(),
  authenticatorSelection: z
    .object({
      residentKey: z.enum(['discouraged', 'preferred', 'required']).optional(),
      requireResidentKey: z.boolean().optional(),
      userVerification: UserVerificationSchema.optional(),
    })
    .optional(),
  attestation: z.enum(['direct', 'enterprise', 'indirect', 'none']).optional(),
});
export type PasskeyCreationOptions = z.infer<typeof PasskeyCreationOptionsSchema>;

/** What the browser's prompt to sign in with a passkey is given (navigator.credentials.get, as JSON). */
export const PasskeyRequestOptionsSchema = z.object({
  challenge: base64Url(200),
  rpId: z.string().optional(),
  timeout: z.number().int().positive().optional(),
  allowCredentials: z.array(PasskeyDescriptorSchema).optional(),
  userVerification: UserVerificationSchema.optional(),
});
export type PasskeyRequestOptions = z.infer<typeof PasskeyRequestOptionsSchema>;

const PasskeyAttachmentSchema = z.enum(['platform', 'cross-platform']);
/** The extensions' outputs the browser adds; none is asked for, only whether the key is discoverable is read. */
const PasskeyExtensionResultsSchema = z.object({ credProps: z.object({ rk: z.boolean().optional() }).optional() });

/** A new passkey as the browser answers it (attestation 'none' asked: no maker's certificate is read). */
export const PasskeyRegistrationResponseSchema = z.object({
  id: base64Url(1400),
  rawId: base64Url(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64Url(4000),
    attestationObject: base64Url(16000),
    authenticatorData: base64Url(4000).optional(),
    transports: z.array(z.string().max(32)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64Url(4000).optional(),
  }),
  authenticatorAttachment: PasskeyAttachmentSchema.optional(),
  clientExtensionResults: PasskeyExtensionResultsSchema,
});
export type PasskeyRegistrationResponse = z.infer<typeof PasskeyRegistrationResponseSchema>;

/** A passkey's signature over the sign-in's challenge, as the browser answers it. */
export const PasskeyAssertionSchema = z.object({
  id: base64Url(1400),
  rawId: base64Url(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64Url(4000),
    authenticatorData: base64Url(4000),
    signature: base64Url(2000),
    userHandle: base64Url(200).optional(),
  }),
  authenticatorAttachment: PasskeyAttachmentSchema.optional(),
  clientExtensionResults: PasskeyExtensionResultsSchema,
});
export type PasskeyAssertion = z.infer<typeof PasskeyAssertionSchema>;

/** The second step of signing in: the challenge and an authenticator's code, one recovery code or a passkey's answer. */
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
  z.strictObject({
    challenge: z.string().min(1).max(200),
    /** The answer to the options of POST /user/login/passkey/ for this challenge. */
    passkey: PasskeyAssertionSchema,
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

/** The sign-in challenge a passkey is to answer (POST /user/login/passkey/). */
export const PasskeySignInOptionsBodySchema = z.strictObject({ challenge: z.string().min(1).max(200) });
export const PasskeySignInOptionsSchema = z.strictObject({ options: PasskeyRequestOptionsSchema });
export type PasskeySignInOptions = z.infer<typeof PasskeySignInOptionsSchema>;

/** A passkey of the signed-in user: only its name and dates leave the server. */
export const PasskeySchema = z.strictObject({
  id: z.number().int().positive(),
  name: z.string(),
  created_at: z.string(),
  /** Its last sign-in (ISO 8601), null when never used. */
  last_used_at: z.string().nullable(),
});
export type Passkey = z.infer<typeof PasskeySchema>;

export const PasskeyNameSchema = z.string().trim().min(1).max(60);

export const PasskeyRegistrationOptionsSchema = z.strictObject({ options: PasskeyCreationOptionsSchema });
export type PasskeyRegistrationOptions = z.infer<typeof PasskeyRegistrationOptionsSchema>;

/** The browser's answer to the registration options, with the name its user gives it. */
export const PasskeyRegisterBodySchema = z.strictObject({
  name: PasskeyNameSchema,
  response: PasskeyRegistrationResponseSchema,
});
export type PasskeyRegisterBody = z.infer<typeof PasskeyRegisterBodySchema>;
