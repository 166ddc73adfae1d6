import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderInApp } from '@/test-utils';
import { type PickerOption, PickerDialog } from './picker-dialog';

/**
 * Users without access as a server keeps them: sorted by name, searched by name. `list` is what
 * it has now; the test changes it behind the open dialog, as another administrator would.
 */
function candidates(initial: string[]) {
  const server = {
    list: initial,
    asked: 0,
    fetchOptions: async (search: string) => {
      server.asked += 1;
      const found = server.list.filter((name) => name.toLowerCase().includes(search.toLowerCase())).sort();
      return { count: found.length, options: found.map((label, index): PickerOption => ({ key: index + 1, label })) };
    },
  };
  return server;
}

function Picker({ server, picked }: { server: ReturnType<typeof candidates>; picked: PickerOption[] }) {
  const [open, setOpen] = useState(true);
  return open ? (
    <PickerDialog
      title="Grant access"
      legend="Users without access"
      searchLabel="Search users"
      emptyMessage="Nobody"
      queryKey={['users-without-access']}
      fetchOptions={server.fetchOptions}
      confirmLabel="Grant"
      onPick={async (option) => {
        picked.push(option);
        return true;
      }}
      pending={false}
      onClose={() => setOpen(false)}
    />
  ) : (
    <button type="button" onClick={() => setOpen(true)}>
      Open again
    </button>
  );
}

const shownNames = () => screen.getAllByRole('radio').map((radio) => radio.closest('label')?.textContent);

describe('the picker dialog', () => {
  it('keeps the list it took when it opened, whatever the lists behind it are refreshed to, and asks again when reopened', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const server = candidates(['Bob', 'Cecilia', 'Dan']);
    const picked: PickerOption[] = [];
    await renderInApp(
      <QueryClientProvider client={client}>
        <Picker server={server} picked={picked} />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(shownNames()).toEqual(['Bob', 'Cecilia', 'Dan']));
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: 'Cecilia' }));

    // Another administrator grants Bob and adds Alice; the panel refreshes every list it shows.
    server.list = ['Alice', 'Cecilia', 'Dan'];
    await act(() => client.invalidateQueries());
    await act(() => client.refetchQueries());
    expect(shownNames()).toEqual(['Bob', 'Cecilia', 'Dan']);
    expect(server.asked).toBe(1);
    expect(screen.getByRole('radio', { name: 'Cecilia' })).toBeChecked();

    await user.click(screen.getByRole('button', { name: 'Grant' }));
    expect(picked.map((option) => option.label)).toEqual(['Cecilia']);

    await user.click(await screen.findByRole('button', { name: 'Open again' }));
    await waitFor(() => expect(shownNames()).toEqual(['Alice', 'Cecilia', 'Dan']));
  });
});
