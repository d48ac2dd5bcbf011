// The few Blueprint icons of the sign-in page as Blueprint's <Icon> draws them (the same span, classes and SVG), from
// the icon package's own path files: the light sign-in page (./LightSignIn.tsx) carries no Blueprint component.
import eyeOff from '@blueprintjs/icons/lib/esm/generated/16px/paths/eye-off';
import eyeOpen from '@blueprintjs/icons/lib/esm/generated/16px/paths/eye-open';
import error from '@blueprintjs/icons/lib/esm/generated/16px/paths/error';
import keyEnter from '@blueprintjs/icons/lib/esm/generated/16px/paths/key-enter';
import lock from '@blueprintjs/icons/lib/esm/generated/16px/paths/lock';
import people from '@blueprintjs/icons/lib/esm/generated/16px/paths/people';
import person from '@blueprintjs/icons/lib/esm/generated/16px/paths/person';
import time from '@blueprintjs/icons/lib/esm/generated/16px/paths/time';
import office from '@blueprintjs/icons/lib/esm/generated/20px/paths/office';

const PATHS = {
  'eye-off': eyeOff,
  'eye-open': eyeOpen,
  error,
  'key-enter': keyEnter,
  lock,
  people,
  person,
  time,
} as const;

export type SignInIconName = keyof typeof PATHS | 'office';

/** A Blueprint icon at 16 px, or `office` at 20 px (the brand mark). Decorative: hidden from assistive technology. */
export function SignInIcon({ icon, tabIndex }: { icon: SignInIconName; tabIndex?: number }) {
  const size = icon === 'office' ? 20 : 16;
  const paths = icon === 'office' ? office : PATHS[icon];
  return (
    <span aria-hidden="true" tabIndex={tabIndex} className={`bp6-icon bp6-icon-${icon}`}>
      <svg data-icon={icon} height={size} role="img" viewBox={`0 0 ${size} ${size}`} width={size}>
        {paths.map((d) => (
          <path key={d} d={d} fillRule="evenodd" />
        ))}
      </svg>
    </span>
  );
}
