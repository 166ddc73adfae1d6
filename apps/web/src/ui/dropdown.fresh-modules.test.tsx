import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderInApp } from '@/test-utils';
import { Dropdown, DropdownItem } from './dropdown';

function renderDropdown(closeOnItemClick?: boolean) {
  const onSelect = vi.fn();
  const onOpenChange = vi.fn();
  const rendered = renderInApp(
    <>
      <p>Outside</p>
      <Dropdown
        trigger={<button type="button">Open</button>}
        closeOnItemClick={closeOnItemClick}
        onOpenChange={onOpenChange}
      >
        <DropdownItem onSelect={onSelect}>Action</DropdownItem>
        <DropdownItem to="/dashboard/account">Account</DropdownItem>
      </Dropdown>
    </>,
  );
  return { rendered, onSelect, onOpenChange };
}

/** Opens the menu with a click; its code (a chunk of its own) may arrive only then. */
async function renderMenu(closeOnItemClick?: boolean) {
  const { rendered, onSelect } = renderDropdown(closeOnItemClick);
  await rendered;
  await userEvent.click(screen.getByRole('button', { name: 'Open' }));
  await screen.findByRole('menu');
  return onSelect;
}

describe('the dropdown', () => {
  // First: the menu's code has not been fetched yet in this file.
  it('opens from the keyboard on the first press, its code fetched only then, and says it opened', async () => {
    const { rendered, onOpenChange } = renderDropdown();
    await rendered;
    const trigger = screen.getByRole('button', { name: 'Open' });
    expect(trigger).toHaveAttribute('aria-haspopup', 'menu');
    expect(trigger).toHaveAttribute('aria-expanded', 'false');
    // Radix's trigger, once its code is there, marks its state: not yet.
    expect(trigger).not.toHaveAttribute('data-state');
    fireEvent.keyDown(trigger, { key: 'Enter' });
    expect(await screen.findByRole('menu', { name: 'Open' })).toBeInTheDocument();
    expect(onOpenChange).toHaveBeenCalledWith(true);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(onOpenChange).toHaveBeenLastCalledWith(false);
  });

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
