import type { ReactNode } from 'react';

export type FarmTableColumn<Row> = {
  id: string;
  header: string;
  cell: (row: Row) => ReactNode;
  className?: string;
};

/**
 * A table of rows the screen already has (a user's farms, a farm's members), styled as the app's
 * data tables: on a phone each row becomes a card, each value under its column's name.
 */
export function FarmTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  emptyMessage,
}: {
  label: string;
  columns: readonly FarmTableColumn<Row>[];
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
        <tbody className="max-sm:block">
          {rows.length === 0 ? (
            <tr className="max-sm:block">
              <td colSpan={columns.length} className="px-4 py-10 text-center text-ink-muted max-sm:block">
                {emptyMessage}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr
                key={rowKey(row)}
                className="border-t border-line first:border-t-0 max-sm:block max-sm:px-4 max-sm:py-3"
              >
                {columns.map((column) => (
                  <td
                    key={column.id}
                    className={`px-4 py-3 align-top max-sm:flex max-sm:gap-3 max-sm:px-0 max-sm:py-1 ${column.className ?? ''}`}
                  >
                    <span
                      aria-hidden="true"
                      className="w-24 shrink-0 font-medium whitespace-normal text-ink-muted sm:hidden"
                    >
                      {column.header}
                    </span>
                    <span className="min-w-0 flex-1 break-words">{column.cell(row)}</span>
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
