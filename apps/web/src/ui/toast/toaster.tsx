import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from '@/config/create-store';
import { buttonClasses } from '../button';
import { CloseIcon, ErrorIcon, type IconProps, InfoIcon, SuccessIcon, WarningIcon } from '../icons';
import { AppLink } from '../link';
import { type Toast, type ToastVariant, dismissToast, toastStore } from './toast-store';

const VARIANT_STYLES: Record<ToastVariant, { box: string; icon: ComponentType<IconProps> }> = {
  information: { box: 'border-info bg-info-soft', icon: InfoIcon },
  success: { box: 'border-success bg-success-soft', icon: SuccessIcon },
  warning: { box: 'border-warning bg-warning-soft', icon: WarningIcon },
  error: { box: 'border-error bg-error-soft', icon: ErrorIcon },
};

const ICON_COLOURS: Record<ToastVariant, string> = {
  information: 'text-info',
  success: 'text-success',
  warning: 'text-warning',
  error: 'text-error',
};

function ToastView({ toast }: { toast: Toast }) {
  const { t } = useTranslation();
  const { box, icon: Icon } = VARIANT_STYLES[toast.variant];
  const vertical = toast.layout === 'vertical';
  // Spec §9: at least 380 px (horizontal) or 299 px (vertical) wide, never wider than 800 px;
  // on a phone narrower than that it takes the screen's width.
  const width = vertical ? 'min-w-[min(299px,100%)]' : 'min-w-[min(380px,100%)]';
  const urgent = toast.variant === 'error' || toast.variant === 'warning';
  return (
    <div
      role={urgent ? 'alert' : 'status'}
      data-variant={toast.variant}
      className={`pointer-events-auto relative flex w-full max-w-[800px] sm:w-auto gap-3 rounded-lg border-l-4 p-4 text-ink shadow-lg ring-1 ring-line ${box} ${width} ${
        vertical ? 'flex-col items-center text-center' : 'items-start'
      }`}
    >
      {toast.icon && <Icon className={`size-6 shrink-0 ${ICON_COLOURS[toast.variant]}`} />}
      <div className="min-w-0 flex-1 [overflow-wrap:anywhere]">
        <p className="font-semibold">{toast.title}</p>
        {toast.message && <p className="mt-1 text-sm whitespace-pre-line text-ink-muted">{toast.message}</p>}
        {toast.action && (
          <AppLink
            to={toast.action.to}
            onClick={() => dismissToast(toast.id)}
            className={buttonClasses('secondary', 'mt-3')}
          >
            {toast.action.label}
          </AppLink>
        )}
      </div>
      <button
        type="button"
        onClick={() => dismissToast(toast.id)}
        aria-label={t('toast.close')}
        title={t('toast.close')}
        className={`-m-1 inline-flex size-8 shrink-0 items-center justify-center rounded-md hover:bg-surface-muted ${
          vertical ? 'absolute top-2 right-2' : ''
        }`}
      >
        <CloseIcon className="size-4" />
      </button>
    </div>
  );
}

/**
 * Where toasts appear: top right on a desktop, across the top on a phone; below the header, so
 * its bell and menus stay within reach while an alert shows, and under a menu the user opens.
 */
export function Toaster() {
  const { t } = useTranslation();
  const toasts = useStore(toastStore);
  return (
    <section
      aria-label={t('toast.region')}
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 top-[4.25rem] z-35 flex flex-col items-center gap-2 px-3 sm:right-4 sm:left-auto sm:items-end"
    >
      {toasts.map((toast) => (
        <ToastView key={toast.id} toast={toast} />
      ))}
    </section>
  );
}
