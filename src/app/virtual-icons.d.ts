// Generated at build time by scripts/vitePlugins.ts (blueprintIcons): the SVG paths of every icon the console's
// sources name: 16 px of the icons the start names (with the console), and the 20 px and the other 16 px ones (a
// chunk of their own, src/app/icons.ts).
declare module 'virtual:blueprint-icons' {
  export const ICON_PATHS: Record<string, string[]>;
}
declare module 'virtual:blueprint-icons/20' {
  export const ICON_PATHS: Record<string, string[]>;
  export const ICON_PATHS_16: Record<string, string[]>;
}
