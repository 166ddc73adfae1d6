import { TableBody, type TableColumn } from './table-body';

/**
 * A table of rows the screen already has (a user's farms, a farm's members), styled as the app's
 * data tables, without their paging, search or sorting: on a phone each row becomes a card.
 */
export function StaticTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  emptyMessage,
}: {
  label: string;
  columns: readonly TableColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  emptyMessage: string;
}) {
  return (
    <div className="overflow-x-auto rounded-xl border border-line bg-surface">
      <table aria-label={label} className="w-full border-collapse text-sm max-sm:block">
        <thead className="bg-surface-muted max-sm:sr-only">
          <tr>
            {columns.map((column) => (
              <th key={column.id} scope="col" className={`px-4 py-3 text-left font-semibold ${column.className ?? ''}`}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <TableBody
          columns={columns}
          rows={rows}
          rowKey={rowKey}
          status={rows.length === 0 ? emptyMessage : null}
          narrowLabels
        />
      </table>
    </div>
  );
}
