import { type FormEvent, type ReactNode, useId, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button';
import { ignoreRepeatedClick, isBackdropClick } from './dialog/modal-clicks';
import { SpinnerIcon } from './other-icons';

export type FormDialogProps = {
  title: string;
  /** A line under the title. */
  description?: ReactNode;
  children: ReactNode;
  submitLabel: string;
  onSubmit: () => void | Promise<void>;
  /** Escape, the backdrop and Cancel close it; the owner unmounts it. */
  onClose: () => void;
  /** A call is under way: the submit button says so and waits. */
  pending?: boolean;
  pendingLabel?: string;
  submitDisabled?: boolean;
  /** Why the submit button is disabled (its tooltip). */
  submitTitle?: string;
  /** Wide: two columns of fields from a tablet up; large: a map beside the fields from a laptop up. */
  width?: 'normal' | 'wide' | 'large';
};

const WIDTH_CLASSES = { normal: 'max-w-md', wide: 'max-w-2xl', large: 'max-w-4xl' } as const;

/**
 * A form in a native modal dialog (focus trap, Escape, inert page), open while mounted.
 * The page's toasts move into it while it is open (see the toaster): a failure stays readable,
 * and can be closed, while the form stays open.
 */
export function FormDialog({
  title,
  description,
  children,
  submitLabel,
  onSubmit,
  onClose,
  pending = false,
  pendingLabel,
  submitDisabled = false,
  submitTitle,
  width = 'normal',
}: FormDialogProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  // Closed while still in the page (a layout effect's cleanup runs before the element is removed),
  // so the browser gives the focus back to the button that opened it.
  useLayoutEffect(() => {
    const element = ref.current;
    element?.showModal();
    return () => element?.close();
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!pending && !submitDisabled) void onSubmit();
  };

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClickCapture={ignoreRepeatedClick}
      onClick={(event) => isBackdropClick(event) && onClose()}
      className={`m-auto w-[calc(100%-2rem)] overflow-y-auto rounded-xl border border-line bg-surface p-0 text-ink shadow-xl backdrop:bg-black/55 ${WIDTH_CLASSES[width]}`}
    >
      <form noValidate onSubmit={submit} aria-busy={pending} className="flex flex-col gap-4 p-5 sm:p-6">
        <div className="flex flex-col gap-1">
          <h2 id={titleId} className="text-lg font-semibold">
            {title}
          </h2>
          {description && (
            <p id={descriptionId} className="text-sm text-ink-muted">
              {description}
            </p>
          )}
        </div>
        {children}
        <div className="mt-2 flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={onClose}>
            {t('dialog.cancel')}
          </Button>
          <Button
            type="submit"
            disabled={submitDisabled}
            title={submitTitle}
            aria-disabled={pending || undefined}
            className="aria-disabled:cursor-wait aria-disabled:opacity-80"
            icon={pending ? <SpinnerIcon className="size-4 animate-spin motion-reduce:animate-none" /> : undefined}
          >
            {pending ? (pendingLabel ?? submitLabel) : submitLabel}
          </Button>
        </div>
      </form>
    </dialog>
  );
}
