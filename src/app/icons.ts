// Blueprint icons without the 300 KB chunk of every icon (issue 10): the paths of the icons the console names are in
// the bundle (`virtual:blueprint-icons`, scripts/vitePlugins.ts) and handed to Blueprint before the first render, so
// an <Icon> draws its SVG at once instead of the icon font. A name given only at run time falls back to Blueprint's
// own loader (one chunk per size, fetched the first time such an icon is drawn).
// Issue 48: the 16 px paths of the icons the start names (the shell's, the dashboard's) come with the console; the
// 20 px ones and the other 16 px ones (`virtual:blueprint-icons/20`, a chunk of their own) once the opening screen is
// read (installLargeIcons), or at the first such icon drawn before that.
import { Icons, IconSize, type IconName, type IconPaths } from '@blueprintjs/icons';
import { ICON_PATHS } from 'virtual:blueprint-icons';

interface LaterPaths {
  large: Record<string, IconPaths>;
  standard: Record<string, IconPaths>;
}
let later: Promise<LaterPaths> | null = null;
/** The 20 px paths and the 16 px ones the start does not name, asked for once (a failed fetch is tried again next time). */
const laterPaths = () =>
  (later ??= import('virtual:blueprint-icons/20').then(
    (m) => ({ large: m.ICON_PATHS, standard: m.ICON_PATHS_16 }),
    (e: unknown) => {
      later = null;
      throw e;
    },
  ));

async function load(name: IconName, size: IconSize): Promise<IconPaths> {
  const paths = size < IconSize.LARGE ? (ICON_PATHS[name] ?? (await laterPaths()).standard[name]) : (await laterPaths()).large[name];
  if (paths) return paths;
  const { splitPathsBySizeLoader } = await import('@blueprintjs/icons/lib/esm/paths-loaders/splitPathsBySizeLoader');
  return splitPathsBySizeLoader(name, size);
}

/** Installs the loader and loads the bundled 16 px icons (microtasks only: no request). */
export async function installIcons(): Promise<void> {
  Icons.setLoaderOptions({ loader: load });
  await Icons.load(Object.keys(ICON_PATHS) as IconName[], IconSize.STANDARD);
}

/** Loads the bundled 20 px icons and the other 16 px ones (one request). */
export async function installLargeIcons(): Promise<void> {
  const { large, standard } = await laterPaths();
  await Promise.all([Icons.load(Object.keys(large) as IconName[], IconSize.LARGE), Icons.load(Object.keys(standard) as IconName[], IconSize.STANDARD)]);
}
