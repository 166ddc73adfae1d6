import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';
import { AppLink, type AppLinkProps } from './link';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger' | 'link';

const VARIANT_CLASSES: Record<ButtonVariant, string> = {
  primary: 'bg-primary text-on-primary hover:bg-primary-hover border-transparent',
  secondary: 'bg-surface text-ink border-line hover:bg-surface-muted',
  ghost: 'bg-transparent text-ink border-transparent hover:bg-surface-muted',
  danger: 'bg-danger text-on-danger hover:bg-danger-hover border-transparent',
  link: 'bg-transparent text-water border-transparent underline underline-offset-4 hover:no-underline',
};

/** docs/product.md#screens: 36 px high and at least 88 px wide, whatever the variant. */
export function buttonClasses(variant: ButtonVariant = 'primary', className = ''): string {
  return [
    'inline-flex h-9 min-w-[88px] items-center justify-center gap-2 rounded-md border px-4 text-sm font-semibold',
    'whitespace-nowrap transition-colors select-none disabled:cursor-not-allowed disabled:opacity-55',
    VARIANT_CLASSES[variant],
    className,
  ].join(' ');
}

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  /** Shown before the text. */
  icon?: ReactNode;
  /** A dialog puts the focus on its main button. */
  ref?: Ref<HTMLButtonElement>;
};

export function Button({ variant = 'primary', icon, className, type = 'button', children, ...props }: ButtonProps) {
  return (
    <button type={type} className={buttonClasses(variant, className)} {...props}>
      {icon}
      {children}
    </button>
  );
}

/** A link that looks like a button: for moves to another page ("Back to login"). */
export function ButtonLink({ variant = 'primary', className, ...props }: AppLinkProps & { variant?: ButtonVariant }) {
  return <AppLink className={buttonClasses(variant, className)} {...props} />;
}
