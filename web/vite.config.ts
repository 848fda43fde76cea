import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The web app is served by athar's own server from web/dist; `npm run dev:web` proxies the API to it.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, target: 'es2022' },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/log': 'http://127.0.0.1:8080',
      '/healthz': 'http://127.0.0.1:8080',
    },
  },
});
