// Issue 48: the shell's popovers (the header's client and user menus, the tabs' menus, the companion's tip) drawn by
// Blueprint once its popover code is here (src/ui/popoverKit.tsx: floating-ui, 16 KB compressed, out of the cold
// console's start). Until then each draws its target as Blueprint does, and asks for the code at the first hover, focus,
// click or right-click on it; the shell asks for it once the opening screen is drawn (src/app/App.tsx). A click or a
// right-click that came before the code opens the popover once it is here.
import { cloneElement, useState, useSyncExternalStore, type ReactElement } from 'react';
import { Classes } from '@blueprintjs/core';
import type { KitContextMenuProps, KitPopoverProps } from './popoverKit';

type Kit = typeof import('./popoverKit');
let kit: Kit | null = null;
let asked: Promise<void> | null = null;
const listeners = new Set<() => void>();
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** Fetches the popovers' code once (again after a failed fetch); every lazy popover then draws Blueprint's own. */
export function loadPopovers(): Promise<void> {
  asked ??= import('./popoverKit').then(
    (m) => {
      kit = m;
      listeners.forEach((l) => l());
    },
    (e: unknown) => {
      asked = null;
      throw e;
    },
  );
  return asked;
}
const ask = () => void loadPopovers().catch(() => undefined);
const kitNow = () => kit;
const useKit = () => useSyncExternalStore(subscribe, kitNow, kitNow);
const classes = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ');

/** Blueprint's PopoverNext (`content` made of the kit's Menu, MenuItem and MenuDivider), its code fetched lazily. */
export function LazyPopover({ children, ...props }: KitPopoverProps & { children: ReactElement<{ className?: string; tabIndex?: number }> }) {
  const loaded = useKit();
  const [clicked, setClicked] = useState(false); // visual: the target was clicked before the code came: open once here
  if (loaded)
    return (
      <loaded.KitPopover {...props} defaultIsOpen={props.defaultIsOpen || clicked}>
        {children}
      </loaded.KitPopover>
    );
  // the target as PopoverNext draws it while closed (popoverTarget.js): a span around the child, with the child's
  // popup attributes; a hover popover's target takes the focus that opens it
  const hover = props.interactionKind === 'hover' || props.interactionKind === 'hover-target';
  return (
    <span
      className={classes(props.className, Classes.POPOVER_TARGET)}
      onMouseEnter={ask}
      onFocus={ask}
      onClick={() => {
        if (!hover) setClicked(true);
        ask();
      }}
    >
      {cloneElement(children, {
        'aria-expanded': hover ? undefined : false,
        'aria-haspopup': props.interactionKind === 'hover-target' ? undefined : (props.popupKind ?? 'menu'),
        className: classes(children.props.className),
        tabIndex: children.props.tabIndex ?? (hover && props.openOnTargetFocus !== false ? 0 : undefined),
      } as Record<string, unknown>)}
    </span>
  );
}

/** Blueprint's ContextMenu (`content` made of the kit's menus), its code fetched lazily. */
export function LazyContextMenu({ children, content, ...props }: Omit<KitContextMenuProps, 'openAt'>) {
  const loaded = useKit();
  const [openAt, setOpenAt] = useState<{ clientX: number; clientY: number }>(); // visual: where the menu was asked for before its code came
  if (loaded)
    return (
      <loaded.KitContextMenu {...props} content={content} openAt={openAt}>
        {children}
      </loaded.KitContextMenu>
    );
  const { className, popoverProps: _p, onClose: _c, disabled, tagName: _t, ...attributes } = props;
  return (
    <div
      className={classes(className, Classes.CONTEXT_MENU)}
      onContextMenu={(e) => {
        if (disabled) return;
        e.preventDefault();
        setOpenAt({ clientX: e.clientX, clientY: e.clientY });
        ask();
      }}
      onMouseEnter={ask}
      {...attributes}
    >
      {children}
    </div>
  );
}
