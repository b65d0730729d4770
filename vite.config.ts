import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Two builds: the renderer (default mode) into dist/renderer, and with `--mode preload` the Electron
 * preload as one self-contained CommonJS file (dist/preload/preload.cjs), because a sandboxed preload
 * can require nothing but 'electron'.
 */
export default defineConfig(({ mode }) =>
  mode === 'preload'
    ? {
        build: {
          outDir: `${root}dist/preload`,
          emptyOutDir: true,
          minify: false,
          sourcemap: false,
          lib: { entry: `${root}electron/preload/preload.ts`, formats: ['cjs'], fileName: () => 'preload.cjs' },
          rollupOptions: { external: ['electron'] },
        },
      }
    : {
        root: `${root}renderer`,
        // Relative asset URLs: the same build is served at app://studio/ (Electron) and http://127.0.0.1:N/.
        base: './',
        plugins: [react()],
        build: { outDir: `${root}dist/renderer`, emptyOutDir: true, sourcemap: true },
      },
);
