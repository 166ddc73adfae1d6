import { ACCESS_LEVELS, type AccessLevel } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { CloseIcon } from '@/ui/other-icons';
import { PlusIcon } from '@/ui/other-icons';

export type AccessItem = {
  key: number;
  label: string;
  detail?: string;
  /** The grant's level, which the chip shows and lets change. */
  level: AccessLevel;
  /** Names the level's picker for screen readers (the user and the machine). */
  levelLabel: string;
  revokeLabel: string;
};

export type AccessListProps = {
  /** Names the list for screen readers (the row's user or machine). */
  label: string;
  items: readonly AccessItem[];
  emptyMessage: string;
  onRevoke: (key: number) => void;
  onChangeLevel: (key: number, level: AccessLevel) => void;
  /** Names the grant button for screen readers; it shows a short "Grant". */
  grantLabel: string;
  onGrant: () => void;
};

/**
 * Who may use what, in a table cell: one chip per grant, each with its level (watch or control,
 * to change there) and its revoke button, and a grant button.
 */
export function AccessList({
  label,
  items,
  emptyMessage,
  onRevoke,
  onChangeLevel,
  grantLabel,
  onGrant,
}: AccessListProps) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-wrap items-center gap-1.5">
      {items.length === 0 ? (
        <span className="mr-1 text-ink-muted">{emptyMessage}</span>
      ) : (
        <ul aria-label={label} className="flex min-w-0 flex-wrap gap-1.5">
          {items.map((item) => (
            <li
              key={item.key}
              className="inline-flex max-w-full items-center gap-1 rounded-2xl border border-line bg-surface-muted py-0.5 pr-0.5 pl-2.5"
            >
              <span className="min-w-0 [overflow-wrap:anywhere]">
                {item.label}
                {item.detail && <span className="ml-1 text-xs whitespace-nowrap text-ink-muted">{item.detail}</span>}
              </span>
              <select
                aria-label={item.levelLabel}
                title={item.levelLabel}
                value={item.level}
                onChange={(event) => onChangeLevel(item.key, event.target.value as AccessLevel)}
                className={`h-6 shrink-0 rounded-full border border-line bg-surface px-1.5 text-xs font-medium ${
                  item.level === 'watch' ? 'text-ink-muted' : 'text-water'
                }`}
              >
                {ACCESS_LEVELS.map((level) => (
                  <option key={level} value={level}>
                    {t(`admin.access.levels.${level}`)}
                  </option>
                ))}
              </select>
              <button
                type="button"
                onClick={() => onRevoke(item.key)}
                aria-label={item.revokeLabel}
                title={item.revokeLabel}
                className="inline-flex size-6 shrink-0 items-center justify-center rounded-full text-ink-muted hover:bg-error-soft hover:text-error"
              >
                <CloseIcon className="size-3.5" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        onClick={onGrant}
        aria-label={grantLabel}
        title={grantLabel}
        className="inline-flex h-7 items-center gap-1 rounded-full border border-dashed border-line px-2.5 text-sm font-medium text-water hover:border-water hover:bg-water-soft"
      >
        <PlusIcon className="size-4" />
        {t('admin.access.grant')}
      </button>
    </div>
  );
}
