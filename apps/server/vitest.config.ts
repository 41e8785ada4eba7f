import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const contracts = fileURLToPath(new URL('../../packages/contracts/src/index.ts', import.meta.url));
const sandbox = fileURLToPath(new URL('../sandbox/src/index.ts', import.meta.url));

export default defineConfig({
  resolve: { alias: { '@research/contracts': contracts, '@research/sandbox': sandbox } },
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration files each own a database and a sandbox; two cores run two files at a time.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
