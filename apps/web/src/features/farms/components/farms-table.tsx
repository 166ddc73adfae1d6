import type { Farm } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { useLocale } from '@/i18n/use-locale';
import { AppLink } from '@/ui/link';
import { useFarms } from '../api/get-farms';
import { StaticTable } from '@/ui/static-table';
import type { TableColumn } from '@/ui/table-body';
import { RoleBadge } from './role-badge';

/** The farms the user belongs to, by name, with their role and how many machines and people each has. */
export function FarmsTable() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { data: farms, isPending } = useFarms();

  if (isPending) return <p className="text-ink-muted">{t('farms.loading')}</p>;
  if (!farms) return <p className="text-ink-muted">{t('farms.loadFailed')}</p>;

  const collator = new Intl.Collator(locale, { numeric: true, sensitivity: 'base' });
  const sorted = [...farms].sort((a, b) => collator.compare(a.name, b.name));
  const columns: TableColumn<Farm>[] = [
    {
      id: 'name',
      header: t('farms.columns.name'),
      cell: (farm) => (
        <AppLink to={paths.farm.link(farm.id)} className="font-semibold text-water underline-offset-4 hover:underline">
          {farm.name}
        </AppLink>
      ),
    },
    { id: 'role', header: t('farms.columns.role'), cell: (farm) => <RoleBadge role={farm.role} /> },
    {
      id: 'machines',
      header: t('farms.columns.machines'),
      className: 'sm:text-right tabular-nums',
      cell: (farm) => farm.machineCount,
    },
    {
      id: 'members',
      header: t('farms.columns.members'),
      className: 'sm:text-right tabular-nums',
      cell: (farm) => farm.memberCount,
    },
  ];
  return (
    <StaticTable
      label={t('farms.tableLabel')}
      columns={columns}
      rows={sorted}
      rowKey={(farm) => farm.id}
      emptyMessage={t('farms.empty')}
    />
  );
}
