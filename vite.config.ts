import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { blueprintIcons, precompress } from './scripts/vitePlugins.ts';

const target = `http://127.0.0.1:${process.env.PORT ?? 8080}`;
const proxied = ['/idp', '/event', '/central', '/api', '/MyKad', '/report', '/visitor', '/batch', '/video', '/ws'];

export default defineConfig({
  // the icons the console names go into the bundle (not Blueprint's 300 KB chunk of all of them); brotli and gzip
  // copies of the build are written once, here, and sent as they are (issue 10)
  plugins: [react(), blueprintIcons(['src', 'contract']), precompress()],
  // sockjs-client reads a Node `global` (TOOLCHAIN.md)
  define: { global: 'globalThis' },
  build: { outDir: 'dist', chunkSizeWarningLimit: 2000 },
  server: {
    proxy: Object.fromEntries(proxied.map((p) => [p, { target, ws: true, changeOrigin: true }])),
  },
});
