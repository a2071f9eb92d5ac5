import { defineConfig } from 'vitest/config'

/**
 * The image and the Kubernetes manifests under podman (`tests/containers/`): one file at a
 * time, as they share the image, the volume and the host's ports.
 */
export default defineConfig({
  test: {
    include: ['tests/containers/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 900_000,
  },
})
