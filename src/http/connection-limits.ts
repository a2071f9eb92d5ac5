/**
 * How many connections the server takes at once, and whether it is saturated.
 *
 * - At most `MAX_CONNECTIONS`, and never more than the process's file descriptors allow: each
 *   connection may hold two (its socket, and the file of the answer under way: one at a time,
 *   see pipelining.ts), and `DESCRIPTORS_KEPT` are left for everything else (the database, the
 *   publishing service, logs, the files a build or a publication reads). Past the
 *   descriptors, files could no longer be opened: pages failed with 500 while `/readyz` said
 *   ready. The limit is logged at start when the descriptors lower it.
 * - At most `MAX_CONNECTIONS_PER_CLIENT` from one client (counted in its groups, an IPv6 one
 *   in its /64, /56 and /48 with their larger shares: see client-address.ts), so that one
 *   client cannot hold them all: its further connections are closed at once (logged at most
 *   once a minute). Not the connections of a trusted proxy (`TRUST_PROXY`): behind one, every
 *   connection is the proxy's, and the proxy limits its clients' (see deploying.md).
 * - Saturated: as many connections open as the limit, or one refused in the last
 *   `SATURATED_FOR_MS`; `/readyz` then names `connections` (a probe that gets through a moment
 *   later would otherwise say ready while others are turned away).
 */
import { readFileSync } from 'node:fs'
import type { Server } from 'node:http'
import { BlockList, isIPv4, isIPv6, type Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { clientGroups, withinShares } from './client-address'
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

/** The ranges `TRUST_PROXY` may name as proxy-addr (Fastify's) does. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
}

/**
 * Whether an address is a proxy's trusted by `trustProxy` (Fastify's option: `true` trusts
 * every address; a string, addresses and ranges, comma-separated, or the names above).
 */
export function trustedProxies(trustProxy: boolean | string | undefined): (ip: string) => boolean {
  if (trustProxy === true) return () => true
  if (!trustProxy) return () => false
  const list = new BlockList()
  for (const entry of trustProxy
    .split(',')
    .flatMap((item) => NAMED_RANGES[item.trim()] ?? [item.trim()])) {
    const [address = '', bits] = entry.split('/')
    const type = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : undefined
    if (!type) continue
    if (bits === undefined) list.addAddress(address, type)
    else list.addSubnet(address, Number(bits), type)
  }
  return (ip) => {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1]
    const address = mapped ?? ip
    return list.check(address, isIPv4(address) ? 'ipv4' : 'ipv6')
  }
}

/**
 * Holds each client to `perClient` connections at once (see above): a connection over it is
 * closed at once, and `refused` called; `trusted(ip)` says whose are not counted.
 */
export function limitPerClient(
  server: Server,
  perClient: number,
  trusted: (ip: string) => boolean,
  refused: () => void,
): void {
  const open = new Map<string, number>()
  const taken = (key: string) => open.get(key) ?? 0
  server.on('connection', (socket: Socket) => {
    const ip = socket.remoteAddress
    if (ip === undefined || trusted(ip)) return
    const groups = clientGroups(ip)
    if (!withinShares(groups, perClient, taken)) {
      socket.destroy()
      refused()
      return
    }
    for (const group of groups) open.set(group.key, taken(group.key) + 1)
    socket.once('close', () => {
      for (const group of groups) {
        const left = taken(group.key) - 1
        if (left > 0) open.set(group.key, left)
        else open.delete(group.key)
      }
    })
  })
}
