import type { Sector } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { useColorMode } from '@/lib/color-mode';
import { AppLink } from '@/ui/link';
import { isForbiddenRate, sectorColor } from '@/ui/map/sector-style';
import { useRateFormat } from '../hooks/use-rate-format';

export type SectorListProps = {
  sectors: readonly Sector[];
  /** Given for a stored program: each sector links to its editor. */
  link?: { sprinklerId: number; programId: number };
  /** Names the list for screen readers. */
  label: string;
};

/** The sectors of a program with their doses; forbidden zones say so in words, not only in red. */
export function SectorList({ sectors, link, label }: SectorListProps) {
  const { t } = useTranslation();
  const { mode } = useColorMode();
  const formatRate = useRateFormat();
  if (sectors.length === 0) return <p className="text-sm text-ink-muted">{t('programs.sectors.empty')}</p>;
  return (
    <ul aria-label={label} className="flex flex-col divide-y divide-line rounded-md border border-line">
      {sectors.map((sector) => {
        const { name, rate } = sector.properties;
        const forbidden = isForbiddenRate(rate);
        return (
          <li key={name} className="flex min-h-10 flex-wrap items-center gap-x-3 gap-y-1 px-3 py-1.5 text-sm">
            <span
              aria-hidden="true"
              className={`size-3 shrink-0 rounded-sm border-2 ${forbidden ? 'border-dashed' : ''}`}
              style={{ borderColor: sectorColor(rate, mode), backgroundColor: `${sectorColor(rate, mode)}40` }}
            />
            {link ? (
              <AppLink
                to={paths.sector.link(link.sprinklerId, link.programId, name)}
                className="min-w-0 flex-[1_1_8rem] font-medium break-words text-water underline underline-offset-2 hover:no-underline"
              >
                {name}
              </AppLink>
            ) : (
              <span className="min-w-0 flex-[1_1_8rem] font-medium break-words">{name}</span>
            )}
            {forbidden ? (
              <span className="rounded bg-error-soft px-1.5 py-0.5 text-xs font-semibold text-error">
                {t('programs.sectors.forbidden')}
              </span>
            ) : (
              <span className="text-ink-muted tabular-nums">{formatRate(rate)}</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
