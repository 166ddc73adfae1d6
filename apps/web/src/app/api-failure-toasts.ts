import type { ErrorCode } from '@pivot/contracts';
import { i18n, loadCataloguePart } from '@/i18n/i18n';
import { type ApiFailure, onApiFailure } from '@/lib/api-client';
import { type ToastInput, showToast } from '@/ui/toast/toast-store';

/** docs/product.md#errors: these failures are the user's to correct, not faults: a warning, not an error. */
const WARNING_CODES: ReadonlySet<ErrorCode> = new Set([
  'invalid_credentials',
  'email_taken',
  'access_not_granted',
  'rate_limited',
  // An administrator's reset of an account that has no second factor: nothing to undo.
  'second_factor_not_enabled',
  // A farm's name taken, a person already its member, its last owner to keep (docs/roles.md).
  'farm_name_taken',
  'farm_member_exists',
  'last_owner',
  // An address invited already (resend instead), a dealer's name taken.
  'invitation_pending',
  'dealer_name_taken',
]);

type GenericError = 'badRequest' | 'unauthorized' | 'forbidden' | 'notFound' | 'server' | 'unknown';

/** The generic texts of docs/product.md#errors, by status, for answers without a known error code. */
function genericError(status: number | null): GenericError {
  if (status === 400) return 'badRequest';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'notFound';
  if (status !== null && status >= 500) return 'server';
  return 'unknown';
}

/**
 * The one place where API failures become words in the user's language. A known error code's
 * texts are a part of the catalogue fetched with the first of them; a part that cannot be fetched
 * (the connection went meanwhile) leaves the generic text of the status, which every page has.
 */
async function errorToast(failure: ApiFailure): Promise<ToastInput> {
  const t = i18n.t;
  const code = failure.error?.code;
  if (code) await loadCataloguePart('errorCodes').catch(() => undefined);
  if (code && i18n.exists(`errorCodes.${code}.title`)) {
    return {
      variant: WARNING_CODES.has(code) ? 'warning' : 'error',
      title: t(`errorCodes.${code}.title`),
      message: t(`errorCodes.${code}.message`),
    };
  }
  const generic = genericError(failure.status);
  return {
    variant: 'error',
    title: t(`errors.status.${generic}.title`),
    message: t(`errors.status.${generic}.message`),
  };
}

/**
 * Shows every API failure its caller does not handle as a toast (docs/product.md#calls). Called once
 * at start, before the first call; returns the function that stops it.
 */
export function showApiFailuresAsToasts(): () => void {
  // In the order the failures came, whichever waits for the codes' texts.
  let shown = Promise.resolve();
  return onApiFailure((failure) => {
    shown = shown.then(async () => void showToast(await errorToast(failure)));
  });
}
