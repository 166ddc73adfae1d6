import { createStore } from '@/config/create-store';

export type DialogVariant = 'alert' | 'confirm' | 'prompt';

export type DialogOptions = {
  title: string;
  message?: string;
  /** The cancelling button (confirm and prompt): resolves false. */
  left?: string;
  /** The confirming button: resolves true, or the typed text for a prompt. */
  right?: string;
  /** Paints the confirming button red, for what cannot be undone. */
  danger?: boolean;
};

export type PromptInput = {
  label: string;
  initialValue?: string;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
};

export type OpenDialog = DialogOptions & {
  id: number;
  variant: DialogVariant;
  input?: PromptInput;
  settle: (answer: boolean | string) => void;
};

/** Dialogs waiting to be answered; the first one is shown, the rest wait their turn. */
export const dialogStore = createStore<readonly OpenDialog[]>([]);
let nextId = 1;

/** Whether a dialog waiting to be answered asks the very question `options` would. */
const asksAlready = (variant: DialogVariant, options: DialogOptions) =>
  dialogStore
    .get()
    .some(
      (dialog) =>
        dialog.variant === variant &&
        dialog.title === options.title &&
        dialog.message === options.message &&
        dialog.right === options.right,
    );

/**
 * Opens a dialog after those waiting. The very question already waiting is not asked again: its
 * second asking is answered as cancelled at once. A double click on a button that asks first (a
 * motion, a delete) would otherwise queue the question twice, and the second answer do the thing
 * a second time.
 */
function open(variant: DialogVariant, options: DialogOptions, input?: PromptInput): Promise<boolean | string> {
  if (asksAlready(variant, options)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const id = nextId++;
    const settle = (answer: boolean | string) => {
      dialogStore.set(dialogStore.get().filter((dialog) => dialog.id !== id));
      resolve(answer);
    };
    dialogStore.set([...dialogStore.get(), { ...options, id, variant, input, settle }]);
  });
}

/** A message with one button; true when acknowledged, false when dismissed. */
export async function alertDialog(options: Omit<DialogOptions, 'left'>): Promise<boolean> {
  return (await open('alert', options)) === true;
}

/** Left button (or Escape, or the backdrop) gives false, the right one true. */
export async function confirmDialog(options: DialogOptions): Promise<boolean> {
  return (await open('confirm', options)) === true;
}

/** The typed text when confirmed, false when cancelled. */
export async function promptDialog(options: DialogOptions & { input: PromptInput }): Promise<string | false> {
  const answer = await open('prompt', options, options.input);
  return typeof answer === 'string' ? answer : false;
}
