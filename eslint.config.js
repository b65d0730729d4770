// Flat config: typescript-eslint's recommended rules plus the layering of DESIGN.md —
// imports point down only (common <- engine <- host <- main/cli/server; preload and renderer see common).
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'child_process', 'worker_threads', 'crypto', 'url'];

/** One block per layer: `forbidden` are import patterns that layer may not use. */
function layer(files, forbidden, why) {
  return {
    files,
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: forbidden, message: `Bad layering: ${why}` }] }],
    },
  };
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'assets/**', 'test-results/**', 'native/build/**', '.venv/**', 'rust/target/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  layer(
    ['electron/common/**/*.ts'],
    [...nodeBuiltins, 'electron', 'onnxruntime-node', '**/engine/**', '**/host/**', '**/cli/**', '**/server/**', '**/main/**'],
    'common imports nothing of Node, DOM, Electron or the layers above it',
  ),
  layer(
    ['electron/engine/**/*.ts'],
    ['electron', '**/host/**', '**/cli/**', '**/server/**', '**/main/**', '**/renderer/**'],
    'engine may import common, Node and onnxruntime-node only',
  ),
  layer(
    ['electron/host/**/*.ts'],
    ['electron', '**/cli/**', '**/server/**', '**/main/**', '**/renderer/**'],
    'host may import common and engine only',
  ),
  layer(
    ['electron/preload/**/*.ts', 'renderer/**/*.ts', 'renderer/**/*.tsx'],
    [...nodeBuiltins, 'onnxruntime-node', '**/engine/**', '**/host/**', '**/cli/**', '**/server/**', '**/main/**'],
    'preload and renderer import only common',
  ),
);
