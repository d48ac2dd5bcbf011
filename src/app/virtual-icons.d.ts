// Generated at build time by scripts/vitePlugins.ts (blueprintIcons): the SVG paths of every icon the console's
// sources name, 16 px (with the console) and 20 px (a chunk of its own, src/app/icons.ts).
declare module 'virtual:blueprint-icons' {
  export const ICON_PATHS: Record<string, string[]>;
}
declare module 'virtual:blueprint-icons/20' {
  export const ICON_PATHS: Record<string, string[]>;
}
