import { defineConfig } from 'vitest/config'

/** The cross-engine scenarios (`tests/engines/`): one file, the engines one after another. */
export default defineConfig({
  test: {
    include: ['tests/engines/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 300_000,
  },
})
