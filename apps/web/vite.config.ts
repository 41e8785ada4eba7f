import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const here = path.dirname(fileURLToPath(import.meta.url));

// The API (and its health probe) runs on :3000 in development; proxying keeps the browser on one
// origin, the same as production where the API serves the built app.
const apiTarget = 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: {
      // Read the shared contracts from source so the web app never waits for a contracts build.
      '@research/contracts': path.resolve(here, '../../packages/contracts/src/index.ts'),
    },
  },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/healthz': { target: apiTarget, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Every browser we support has modulepreload; the polyfill would only add bytes.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything the entry loads statically goes into one chunk: left alone, the bundler
          // splits modules shared with lazy pages into several small chunks that all load at
          // start anyway, and separate chunks compress worse than one (150 KB gzip budget).
          groups: [{ name: 'app', tags: ['$initial'] }],
        },
      },
      treeshake: {
        // The contracts package only declares constants and zod schemas, nothing runs on import.
        // Saying so lets the bundler drop the schemas (and zod with them) from pages that only
        // read a constant: without it the landing route carries all of zod.
        moduleSideEffects: [{ test: /packages[\\/]contracts[\\/]src[\\/]/, sideEffects: false }],
      },
    },
  },
  test: {
    // Two projects: the API client runs in plain Node against a real HTTP server; components run
    // in jsdom. Playwright specs under e2e/ are not Vitest files, hence the explicit includes.
    projects: [
      {
        extends: true,
        test: { name: 'unit', environment: 'node', include: ['src/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['src/**/*.test.tsx'],
          setupFiles: ['./src/test/setup.ts'],
        },
      },
    ],
  },
});
