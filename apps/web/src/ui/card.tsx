import type { HTMLAttributes, Ref } from 'react';

export type CardVariant = 'card' | 'box';

const VARIANT_CLASSES: Record<CardVariant, string> = {
  /** A raised panel for a section of a page. */
  card: 'rounded-xl border border-line bg-surface p-5 shadow-sm sm:p-6',
  /** A flat, tinted area inside a card or a page, for a group of facts. */
  box: 'rounded-lg bg-surface-muted p-4',
};

export type CardProps = HTMLAttributes<HTMLElement> & { variant?: CardVariant; ref?: Ref<HTMLElement> };

export function Card({ variant = 'card', className = '', ...props }: CardProps) {
  return <section className={`${VARIANT_CLASSES[variant]} ${className}`} {...props} />;
}
