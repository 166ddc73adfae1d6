import {
  SPRINKLER_PAGE_SORT_FIELDS,
  SPRINKLER_STATUS_FILTERS,
  type SprinklerPageItem,
  type SprinklerPageSort,
  type SprinklerStatusFilter,
} from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { useLocale } from '@/i18n/use-locale';
import { useCurrentFarm } from '@/lib/current-farm';
import { type Column, DataTable, type TableFilter, type TableQuery } from '@/ui/data-table';
import { AppLink } from '@/ui/link';
import { getSprinklerPage } from '../api/get-sprinkler-page';
import { MACHINE_PAGES_KEY, useLiveMachineList } from '../hooks/use-live-machine-list';
import { useMachineValues } from '../hooks/use-machine-values';
import { MachineState } from './machine-state';
import { MeasuredValue } from './measured-value';
import { NextIrrigation } from './next-irrigation';
import { PresenceDot } from './presence-dot';

/** A column of values with units, which read badly broken over two lines. */
function measured(column: Column<SprinklerPageItem>): Column<SprinklerPageItem> {
  return { ...column, className: 'whitespace-nowrap tabular-nums' };
}

const isPageSort = (sort: string | undefined): sort is SprinklerPageSort =>
  (SPRINKLER_PAGE_SORT_FIELDS as readonly (string | undefined)[]).includes(sort);
const isStatusFilter = (filter: string | undefined): filter is SprinklerStatusFilter =>
  (SPRINKLER_STATUS_FILTERS as readonly (string | undefined)[]).includes(filter);

/** The table's query as the server's page query (the column ids are the server's sort names), of one farm or all. */
function pageQuery({ page, pageSize, sort, order, search, filter }: TableQuery, farm: number | null) {
  return {
    page,
    pageSize,
    ...(farm === null ? {} : { farm: String(farm) }),
    ...(isPageSort(sort) ? { sort, order } : {}),
    ...(search ? { search } : {}),
    ...(isStatusFilter(filter) ? { status: filter } : {}),
  };
}

/**
 * The user's machines with their values (docs/product.md#screens), each linking to its page, and when each last
 * reported. An offline machine's values are its last known, dimmed, and its status says so. Of the
 * farm the person switched to; of all their farms side by side otherwise, each machine's farm
 * named when `farmNames` are given (a person with more than one).
 */
export function SprinklersTable({ farmNames }: { farmNames?: ReadonlyMap<number, string> }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [farm] = useCurrentFarm();
  const values = useMachineValues();
  useLiveMachineList();
  const stateFilter: TableFilter = {
    label: t('machineList.stateFilter'),
    allLabel: t('machineList.allStates'),
    options: SPRINKLER_STATUS_FILTERS.map((state) => ({
      value: state,
      label: state === 'offline' ? t('sprinklers.offline') : t(`sprinklers.status.${state}`),
    })),
  };

  const columns: Column<SprinklerPageItem>[] = [
    {
      id: 'name',
      header: t('sprinklers.columns.name'),
      sortable: true,
      cell: (machine) => (
        <span className="inline-flex items-center gap-2">
          <PresenceDot machine={machine} />
          <AppLink
            to={paths.sprinkler.link(machine.id)}
            className="font-semibold text-water underline-offset-4 hover:underline"
          >
            {machine.name}
          </AppLink>
        </span>
      ),
      // A name of a few words on a line or two, not a word a line beside the many measured columns.
      className: 'min-w-44',
    },
    measured({
      id: 'internalId',
      header: t('sprinklers.columns.internalId'),
      sortable: true,
      cell: (machine) => machine.internalId,
    }),
    measured({
      id: 'distance',
      header: t('sprinklers.columns.distance'),
      sortable: true,
      cell: (machine) => <MeasuredValue machine={machine}>{values.distance(machine.distance)}</MeasuredValue>,
    }),
    measured({
      id: 'angle',
      header: t('sprinklers.columns.angle'),
      sortable: true,
      cell: (machine) => <MeasuredValue machine={machine}>{values.angle(machine.angle)}</MeasuredValue>,
    }),
    {
      id: 'status',
      header: t('sprinklers.columns.status'),
      sortable: true,
      cell: (machine) => <MachineState machine={machine} />,
      // Wide enough for "was moving forward" and "last known 3 min ago" on a line each.
      className: 'min-w-40',
    },
    {
      // Beside the state, so a laptop's width shows it: what the farmer opens the list for. From the
      // machine's crop seasons (docs/advice.md), read apart from the list and kept for minutes.
      id: 'nextIrrigation',
      header: t('sprinklers.columns.nextIrrigation'),
      cell: (machine) => <NextIrrigation sprinklerId={machine.id} />,
      className: 'whitespace-nowrap tabular-nums',
    },
    measured({
      id: 'speed',
      header: t('sprinklers.columns.speed'),
      sortable: true,
      cell: (machine) => <MeasuredValue machine={machine}>{values.speed(machine.speed)}</MeasuredValue>,
    }),
    measured({
      id: 'pressure',
      header: t('sprinklers.columns.pressure'),
      sortable: true,
      cell: (machine) => <MeasuredValue machine={machine}>{values.pressure(machine.pressure)}</MeasuredValue>,
    }),
    measured({
      id: 'flow',
      header: t('sprinklers.columns.flow'),
      sortable: true,
      cell: (machine) => <MeasuredValue machine={machine}>{values.flow(machine.flow)}</MeasuredValue>,
    }),
    {
      id: 'program',
      header: t('sprinklers.columns.program'),
      sortable: true,
      cell: (machine) => values.text(machine.currentProgramName),
    },
    {
      id: 'uploaded',
      header: t('sprinklers.columns.uploaded'),
      sortable: true,
      cell: (machine) => values.date(machine.currentProgramTimestamp),
      className: 'whitespace-nowrap',
    },
  ];
  if (farmNames && farm === null) {
    columns.splice(1, 0, {
      id: 'farm',
      header: t('farmSwitch.label'),
      sortable: true,
      cell: (machine) => (machine.farmId === null ? '—' : (farmNames.get(machine.farmId) ?? '—')),
      className: 'min-w-32',
    });
  }

  return (
    <DataTable
      label={t('machineList.tableLabel')}
      columns={columns}
      // The server searches the states as this language words them ("do przodu", "offline, was stopped").
      queryKey={[...MACHINE_PAGES_KEY, locale, farm]}
      queryFn={(query) => getSprinklerPage(pageQuery(query, farm))}
      rowKey={(machine) => machine.id}
      searchable
      filter={stateFilter}
      initialSort={{ sort: 'name', order: 'asc' }}
      emptyMessage={t('machineList.empty')}
    />
  );
}
