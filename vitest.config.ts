import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Vitest's default leaves one core free, which is one worker on a 2-core machine. The files
    // wait on processes, sockets and databases (each service in a schema of its own) as much as
    // they compute: on 2 cores, two workers left the cores 30 % idle for the last minute and a
    // half (244 s); three keep them busy (200 s).
    maxWorkers: Math.max(3, availableParallelism()),
  },
})
