import type { FarmDetail } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { Card } from '@/ui/card';
import { AppLink } from '@/ui/link';
import { ChevronRightIcon, PivotIcon } from '@/ui/other-icons';

/** The farm's machines, each a link to its page. */
export function FarmMachines({ machines }: { machines: FarmDetail['machines'] }) {
  const { t } = useTranslation();
  return (
    <Card aria-labelledby="farm-machines">
      <h2 id="farm-machines" className="mb-4 text-lg font-semibold">
        {t('farms.machines.title', { number: machines.length })}
      </h2>
      {machines.length === 0 ? (
        <p className="text-ink-muted">{t('farms.machines.empty')}</p>
      ) : (
        <ul className="-mx-2 flex flex-col">
          {machines.map((machine) => (
            <li key={machine.id}>
              <AppLink
                to={paths.sprinkler.link(machine.id)}
                className="group flex items-center gap-3 rounded-lg px-2 py-2 hover:bg-surface-muted"
              >
                <PivotIcon className="size-5 shrink-0 text-water" />
                <span className="flex min-w-0 flex-1 flex-col">
                  <span className="font-medium [overflow-wrap:anywhere] group-hover:text-water">{machine.name}</span>
                  <span className="font-mono text-xs break-all text-ink-muted">{machine.internalId}</span>
                </span>
                <ChevronRightIcon className="size-4 shrink-0 text-ink-muted" />
              </AppLink>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
