import { type FormEvent, useId, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from '@/config/create-store';
import { Button } from '../button';
import { type OpenDialog, dialogStore } from './dialogs';
import { ignoreRepeatedClick, isBackdropClick } from './modal-clicks';

function DialogView({ dialog }: { dialog: OpenDialog }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const [text, setText] = useState(dialog.input?.initialValue ?? '');
  const titleId = useId();
  const messageId = useId();
  const inputId = useId();

  // Shown as a modal in the render that mounts it, before the next input: a plain effect may run
  // only after a frame, and a click meanwhile would land on the page behind (as FormDialog).
  useLayoutEffect(() => {
    const element = ref.current;
    // The native modal dialog traps focus, makes the page behind it inert and answers Escape.
    element?.showModal();
    return () => element?.close();
  }, []);

  const answer = (value: boolean | string) => {
    ref.current?.close();
    dialog.settle(value);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    answer(dialog.variant === 'prompt' ? text : true);
  };

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={dialog.message ? messageId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        answer(false);
      }}
      onClickCapture={ignoreRepeatedClick}
      onClick={(event) => isBackdropClick(event) && answer(false)}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-xl border border-line bg-surface p-0 text-ink shadow-xl backdrop:bg-black/55"
    >
      <form onSubmit={submit} className="flex flex-col gap-4 p-5 sm:p-6">
        {/* A long unbroken name (a machine ID) wraps rather than run out of the panel. */}
        <h2 id={titleId} className="text-lg font-semibold [overflow-wrap:anywhere]">
          {dialog.title}
        </h2>
        {dialog.message && (
          <p id={messageId} className="whitespace-pre-line text-ink-muted [overflow-wrap:anywhere]">
            {dialog.message}
          </p>
        )}
        {dialog.input && (
          <div className="flex flex-col gap-1.5">
            <label htmlFor={inputId} className="text-sm font-medium">
              {dialog.input.label}
            </label>
            <input
              id={inputId}
              type={dialog.input.type ?? 'text'}
              autoComplete={dialog.input.autoComplete ?? 'off'}
              value={text}
              onChange={(event) => setText(event.target.value)}
              autoFocus
              className="h-10 rounded-md border border-line bg-surface px-3 text-ink"
            />
          </div>
        )}
        <div className="mt-2 flex flex-wrap justify-end gap-3">
          {dialog.variant !== 'alert' && (
            <Button variant="secondary" onClick={() => answer(false)}>
              {dialog.left ?? t('dialog.cancel')}
            </Button>
          )}
          <Button type="submit" variant={dialog.danger ? 'danger' : 'primary'}>
            {dialog.right ?? (dialog.variant === 'alert' ? t('dialog.ok') : t('dialog.confirm'))}
          </Button>
        </div>
      </form>
    </dialog>
  );
}

/** Shows the dialog that waits first; mounted once, by the app's layout. */
export function DialogHost() {
  const dialogs = useStore(dialogStore);
  const current = dialogs[0];
  return current ? <DialogView key={current.id} dialog={current} /> : null;
}
