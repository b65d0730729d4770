import { defineConfig } from 'vitest/config';

// The real vLLM-Omni server tests (test/vllm-omni/*.vllm.ts): two `vllm-omni serve` deployments started once per
// run by servers-setup.ts and shared by every file (one file at a time: a server's trace pickup needs one request
// at a time). `node scripts/test.js` runs them after the vLLM-Omni pytest suite, which builds .venv-vllm and the
// tiny model; `npx vitest run --config vitest.vllm.config.ts` alone builds the model if missing. A missing
// environment or a server that does not come up fails them; nothing is skipped.
export default defineConfig({
  test: {
    include: ['test/vllm-omni/**/*.vllm.ts'],
    globalSetup: ['test/vllm-omni/servers-setup.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
