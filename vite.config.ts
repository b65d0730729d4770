import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/** The FFT's Emscripten loader names Node's `module` on a path pages never take (renderer/node-module-stub.ts). */
const browserResolve = { alias: [{ find: /^module$/, replacement: `${root}renderer/node-module-stub.ts` }] };

/**
 * Three builds: the renderer (default mode) into dist/renderer; with `--mode preload` the Electron
 * preload as one self-contained CommonJS file (dist/preload/preload.cjs), because a sandboxed preload
 * can require nothing but 'electron'; with `--mode report` the page of report.html as one script and
 * one stylesheet (dist/report-page), which electron/host/report-html inlines into every report.html.
 */
const reportPage = {
  plugins: [react()],
  resolve: browserResolve,
  // Library mode keeps process.env.NODE_ENV as written; the page ships React's production build.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: `${root}dist/report-page`,
    emptyOutDir: true,
    sourcemap: false,
    lib: { entry: `${root}renderer/report/report-page.tsx`, formats: ['iife' as const], name: 'parityReportPage', fileName: () => 'report-page.js', cssFileName: 'report-page' },
  },
};

export default defineConfig(({ mode }) =>
  mode === 'report'
    ? reportPage
    : mode === 'preload'
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
        resolve: browserResolve,
        // One ~570 kB script (190 kB gzipped) read from disk or loopback once per window: splitting it would
        // only add requests, so the warning's 500 kB web-page budget does not apply.
        build: { outDir: `${root}dist/renderer`, emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 800 },
      },
);
