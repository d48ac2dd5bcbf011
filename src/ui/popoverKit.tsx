// Issue 48: Blueprint's popovers, context menus and menus, with floating-ui under them (16 KB compressed), in a chunk of
// their own: the header's and the tabs' menus and the companion's tip are drawn by src/ui/LazyPopover.tsx, which loads
// this file after the opening screen or at the first use of one of them. Nothing else imports it.
import { useEffect, useRef, type JSX, type ReactNode } from 'react';
import { ContextMenu, Menu, MenuDivider, MenuItem, PopoverNext, type ContextMenuProps, type PopoverNextProps } from '@blueprintjs/core';

/** What a lazily drawn popover's content is made of. */
export const kit = { Menu, MenuItem, MenuDivider };
export type PopoverKit = typeof kit;

export type KitPopoverProps = Omit<PopoverNextProps, 'content'> & { content: (k: PopoverKit) => JSX.Element };

export function KitPopover({ content, ...props }: KitPopoverProps) {
  return <PopoverNext {...props} content={content(kit)} />;
}

export type KitContextMenuProps = Omit<ContextMenuProps, 'content' | 'children'> & {
  content: (k: PopoverKit) => JSX.Element;
  children: ReactNode;
  /** Where the operator asked for the menu before this code was here: it opens there once it is. */
  openAt?: { clientX: number; clientY: number };
};

export function KitContextMenu({ content, openAt, ...props }: KitContextMenuProps) {
  const target = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (openAt) target.current?.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true, ...openAt }));
  }, [openAt]);
  return <ContextMenu {...props} ref={target} content={content(kit)} />;
}
