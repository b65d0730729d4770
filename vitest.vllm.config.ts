import { defineConfig } from 'vitest/config';

// The real vLLM-Omni server tests (test/vllm-omni/): run in the vLLM environment's CI step, not by `npm test`
// (`npx vitest run --config vitest.vllm.config.ts`). A missing environment fails them; nothing is skipped.
export default defineConfig({
  test: {
    include: ['test/vllm-omni/**/*.vllm.ts'],
    globalSetup: ['test/setup/build.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 300_000,
    hookTimeout: 900_000,
    reporters: ['default'],
  },
});
