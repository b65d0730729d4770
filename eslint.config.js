// Flat config: typescript-eslint's recommended rules plus the layering of docs/architecture.md — imports
// point down only: common <- engine <- host <- server <- cli, host <- main; preload and renderer see common.
// Every folder under electron/ and renderer/ has its block (test/unit/lint-layers.test.ts plants a bad
// import in each and expects the refusal).
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'child_process', 'worker_threads', 'crypto', 'url'];
const above = { engine: '**/engine/**', host: '**/host/**', server: '**/server/**', cli: '**/cli/**', main: '**/main/**', preload: '**/preload/**', renderer: '**/renderer/**' };

/**
 * One block per layer: `forbidden` are the modules (exact names) and folders (globs) that layer may not
 * import. Exact names go to `paths`: as a gitignore-style pattern, "electron" would match the electron/ folder.
 */
function layer(files, forbidden, why, ignores = []) {
  const message = `Bad layering: ${why}`;
  const globs = forbidden.filter((f) => f.includes('*'));
  const names = forbidden.filter((f) => !f.includes('*'));
  return {
    files,
    ignores,
    rules: {
      'no-restricted-imports': ['error', { paths: names.map((name) => ({ name, message })), patterns: [{ group: globs, message }] }],
    },
  };
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'assets/**', 'test-results/**', 'native/build/**', '.venv/**', '.venv-*/**', 'rust/target/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  layer(
    ['electron/common/**/*.ts'],
    [...nodeBuiltins, 'electron', 'onnxruntime-node', above.engine, above.host, above.server, above.cli, above.main, above.preload, above.renderer],
    'common imports nothing of Node, DOM, Electron or the layers above it',
  ),
  layer(
    ['electron/engine/**/*.ts'],
    ['electron', 'onnxruntime-node', above.host, above.server, above.cli, above.main, above.preload, above.renderer],
    'engine may import common and Node; onnxruntime-node only in ort-session.ts (and its loader ort-environment.ts)',
    ['electron/engine/ort-session.ts', 'electron/engine/ort-environment.ts'],
  ),
  layer(
    ['electron/engine/ort-session.ts', 'electron/engine/ort-environment.ts'],
    ['electron', above.host, above.server, above.cli, above.main, above.preload, above.renderer],
    'engine may import common, Node and onnxruntime-node only',
  ),
  layer(
    ['electron/host/**/*.ts'],
    ['electron', 'onnxruntime-node', above.server, above.cli, above.main, above.preload, above.renderer],
    'host may import common and engine only (onnxruntime-node only through the engine)',
  ),
  layer(
    ['electron/server/**/*.ts'],
    ['electron', 'onnxruntime-node', above.cli, above.main, above.preload, above.renderer],
    'server may import common, engine and host only',
  ),
  layer(
    ['electron/cli/**/*.ts'],
    ['electron', 'onnxruntime-node', above.main, above.preload, above.renderer],
    'cli may import common, engine, host and server only',
  ),
  layer(
    ['electron/main/**/*.ts'],
    ['onnxruntime-node', above.engine, above.server, above.cli, above.preload, above.renderer],
    'main may import common, host and Electron only',
  ),
  layer(
    ['electron/preload/**/*.ts'],
    [...nodeBuiltins, 'onnxruntime-node', above.engine, above.host, above.server, above.cli, above.main, above.renderer],
    'preload imports only common and Electron',
  ),
  layer(
    ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    [...nodeBuiltins, 'electron', 'onnxruntime-node', above.engine, above.host, above.server, above.cli, above.main, above.preload],
    'renderer imports only common',
  ),
);
