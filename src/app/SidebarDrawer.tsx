// The sidebar on a phone: Blueprint's Drawer from the left. Issue 48: a chunk of its own with the other overlays' code
// (the settings drawer, the toaster), drawn once the menu was first opened (src/app/Shell.tsx).
import type { ReactNode } from 'react';
import { Drawer } from '@blueprintjs/core';
import { SIDEBAR_WIDTH_PX } from '../../contract';

export function SidebarDrawer({ isOpen, onClose, children }: { isOpen: boolean; onClose: () => void; children: ReactNode }) {
  return (
    <Drawer isOpen={isOpen} onClose={onClose} position="left" size={`${SIDEBAR_WIDTH_PX}px`} className="gh-sidebar-drawer" title={undefined}>
      {children}
    </Drawer>
  );
}
