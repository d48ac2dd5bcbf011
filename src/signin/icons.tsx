// The sign-in page's Blueprint icons as Blueprint's <Icon> draws them (the same span, classes and SVG), without
// Blueprint's component (the sign-in chunk carries no Blueprint component).
import { signInIcon, type SignInIconName } from './iconPaths';

export type { SignInIconName } from './iconPaths';

/** A Blueprint icon at 16 px, or `office` at 20 px (the brand mark). Decorative: hidden from assistive technology. */
export function SignInIcon({ icon, tabIndex }: { icon: SignInIconName; tabIndex?: number }) {
  const { size, paths } = signInIcon(icon);
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
