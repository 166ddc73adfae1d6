import type { ApiFailure } from '@/lib/api-client';
import { i18n } from '@/i18n/i18n';
import { type ToastInput, showToast } from '@/ui/toast/toast-store';

/**
 * The admin calls' own messages of docs/product.md#errors. Each function gives the toast for a failure
 * it knows, or null for the failures the API client shows in its generic way.
 */

/** Create or update a user, 409: a warning, the same text for both. */
export function userFailureToast(failure: ApiFailure): ToastInput | null {
  if (failure.error?.code !== 'email_taken') return null;
  return {
    variant: 'warning',
    title: i18n.t('admin.users.emailTaken.title'),
    message: i18n.t('admin.users.emailTaken.message'),
  };
}

/** Adding a machine: not on the broker (404), already added (409), an answer not processed (5xx). */
export function addSprinklerFailureToast(failure: ApiFailure): ToastInput | null {
  const { status } = failure;
  let text: 'notFound' | 'exists' | 'processingError';
  if (status === 404) text = 'notFound';
  else if (status === 409) text = 'exists';
  else if (status !== null && status >= 500) text = 'processingError';
  else return null;
  return {
    variant: 'error',
    title: i18n.t(`admin.sprinklers.${text}.title`),
    message: i18n.t(`admin.sprinklers.${text}.message`),
  };
}

/** Granting or revoking: 404 (error) the machine or the user is gone; 409 (warning) there was no access to revoke. */
export function permissionsFailureToast(failure: ApiFailure): ToastInput | null {
  if (failure.status === 404) {
    return {
      variant: 'error',
      title: i18n.t('admin.access.missing.title'),
      message: i18n.t('admin.access.missing.message'),
    };
  }
  if (failure.status === 409) {
    return {
      variant: 'warning',
      title: i18n.t('admin.access.notGranted.title'),
      message: i18n.t('admin.access.notGranted.message'),
    };
  }
  return null;
}

/** A `handlesFailure` for the API client: shows the specific toast, or leaves the failure to it. */
export function showsSpecificFailure(toastFor: (failure: ApiFailure) => ToastInput | null) {
  return (failure: ApiFailure): boolean => {
    const toast = toastFor(failure);
    if (toast) showToast(toast);
    return toast !== null;
  };
}
