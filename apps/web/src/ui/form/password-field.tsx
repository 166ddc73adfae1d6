import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EyeIcon, EyeOffIcon } from '../icons';
import { FieldFrame, describedBy, enterHandler, inputClasses } from './field-frame';
import type { TextFieldProps } from './text-field';

/** A password input with a show/hide button, so a long password can be checked on a phone. */
export function PasswordField({ label, hint, error, onEnter, ...props }: Omit<TextFieldProps, 'type'>) {
  const { t } = useTranslation();
  const id = useId();
  const [visible, setVisible] = useState(false);
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      <div className="relative">
        <input
          id={id}
          type={visible ? 'text' : 'password'}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, hint, error)}
          onKeyDown={enterHandler(onEnter)}
          className={`${inputClasses(Boolean(error))} pr-11`}
          {...props}
        />
        <button
          type="button"
          onClick={() => setVisible((shown) => !shown)}
          aria-pressed={visible}
          aria-label={t('form.showPassword')}
          title={visible ? t('form.hidePassword') : t('form.showPassword')}
          className="absolute inset-y-0 right-0 inline-flex w-10 items-center justify-center rounded-r-md text-ink-muted hover:text-ink"
        >
          {visible ? <EyeOffIcon /> : <EyeIcon />}
        </button>
      </div>
    </FieldFrame>
  );
}
