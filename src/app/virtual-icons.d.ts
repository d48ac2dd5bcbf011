// Generated at build time by scripts/vitePlugins.ts (blueprintIcons): the SVG paths, 16 px and 20 px, of every icon
// the console's sources name.
declare module 'virtual:blueprint-icons' {
  export const ICON_PATHS: Record<string, readonly [string[], string[]]>;
}
