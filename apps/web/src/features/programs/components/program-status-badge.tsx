import { useTranslation } from 'react-i18next';

export type ProgramStatus = 'uploading' | 'processing' | 'active';

const CLASSES: Record<ProgramStatus, string> = {
  uploading: 'bg-info-soft text-info',
  processing: 'bg-info-soft text-info',
  active: 'bg-success-soft text-success',
};

/** Where a program stands on the machine: being uploaded, being processed, or running. */
export function ProgramStatusBadge({ status }: { status: ProgramStatus }) {
  const { t } = useTranslation();
  return (
    <span
      className={`inline-flex shrink-0 items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold ${CLASSES[status]}`}
    >
      <span
        aria-hidden="true"
        className={`size-2 rounded-full bg-current ${status === 'active' ? '' : 'animate-pulse'}`}
      />
      {t(`programs.status.${status}`)}
    </span>
  );
}
