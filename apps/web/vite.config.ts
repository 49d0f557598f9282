import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = 'http://127.0.0.1:3000';
const contractDir = decodeURIComponent(
  new URL('../../packages/contract/', import.meta.url).pathname,
);

export default defineConfig({
  // The API serves dist/ with an SPA fallback, so assets must resolve from the site root.
  base: '/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    rolldownOptions: {
      treeshake: {
        // The shared contract is plain declarations: a module of it that the web app does not
        // use (for example a zod schema file) must not end up in a bundle.
        moduleSideEffects: (id: string) => !id.startsWith(contractDir),
      },
    },
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/v1': { target: apiTarget, changeOrigin: false },
      '/docs': { target: apiTarget, changeOrigin: false },
      '/uploads': { target: apiTarget, changeOrigin: false },
    },
  },
  preview: {
    port: 4173,
    proxy: {
      '/v1': { target: apiTarget, changeOrigin: false },
      '/docs': { target: apiTarget, changeOrigin: false },
      '/uploads': { target: apiTarget, changeOrigin: false },
    },
  },
});
