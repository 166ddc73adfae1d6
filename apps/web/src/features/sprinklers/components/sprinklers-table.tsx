import { type SprinklerListItem, machineIsOnline } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { useLocale } from '@/i18n/use-locale';
import { keepWhileOffline } from '@/lib/connection';
import { serverNow } from '@/lib/server-clock';
import { sprinklerKeys } from '@/lib/sprinkler-detail-cache';
import { type Column, DataTable } from '@/ui/data-table';
import { AppLink } from '@/ui/link';
import { localTablePage } from '@/ui/local-table-page';
import { getFreshSprinklers } from '../api/get-sprinklers';
import { useLiveMachineList } from '../hooks/use-live-machine-list';
import { useMachineValues } from '../hooks/use-machine-values';
import { MachineState } from './machine-state';
import { MeasuredValue } from './measured-value';
import { NextIrrigation } from './next-irrigation';
import { PresenceDot } from './presence-dot';

/**
 * The live values come from the event stream (useLiveMachineList), which keeps the list in the
 * cache fresh; a list older than this (the table opened again after a while away) is read anew.
 */
const LIST_MAX_AGE_MS = 5000;

/** A column of values with units, which read badly broken over two lines. */
function measured(column: Column<SprinklerListItem>): Column<SprinklerListItem> {
  return { ...column, className: 'whitespace-nowrap tabular-nums' };
}

const SORT_VALUES: Record<string, (machine: SprinklerListItem) => string | number | null> = {
  name: (machine) => machine.name,
  internalId: (machine) => machine.internalId,
  distance: (machine) => machine.distance,
  angle: (machine) => machine.angle,
  status: (machine) => machine.status,
  speed: (machine) => machine.speed,
  pressure: (machine) => machine.pressure,
  flow: (machine) => machine.flow,
  program: (machine) => machine.currentProgramName,
  uploaded: (machine) => machine.currentProgramTimestamp,
};

/**
 * The user's machines with their values (docs/product.md#screens), each linking to its page, and when each last
 * reported. An offline machine's values are its last known, dimmed, and its status says so.
 */
export function SprinklersTable() {
  const { t } = useTranslation();
  const locale = useLocale();
  const values = useMachineValues();
  useLiveMachineList();
  // The search looks in the status as the table words it ("do przodu", "offline, was stopped").
  const statusText = (machine: SprinklerListItem) =>
    machineIsOnline(machine, serverNow())
      ? values.status(machine.status)
      : [t('sprinklers.offline'), machine.status ? t(`sprinklers.wasDoing.${machine.status}`) : ''].join(' ');

  const columns: Column<SprinklerListItem>[] = [
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

  return (
    <DataTable
      label={t('sprinklers.list.tableLabel')}
      columns={columns}
      queryKey={[...sprinklerKeys.list, 'page', locale]}
      queryFn={async (query) => {
        // Without a connection the table keeps the page it shows.
        const machines = await keepWhileOffline(getFreshSprinklers(LIST_MAX_AGE_MS));
        return (
          machines &&
          localTablePage(machines, query, {
            sortValue: (machine, column) => SORT_VALUES[column]?.(machine) ?? null,
            searchText: (machine) => [machine.name, machine.internalId, statusText(machine)],
            locale,
          })
        );
      }}
      rowKey={(machine) => machine.id}
      searchable
      initialSort={{ sort: 'name', order: 'asc' }}
      emptyMessage={t('sprinklers.list.empty')}
    />
  );
}
