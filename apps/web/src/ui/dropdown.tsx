import {
  type ButtonHTMLAttributes,
  type KeyboardEvent,
  type PointerEvent,
  type ReactElement,
  type ReactNode,
  cloneElement,
  createContext,
  useContext,
  useState,
} from 'react';
import type * as DropdownMenuModule from './dropdown-menu';
import type { MenuItemProps } from './dropdown-menu';

type MenuCode = typeof DropdownMenuModule;

let loaded: MenuCode | undefined;
let loading: Promise<MenuCode> | undefined;

/**
 * Radix's menu code (dropdown-menu.tsx), fetched once, when the first menu is about to open. A
 * fetch that failed (no connection) is not kept: the next point, focus or press tries again.
 */
function loadMenuCode(): Promise<MenuCode> {
  loading ??= import('./dropdown-menu').then(
    (code) => (loaded = code),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The menu code inside an open menu, for its items. */
const OpenMenuCode = createContext<MenuCode | null>(null);

function useOpenMenuCode(): MenuCode {
  const code = useContext(OpenMenuCode);
  if (!code) throw new Error('A dropdown item belongs inside a Dropdown');
  return code;
}

/** The keys that open a menu from its trigger, as on Radix's. */
const OPENING_KEYS: ReadonlySet<string> = new Set(['Enter', ' ', 'ArrowDown']);

export type DropdownProps = {
  /** The button that opens the menu; it gets the menu's ARIA state. */
  trigger: ReactElement<ButtonHTMLAttributes<HTMLButtonElement>>;
  children: ReactNode;
  /** docs/product.md#states: a click on an item closes the menu unless this is turned off. */
  closeOnItemClick?: boolean;
  onOpenChange?: (open: boolean) => void;
};

/**
 * A menu under its trigger (dropdown-menu.tsx). Until its code has arrived the trigger is shown
 * alone: pointing at it or focusing it fetches the code, and pressing it (or Enter, Space, the
 * down arrow) opens the menu as soon as the code is there.
 */
export function Dropdown({ trigger, children, closeOnItemClick = true, onOpenChange }: DropdownProps) {
  const [code, setCode] = useState(loaded);
  const [openFromStart, setOpenFromStart] = useState(false);

  if (code) {
    return (
      <code.DropdownMenu
        trigger={trigger}
        closeOnItemClick={closeOnItemClick}
        defaultOpen={openFromStart}
        onOpenChange={onOpenChange}
      >
        <OpenMenuCode.Provider value={code}>{children}</OpenMenuCode.Provider>
      </code.DropdownMenu>
    );
  }

  // Without its code (no connection) the menu stays closed, and the trigger asks again next time.
  const fetchCode = () => void loadMenuCode().then(setCode, () => undefined);
  const open = () => {
    setOpenFromStart(true);
    // Radix does not tell about the state it starts in.
    onOpenChange?.(true);
    void loadMenuCode().then(setCode, () => {
      setOpenFromStart(false);
      onOpenChange?.(false);
    });
  };
  return cloneElement(trigger, {
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    onPointerEnter: fetchCode,
    onFocus: fetchCode,
    onPointerDown: (event: PointerEvent<HTMLButtonElement>) => {
      if (event.button === 0 && !event.ctrlKey) open();
    },
    onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => {
      if (!OPENING_KEYS.has(event.key)) return;
      event.preventDefault();
      open();
    },
  });
}

export type DropdownItemProps = MenuItemProps;

/** A menu item: a link when given `to` (an unprefixed path), otherwise an action. */
export function DropdownItem(props: DropdownItemProps) {
  const { MenuItem } = useOpenMenuCode();
  return <MenuItem {...props} />;
}

export function DropdownLabel({ children }: { children: ReactNode }) {
  const { MenuLabel } = useOpenMenuCode();
  return <MenuLabel>{children}</MenuLabel>;
}

export function DropdownSeparator() {
  const { MenuSeparator } = useOpenMenuCode();
  return <MenuSeparator />;
}
