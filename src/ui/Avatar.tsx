import type { AvatarColor } from '../../contract';

export const AVATAR_COLOURS: Record<AvatarColor, string> = {
  blue: '#2d72d2',
  green: '#238551',
  orange: '#c87619',
  red: '#cd4246',
  violet: '#7961db',
  turquoise: '#00a396',
  gold: '#d1980b',
  gray: '#5f6b7c',
};

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '?') + (parts.length > 1 ? parts[parts.length - 1][0] : '')).toUpperCase();
}

export function Avatar({ name, color, size = 32 }: { name: string; color: AvatarColor; size?: number }) {
  return (
    <span
      className="gh-avatar"
      aria-hidden
      style={{ background: AVATAR_COLOURS[color] ?? AVATAR_COLOURS.blue, width: size, height: size, fontSize: Math.round(size * 0.4) }}
    >
      {initials(name)}
    </span>
  );
}
