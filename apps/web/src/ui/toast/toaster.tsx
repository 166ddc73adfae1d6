import { type ComponentType, type PointerEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useStore } from '@/config/create-store';
import { buttonClasses } from '../button';
import { type IconProps } from '../icons';
import { CloseIcon, ErrorIcon, InfoIcon, SuccessIcon, WarningIcon } from '../other-icons';
import { AppLink } from '../link';
import { TOP_LAYER_POPOVER, leaveTopLayer, raiseToTopLayer } from '../popover/top-layer';
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

/** How far (px) a toast is swiped sideways before letting go closes it. */
const SWIPE_TO_DISMISS_PX = 80;
/** Movement (px) below which a press is a tap (on the close button or the link), not a swipe. */
const SWIPE_START_PX = 6;

/** A sideways drag (a finger on a phone, or a mouse) that closes the toast when it goes far enough. */
function useSwipeToDismiss(id: number) {
  const start = useRef<number | null>(null);
  const [offset, setOffset] = useState(0);
  const reset = () => {
    start.current = null;
    setOffset(0);
  };
  return {
    offset,
    handlers: {
      onPointerDown: (event: PointerEvent<HTMLElement>) => {
        if (event.isPrimary) start.current = event.clientX;
      },
      onPointerMove: (event: PointerEvent<HTMLElement>) => {
        if (start.current === null) return;
        const moved = event.clientX - start.current;
        if (Math.abs(moved) < SWIPE_START_PX) return;
        // Captured once it is a swipe, so a tap still reaches the close button or the link.
        if (!event.currentTarget.hasPointerCapture(event.pointerId))
          event.currentTarget.setPointerCapture(event.pointerId);
        setOffset(moved);
      },
      onPointerUp: () => {
        if (Math.abs(offset) >= SWIPE_TO_DISMISS_PX) dismissToast(id);
        else reset();
      },
      onPointerCancel: reset,
    },
  };
}

function ToastView({ toast }: { toast: Toast }) {
  const { t } = useTranslation();
  const swipe = useSwipeToDismiss(toast.id);
  const { box, icon: Icon } = VARIANT_STYLES[toast.variant];
  const vertical = toast.layout === 'vertical';
  // docs/product.md#limits: at least 380 px (horizontal) or 299 px (vertical) wide, never wider than 800 px;
  // on a phone narrower than that it takes the screen's width.
  const width = vertical ? 'min-w-[min(299px,100%)]' : 'min-w-[min(380px,100%)]';
  const urgent = toast.variant === 'error' || toast.variant === 'warning';
  return (
    <div
      role={urgent ? 'alert' : 'status'}
      data-variant={toast.variant}
      {...swipe.handlers}
      style={
        swipe.offset
          ? {
              transform: `translateX(${swipe.offset}px)`,
              opacity: Math.max(0.2, 1 - Math.abs(swipe.offset) / (SWIPE_TO_DISMISS_PX * 2.5)),
            }
          : undefined
      }
      // pan-y: a sideways finger drag reaches the swipe instead of scrolling the page.
      className={`pointer-events-auto relative flex w-full max-w-[800px] touch-pan-y gap-3 rounded-lg border-l-4 p-3 text-sm text-ink shadow-lg ring-1 ring-line select-none sm:w-auto ${box} ${width} ${
        vertical ? 'flex-col items-center text-center' : 'items-start'
      }`}
    >
      {toast.icon && <Icon className={`size-5 shrink-0 ${ICON_COLOURS[toast.variant]}`} />}
      <div className="min-w-0 flex-1 [overflow-wrap:anywhere]">
        <p className="font-semibold">{toast.title}</p>
        {toast.message && <p className="mt-0.5 whitespace-pre-line text-ink-muted">{toast.message}</p>}
        {toast.action && (
          <AppLink
            to={toast.action.to}
            onClick={() => dismissToast(toast.id)}
            className={buttonClasses('secondary', 'mt-2')}
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
 * The open dialog shown last, where the toasts must go to stay above it and usable. The app opens
 * its dialogs as modal ones only (showModal), and each comes later in the page than the one it
 * was opened from.
 */
function topModal(): HTMLDialogElement | null {
  const open = [...document.querySelectorAll('dialog[open]')];
  const last = open.at(-1);
  return last instanceof HTMLDialogElement ? last : null;
}

/**
 * The element the toasts are rendered in: the page, or the modal dialog open over it. A modal
 * dialog makes everything outside it inert, a popover shown above it too, so there the toasts
 * must be inside it to be closed (or their link followed). None before the first effect: the
 * build renders the login pages' HTML too (app/prerender.tsx), where there is no page to go in.
 */
function useToastHost(): HTMLElement | null {
  const [modal, setModal] = useState<HTMLDialogElement | null | undefined>(undefined);
  useEffect(() => {
    const update = () => setModal(topModal());
    update();
    const observer = new MutationObserver(update);
    observer.observe(document.body, { subtree: true, childList: true, attributeFilter: ['open'] });
    return () => observer.disconnect();
  }, []);
  if (modal === undefined) return null;
  // A dialog closed (or removed) a moment ago: the observer has yet to say so.
  return modal?.isConnected && modal.open ? modal : document.body;
}

/**
 * Where toasts appear: at the bottom, right on a desktop and across a phone's screen, clear of
 * the header and of a page's title and its buttons; compact, closed by their button or a
 * sideways swipe. They are a popover in the browser's top layer, raised whenever a toast comes
 * or a modal dialog opens, so neither the map nor a dialog (nor its backdrop) covers them.
 */
export function Toaster() {
  const { t } = useTranslation();
  const toasts = useStore(toastStore);
  const host = useToastHost();
  const region = useRef<HTMLElement>(null);
  const shown = toasts.length > 0;
  const newest = toasts.at(-1)?.id;

  useLayoutEffect(() => {
    const element = region.current;
    if (!element) return;
    if (shown) raiseToTopLayer(element);
    else leaveTopLayer(element);
  }, [host, shown, newest]);

  // The page gets as much room at its end as the toasts take, so nothing stays under them.
  useLayoutEffect(() => {
    const element = region.current;
    const root = document.documentElement;
    if (!element || !shown) {
      root.style.removeProperty('--toast-space');
      return;
    }
    const reserve = () => root.style.setProperty('--toast-space', `${Math.ceil(element.offsetHeight)}px`);
    reserve();
    const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(reserve);
    resized?.observe(element);
    return () => resized?.disconnect();
  }, [host, shown]);

  if (!host) return null;
  return createPortal(
    <section
      ref={region}
      aria-label={t('toast.region')}
      aria-live="polite"
      popover={TOP_LAYER_POPOVER}
      className="pointer-events-none fixed inset-auto right-0 bottom-0 left-0 z-50 m-0 flex h-auto max-h-dvh w-full flex-col items-center gap-2 overflow-visible border-0 bg-transparent p-3 text-ink sm:right-4 sm:bottom-4 sm:left-auto sm:w-fit sm:items-end sm:p-0"
    >
      {toasts.map((toast) => (
        <ToastView key={toast.id} toast={toast} />
      ))}
    </section>,
    host,
  );
}
