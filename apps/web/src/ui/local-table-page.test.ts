import { describe, expect, it } from 'vitest';
import { localTablePage } from './local-table-page';

type Machine = { name: string; speed: number | null };
const machines: Machine[] = [
  { name: 'Pole 10', speed: 40 },
  { name: 'Łąka', speed: null },
  { name: 'Pole 2', speed: 15 },
  { name: 'Sad', speed: 80 },
];
const options = {
  sortValue: (row: Machine, column: string) => (column === 'speed' ? row.speed : row.name),
  searchText: (row: Machine) => [row.name],
  locale: 'pl',
};
const names = (rows: Machine[]) => rows.map((row) => row.name);

describe('localTablePage', () => {
  it('sorts names as people read them, numbers within them included', () => {
    const page = localTablePage(machines, { page: 1, pageSize: 10, sort: 'name', order: 'asc' }, options);
    expect(names(page.data)).toEqual(['Łąka', 'Pole 2', 'Pole 10', 'Sad']);
  });

  it('keeps rows without a value last in both directions', () => {
    const ascending = localTablePage(machines, { page: 1, pageSize: 10, sort: 'speed', order: 'asc' }, options);
    const descending = localTablePage(machines, { page: 1, pageSize: 10, sort: 'speed', order: 'desc' }, options);
    expect(names(ascending.data)).toEqual(['Pole 2', 'Pole 10', 'Sad', 'Łąka']);
    expect(names(descending.data)).toEqual(['Sad', 'Pole 10', 'Pole 2', 'Łąka']);
  });

  it('searches without regard to case, then cuts the page and counts every match', () => {
    const page = localTablePage(
      machines,
      { page: 2, pageSize: 1, search: 'POLE', sort: 'name', order: 'asc' },
      options,
    );
    expect(page).toEqual({ count: 2, data: [{ name: 'Pole 10', speed: 40 }] });
  });

  it('leaves the given rows as they were', () => {
    const before = [...machines];
    localTablePage(machines, { page: 1, pageSize: 10, sort: 'name', order: 'desc' }, options);
    expect(machines).toEqual(before);
  });
});
