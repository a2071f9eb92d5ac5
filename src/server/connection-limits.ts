/**
 * How many connections the server takes at once, and whether it is saturated.
 *
 * - At most `MAX_CONNECTIONS`, and never more than the process's file descriptors allow: each
 *   connection may hold two (its socket, and the file of the answer under way: one at a time,
 *   see pipelining.ts), and `DESCRIPTORS_KEPT` are left for everything else (the database, the
 *   publishing service, logs, the files a build or a publication reads). Past the
 *   descriptors, files could no longer be opened: pages failed with 500 while `/readyz` said
 *   ready. The limit is logged at start when the descriptors lower it.
 * - Saturated: as many connections open as the limit, or one refused in the last
 *   `SATURATED_FOR_MS`; `/readyz` then names `connections` (a probe that gets through a moment
 *   later would otherwise say ready while others are turned away).
 */
import { readFileSync } from 'node:fs'
import type { Server } from 'node:http'
import type { FastifyInstance } from 'fastify'
import type { ReadinessCheck } from './health'

/** Descriptors left for what is no connection (about 100 are open at rest). */
export const DESCRIPTORS_KEPT = 256

/** How long after a connection was refused the server still says it is saturated. */
export const SATURATED_FOR_MS = 5_000

/** The soft limit of open files (`RLIMIT_NOFILE`) in `/proc/self/limits`; undefined if none. */
export function descriptorLimit(limits?: string): number | undefined {
  let text = limits
  if (text === undefined) {
    try {
      text = readFileSync('/proc/self/limits', 'utf8')
    } catch {
      // Not Linux: MAX_CONNECTIONS alone.
      return undefined
    }
  }
  const soft = /^Max open files\s+(\S+)/m.exec(text)?.[1]
  const value = Number(soft)
  return Number.isInteger(value) && value > 0 ? value : undefined
}

/** The connections taken at once: `maxConnections`, fewer when `descriptors` are short. */
export function connectionLimit(maxConnections: number, descriptors: number | undefined): number {
  if (descriptors === undefined) return maxConnections
  return Math.max(1, Math.min(maxConnections, Math.floor((descriptors - DESCRIPTORS_KEPT) / 2)))
}

const saturation = new WeakMap<FastifyInstance, () => boolean>()

/**
 * Sets `app`'s connection limit (see above) on `server`; `refused` is called for each
 * connection refused over it. `open()` counts the connections open.
 */
export function limitConnections(
  app: FastifyInstance,
  server: Server,
  maxConnections: number,
  open: () => number,
  refused: () => void,
): void {
  const descriptors = descriptorLimit()
  const limit = connectionLimit(maxConnections, descriptors)
  if (limit < maxConnections) {
    app.log.warn(
      { limit, maxConnections, descriptors },
      'connections limited below MAX_CONNECTIONS by the open files the process may have',
    )
  }
  server.maxConnections = limit
  let refusedAt = Number.NEGATIVE_INFINITY
  server.on('drop', () => {
    refusedAt = Date.now()
    refused()
  })
  saturation.set(app, () => open() >= limit || Date.now() - refusedAt < SATURATED_FOR_MS)
}

/** `/readyz`'s check `connections`: fails while `app` is saturated (see above). */
export function connectionsCheck(app: FastifyInstance): ReadinessCheck {
  return {
    name: 'connections',
    check: async () => {
      if (saturation.get(app)?.()) throw new Error('connections saturated')
    },
  }
}
