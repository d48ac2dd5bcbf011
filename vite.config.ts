import { defineConfig, runnerImport, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { axiosXhrOnly, blueprintIcons, precompress } from './scripts/vitePlugins.ts';
import { lazyHotkeysDialog, START_LATER, startChunks, startChunksCheck } from './scripts/startChunks.ts';

/** The sign-in page's stylesheet (src/signin/signinCss.ts, PurgeCSS over the console's sheets), made once per
 *  build (and again in the dev server when one of those sheets changes) and offered to src/main.tsx as `virtual:signin.css` (a name ending in .css: Vite's CSS pipeline
 *  takes it as a sheet, a hashed <link> in index.html). The generator is loaded through Vite's module runner, as the
 *  console's sources it reads are written for the bundler. */
function signInSheet(): Plugin {
  const resolved = '/@gatehouse/signin.css';
  return {
    name: 'gatehouse-signin-sheet',
    resolveId: (id) => (id === 'virtual:signin.css' ? resolved : null),
    async load(id) {
      if (id !== resolved) return null;
      const { module: m } = await runnerImport<typeof import('./src/signin/signinCss.ts')>('./src/signin/signinCss.ts');
      for (const sheet of m.SHEETS) this.addWatchFile(m.sheetPath(sheet));
      return m.signInCss();
    },
  };
}

const CONTRACT = /[\\/]contract[\\/]/;
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
/** What the console's start evaluates: its code and the dashboard, the screen most operators open on (their icons, and
 *  the sign-in page's, come with the console: scripts/vitePlugins.ts blueprintIcons). */
const START = ['./src/app/App.tsx', './src/signin/mountConsole.tsx', './src/screens/general/DashboardScreen.tsx'];

const target = `http://127.0.0.1:${process.env.PORT ?? 8080}`;
const proxied = ['/idp', '/event', '/central', '/api', '/MyKad', '/report', '/visitor', '/batch', '/video', '/ws'];

export default defineConfig({
  // the icons the console names go into the bundle (not Blueprint's 300 KB chunk of all of them); the sign-in page's
  // small sheet is picked from the full ones (issue 30); brotli and gzip copies of the build are written once, here,
  // and sent as they are (issue 10)
  plugins: [
    react(),
    blueprintIcons(['src', 'contract'], [...START, './src/signin/SignInPage.tsx'].map(here)),
    axiosXhrOnly(),
    lazyHotkeysDialog(),
    signInSheet(),
    precompress(),
    startChunksCheck(START_LATER),
  ],
  // sockjs-client reads a Node `global` (TOOLCHAIN.md)
  define: { global: 'globalThis' },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 2000,
    // Issue 48: contract/ is definitions only (schemas, paths, declarations; no module of it acts when evaluated), so a
    // module of it that the console's start reaches only through the barrel (contract/index.ts) and whose exports it
    // does not use is left to the chunks that use it: the catalogue's declarations load with the screens, and the start
    // reads their light index (contract/resources/catalogueIndex.ts).
    rollupOptions: {
      treeshake: { moduleSideEffects: (id: string) => !CONTRACT.test(id) },
      // the console's start in a few scripts, not 31 (scripts/startChunks.ts)
      output: {
        codeSplitting: startChunks({
          entry: here('./src/main.tsx'),
          signIn: here('./src/signin/SignInPage.tsx'),
          console: [here('./src/app/App.tsx'), here('./src/signin/mountConsole.tsx')],
          opening: { screen: here('./src/screens/general/DashboardScreen.tsx'), ownFiles: /[\\/]src[\\/]screens[\\/]general[\\/]/ },
          contract: CONTRACT,
        }),
      },
    },
  },
  server: {
    proxy: Object.fromEntries(proxied.map((p) => [p, { target, ws: true, changeOrigin: true }])),
  },
});
