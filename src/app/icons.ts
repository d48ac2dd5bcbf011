// Blueprint icons without the 300 KB chunk of every icon (issue 10): the paths of the icons the console names are in
// the bundle (`virtual:blueprint-icons`, scripts/vitePlugins.ts) and handed to Blueprint before the first render, so
// an <Icon> draws its SVG at once instead of the icon font. A name given only at run time falls back to Blueprint's
// own loader (one chunk per size, fetched the first time such an icon is drawn).
import { Icons, IconSize, type IconName, type IconPaths } from '@blueprintjs/icons';
import { ICON_PATHS } from 'virtual:blueprint-icons';

async function load(name: IconName, size: IconSize): Promise<IconPaths> {
  const pair = ICON_PATHS[name];
  if (pair) return pair[size < IconSize.LARGE ? 0 : 1];
  const { splitPathsBySizeLoader } = await import('@blueprintjs/icons/lib/esm/paths-loaders/splitPathsBySizeLoader');
  return splitPathsBySizeLoader(name, size);
}

/** Installs the loader and loads the bundled icons in both sizes (microtasks only: no request). */
export async function installIcons(): Promise<void> {
  Icons.setLoaderOptions({ loader: load });
  const names = Object.keys(ICON_PATHS) as IconName[];
  await Promise.all([Icons.load(names, IconSize.STANDARD), Icons.load(names, IconSize.LARGE)]);
}
