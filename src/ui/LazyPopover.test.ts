// Issue 48: a lazy popover draws its target as Blueprint's own does until Blueprint's code is here, then Blueprint's own.
import { describe, expect, it } from 'vitest';
import { createElement as h, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Button, ContextMenu, Menu, MenuItem, PopoverNext } from '@blueprintjs/core';
import { LazyContextMenu, LazyPopover, loadPopovers } from './LazyPopover';
import type { PopoverKit } from './popoverKit';

const menu = h(Menu, null, h(MenuItem, { text: 'Close' }));
const kitMenu = (k: PopoverKit) => h(k.Menu, null, h(k.MenuItem, { text: 'Close' }));
const target = h(Button, { variant: 'minimal', icon: 'more', 'aria-label': 'Tab actions', children: 'More' });
const html = (e: ReactNode) => renderToStaticMarkup(e);

describe('a lazy popover', () => {
  it('draws a menu target as PopoverNext draws it closed, before the code is here', () => {
    const props = { placement: 'bottom-end', className: 'gh-header__client' } as const;
    expect(html(h(LazyPopover, { ...props, content: kitMenu, children: target }))).toBe(html(h(PopoverNext, { ...props, content: menu, children: target })));
  });

  it('draws a hover tip target as PopoverNext draws it closed (focusable, no popup attributes)', () => {
    const props = { interactionKind: 'hover-target', autoFocus: false, enforceFocus: false, placement: 'bottom' } as const;
    const tip = h('div', null, 'tip');
    expect(html(h(LazyPopover, { ...props, content: () => tip, children: target }))).toBe(html(h(PopoverNext, { ...props, content: tip, children: target })));
  });

  it('draws a context menu target as ContextMenu draws it closed', () => {
    const props = { className: 'gh-tab', 'data-testid': 'tab', 'data-path': '/dashboard' };
    const link = h('a', { href: '/dashboard' }, 'Dashboard');
    expect(html(h(LazyContextMenu, { ...props, content: kitMenu, children: link }))).toBe(html(h(ContextMenu, { ...props, content: menu, children: link })));
  });

  it("is Blueprint's own once the code is here, its content made of the kit's menus", async () => {
    await loadPopovers();
    const props = { placement: 'bottom-end' } as const;
    expect(html(h(LazyPopover, { ...props, content: kitMenu, children: target }))).toBe(html(h(PopoverNext, { ...props, content: menu, children: target })));
    const link = h('a', { href: '/dashboard' }, 'Dashboard');
    expect(html(h(LazyContextMenu, { className: 'gh-tab', content: kitMenu, children: link }))).toBe(
      html(h(ContextMenu, { className: 'gh-tab', content: menu, children: link })),
    );
  });
});
