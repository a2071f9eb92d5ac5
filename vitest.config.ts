import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Vitest's default leaves one core free, which is one worker on a 2-core machine: the
    // files wait on processes, sockets and databases (each service in a schema of its own)
    // more than they compute, so two at a time take about 110 s instead of 165 s there.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
})
