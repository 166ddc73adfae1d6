import * as Menu from '@radix-ui/react-dropdown-menu';
import { type ReactElement, type ReactNode, createContext, useContext } from 'react';
import { AppLink } from './link';

/**
 * Radix's menu, behind `Dropdown` (dropdown.tsx): a chunk of its own, fetched when a menu is
 * about to open, because it weighs more than the rest of the header.
 */

const ClosesOnItemClick = createContext(true);

export type MenuProps = {
  trigger: ReactElement;
  children: ReactNode;
  closeOnItemClick: boolean;
  /** Open from the start: the user asked for the menu before this code had arrived. */
  defaultOpen: boolean;
  onOpenChange?: (open: boolean) => void;
};

/**
 * A menu under its trigger (docs/product.md#limits: bottom-end, 10 px away, at least 222 px wide). Keyboard,
 * focus and outside presses are handled by Radix's menu, which names the menu after its trigger.
 */
export function DropdownMenu({ trigger, children, closeOnItemClick, defaultOpen, onOpenChange }: MenuProps) {
  return (
    <Menu.Root modal={false} defaultOpen={defaultOpen} onOpenChange={onOpenChange}>
      <Menu.Trigger asChild>{trigger}</Menu.Trigger>
      <Menu.Portal>
        <Menu.Content
          side="bottom"
          align="end"
          sideOffset={10}
          collisionPadding={8}
          className="z-40 max-h-[min(70vh,32rem)] max-w-[calc(100vw-16px)] min-w-[222px] overflow-y-auto rounded-lg border border-line bg-surface p-1.5 text-ink shadow-lg"
        >
          <ClosesOnItemClick.Provider value={closeOnItemClick}>{children}</ClosesOnItemClick.Provider>
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}

const ITEM_CLASSES =
  'flex min-h-10 w-full cursor-pointer items-center gap-2.5 rounded-md px-3 py-2 text-left text-sm outline-none select-none data-[highlighted]:bg-surface-muted';

export type MenuItemProps = {
  children: ReactNode;
  icon?: ReactNode;
} & ({ to: string; onSelect?: never } | { to?: never; onSelect: () => void });

/** A menu item: a link when given `to` (an unprefixed path), otherwise an action. */
export function MenuItem({ children, icon, to, onSelect }: MenuItemProps) {
  const closes = useContext(ClosesOnItemClick);
  const select = (event: Event) => {
    if (!closes) event.preventDefault();
    onSelect?.();
  };
  const content = (
    <>
      {icon}
      <span className="min-w-0 flex-1">{children}</span>
    </>
  );
  if (to !== undefined) {
    return (
      <Menu.Item asChild onSelect={select}>
        <AppLink to={to} className={ITEM_CLASSES}>
          {content}
        </AppLink>
      </Menu.Item>
    );
  }
  return (
    <Menu.Item onSelect={select} className={ITEM_CLASSES}>
      {content}
    </Menu.Item>
  );
}

export function MenuLabel({ children }: { children: ReactNode }) {
  return (
    <Menu.Label className="px-3 py-2 text-xs font-semibold tracking-wide text-ink-muted uppercase">
      {children}
    </Menu.Label>
  );
}

export function MenuSeparator() {
  return <Menu.Separator className="my-1 h-px bg-line" />;
}
