import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const target = `http://127.0.0.1:${process.env.PORT ?? 8080}`;
const proxied = ['/idp', '/event', '/central', '/api', '/MyKad', '/report', '/visitor', '/batch', '/video', '/ws'];

export default defineConfig({
  plugins: [react()],
  // sockjs-client reads a Node `global` (TOOLCHAIN.md)
  define: { global: 'globalThis' },
  build: { outDir: 'dist', chunkSizeWarningLimit: 2000 },
  server: {
    proxy: Object.fromEntries(proxied.map((p) => [p, { target, ws: true, changeOrigin: true }])),
  },
});
