import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';

export type IconButtonVariant = 'primary' | 'secondary' | 'ghost' | 'link';

const VARIANT_CLASSES: Record<IconButtonVariant, string> = {
  primary: 'bg-primary text-on-primary hover:bg-primary-hover border-transparent',
  secondary: 'bg-surface text-ink border-line hover:bg-surface-muted',
  ghost: 'bg-transparent text-ink border-transparent hover:bg-surface-muted',
  link: 'bg-transparent text-water border-transparent hover:underline',
};

export type IconButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: IconButtonVariant;
  /** Read by screen readers and shown as the tooltip: an icon alone says nothing to them. */
  label: string;
  children: ReactNode;
  /** Menus and pickers anchor to the button. */
  ref?: Ref<HTMLButtonElement>;
};

/** A square button with an icon. */
export function IconButton({ variant = 'ghost', label, className = '', type = 'button', ...props }: IconButtonProps) {
  return (
    <button
      type={type}
      aria-label={label}
      title={label}
      className={`relative inline-flex size-9 shrink-0 items-center justify-center rounded-md border transition-colors disabled:cursor-not-allowed disabled:opacity-55 ${VARIANT_CLASSES[variant]} ${className}`}
      {...props}
    />
  );
}
