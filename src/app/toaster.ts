// Issue 48: Blueprint's toaster (its overlay and transitions) is a chunk of its own, asked for with the first notice
// (src/app/Toasts.tsx), not with the console's start.
import { OverlayToaster, Position } from '@blueprintjs/core';

export const createToaster = () => OverlayToaster.create({ position: Position.TOP, maxToasts: 4, className: 'gh-toaster' });
