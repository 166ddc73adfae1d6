import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { renderInApp } from '@/test-utils';
import { Dropdown, DropdownItem } from './dropdown';

beforeAll(() => {
  // Radix measures the trigger to place the menu; jsdom lays nothing out.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe = () => undefined;
      unobserve = () => undefined;
      disconnect = () => undefined;
    },
  );
});

async function renderMenu(closeOnItemClick?: boolean) {
  const onSelect = vi.fn();
  await renderInApp(
    <>
      <p>Outside</p>
      <Dropdown trigger={<button type="button">Open</button>} closeOnItemClick={closeOnItemClick}>
        <DropdownItem onSelect={onSelect}>Action</DropdownItem>
        <DropdownItem to="/dashboard/account">Account</DropdownItem>
      </Dropdown>
    </>,
  );
  await userEvent.click(screen.getByRole('button', { name: 'Open' }));
  return onSelect;
}

describe('the dropdown', () => {
  it('opens on its trigger, named after it, with actions and links', async () => {
    await renderMenu();
    expect(screen.getByRole('menu', { name: 'Open' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Account' })).toHaveAttribute('href', '/en/dashboard/account');
  });

  it('closes after an item is chosen', async () => {
    const onSelect = await renderMenu();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Action' }));
    expect(onSelect).toHaveBeenCalled();
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });

  it('stays open after an item when told so', async () => {
    const onSelect = await renderMenu(false);
    await userEvent.click(screen.getByRole('menuitem', { name: 'Action' }));
    expect(onSelect).toHaveBeenCalled();
    expect(screen.getByRole('menu')).toBeInTheDocument();
  });

  it('closes on a press outside and on Escape', async () => {
    await renderMenu();
    await userEvent.click(screen.getByText('Outside'));
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });
});
