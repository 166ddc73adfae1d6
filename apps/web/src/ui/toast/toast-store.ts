import { createStore } from '@/config/create-store';

export type ToastVariant = 'information' | 'success' | 'warning' | 'error';
export type ToastLayout = 'horizontal' | 'vertical';

/** A link under the message to the page the toast is about (an alert's machine). */
export type ToastAction = {
  label: string;
  /** An unprefixed path from config/paths. */
  to: string;
};

export type ToastInput = {
  variant: ToastVariant;
  title: string;
  message?: string;
  /** Horizontal (the default) puts the icon beside the text, vertical above it. */
  layout?: ToastLayout;
  /** Shows the variant's icon; on by default. */
  icon?: boolean;
  action?: ToastAction;
};

export type Toast = Required<Omit<ToastInput, 'action'>> & { action: ToastAction | null; id: number };

/** docs/product.md#limits: a toast stays 30 s unless closed. */
export const TOAST_LIFETIME_MS = 30_000;

export const toastStore = createStore<readonly Toast[]>([]);
let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

function sameToast(a: Omit<Toast, 'id'>, b: Omit<Toast, 'id'>): boolean {
  return (
    a.variant === b.variant &&
    a.title === b.title &&
    a.message === b.message &&
    a.layout === b.layout &&
    a.icon === b.icon &&
    a.action?.to === b.action?.to &&
    a.action?.label === b.action?.label
  );
}

export function dismissToast(id: number): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  toastStore.set(toastStore.get().filter((toast) => toast.id !== id));
}

/**
 * Shows a toast, unless an identical one (variant, title, message, layout, icon) is already
 * shown: a repeated failure then does not stack copies of the same message.
 * Returns the id of the toast that shows the message.
 */
export function showToast(input: ToastInput): number {
  const candidate = { message: '', layout: 'horizontal' as const, icon: true, ...input, action: input.action ?? null };
  const existing = toastStore.get().find((toast) => sameToast(toast, candidate));
  if (existing) return existing.id;
  const toast: Toast = { ...candidate, id: nextId++ };
  toastStore.set([...toastStore.get(), toast]);
  timers.set(
    toast.id,
    setTimeout(() => dismissToast(toast.id), TOAST_LIFETIME_MS),
  );
  return toast.id;
}
