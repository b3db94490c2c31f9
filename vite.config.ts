import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** `@/…` is web/, `@contract/…` is contract/ (tsconfig.json `paths` says the same to tsc). */
export const aliases = [
  { find: /^@\//, replacement: fileURLToPath(new URL('./web/', import.meta.url)) },
  { find: /^@contract\//, replacement: fileURLToPath(new URL('./contract/', import.meta.url)) },
];

export default defineConfig({
  plugins: [react()],
  resolve: { alias: aliases },
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    // No inline module-preload polyfill: the CSP allows only same-origin scripts.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1500,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:3000',
      '/auth': 'http://localhost:3000',
      '/files': 'http://localhost:3000',
      '/dev': 'http://localhost:3000',
    },
  },
});
