// The few Blueprint icons of the sign-in page, from the icon package's own path files (no Blueprint component): the
// sign-in form (./SignInView.tsx) draws them with React (./icons.tsx) without Blueprint's Icon component.
import eyeOff from '@blueprintjs/icons/lib/esm/generated/16px/paths/eye-off';
import eyeOpen from '@blueprintjs/icons/lib/esm/generated/16px/paths/eye-open';
import error from '@blueprintjs/icons/lib/esm/generated/16px/paths/error';
import key from '@blueprintjs/icons/lib/esm/generated/16px/paths/key';
import keyEnter from '@blueprintjs/icons/lib/esm/generated/16px/paths/key-enter';
import lock from '@blueprintjs/icons/lib/esm/generated/16px/paths/lock';
import people from '@blueprintjs/icons/lib/esm/generated/16px/paths/people';
import person from '@blueprintjs/icons/lib/esm/generated/16px/paths/person';
import time from '@blueprintjs/icons/lib/esm/generated/16px/paths/time';
import office from '@blueprintjs/icons/lib/esm/generated/20px/paths/office';

const PATHS_16 = {
  'eye-off': eyeOff,
  'eye-open': eyeOpen,
  error,
  key,
  'key-enter': keyEnter,
  lock,
  people,
  person,
  time,
} as const;

export type SignInIconName = keyof typeof PATHS_16 | 'office';

/** An icon's size (16 px, or 20 px for `office`, the brand mark) and its SVG paths. */
export function signInIcon(icon: SignInIconName): { size: number; paths: readonly string[] } {
  return icon === 'office' ? { size: 20, paths: office } : { size: 16, paths: PATHS_16[icon] };
}
