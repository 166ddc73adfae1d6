import type { ReactNode } from 'react';

type Tone = 'water' | 'success' | 'warning' | 'muted';

const TONES: Record<Tone, string> = {
  water: 'bg-water-soft text-ink',
  success: 'bg-success-soft text-ink',
  warning: 'bg-warning-soft text-ink',
  muted: 'bg-surface-muted text-ink-muted',
};

/** A short mark beside a value: a role, a state. */
export function Badge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return (
    <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ${TONES[tone]}`}>
      {children}
    </span>
  );
}
