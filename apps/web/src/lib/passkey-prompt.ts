import type { PasskeyCreationOptions, PasskeyRequestOptions } from '@pivot/contracts';
import {
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
} from '@simplewebauthn/browser';

/** The browser's passkey prompt answered, or why not: no WebAuthn here, or the prompt closed or failed. */
export type PasskeyPromptResult<Answer> =
  { ok: true; answer: Answer } | { ok: false; reason: 'unsupported' | 'closed' };

async function prompt<Answer>(ask: () => Promise<Answer>): Promise<PasskeyPromptResult<Answer>> {
  if (!browserSupportsWebAuthn()) return { ok: false, reason: 'unsupported' };
  try {
    return { ok: true, answer: await ask() };
  } catch {
    // Cancelled, timed out, or no authenticator at hand: the browser tells no more than that.
    return { ok: false, reason: 'closed' };
  }
}

/** The browser's prompt to make a passkey from the server's options (docs/two-factor.md#passkeys). */
export function promptNewPasskey(
  options: PasskeyCreationOptions,
): Promise<PasskeyPromptResult<RegistrationResponseJSON>> {
  return prompt(() => startRegistration({ optionsJSON: options }));
}

/** The browser's prompt to sign the server's challenge with one of the passkeys it names. */
export function promptPasskey(
  options: PasskeyRequestOptions,
): Promise<PasskeyPromptResult<AuthenticationResponseJSON>> {
  return prompt(() => startAuthentication({ optionsJSON: options }));
}
