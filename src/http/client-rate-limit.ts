/**
 * The store of `@fastify/rate-limit` for limits per client: its key is the client's address
 * (`keyGenerator: (request) => request.ip`), counted in each of the client's groups (an IPv4
 * address; an IPv6 /64, /56 and /48, see client-address.ts) in fixed windows. A request's count
 * is the most any of its groups has used of its share, so that the plugin refuses it once one
 * of them is past it: the 21st request of a minute from twenty /64s of one /56, at 10 per
 * client, as the 11th from one /64. Kept in memory, per process, as the plugin's own store.
 */
import { clientGroups } from './client-address'

/** How many windows are kept before the ended ones are forgotten. */
const KEPT_WINDOWS = 10_000

interface Window {
  count: number
  start: number
}

type Done = (error: Error | null, result?: { current: number; ttl: number }) => void

export class ClientGroupsStore {
  readonly #windows = new Map<string, Window>()

  /** What the plugin reads: the count of `ip`'s request (see above), and its window's rest. */
  incr(ip: string, done: Done, timeWindow: number): void {
    done(null, this.#count(ip, timeWindow, 1))
  }

  /** The same without counting a request (the plugin's `increment: false`). */
  read(ip: string, done: Done, timeWindow: number): void {
    done(null, this.#count(ip, timeWindow, 0))
  }

  /** A store of a route's own. */
  child(): ClientGroupsStore {
    return new ClientGroupsStore()
  }

  #count(ip: string, timeWindow: number, add: number) {
    const now = Date.now()
    if (this.#windows.size > KEPT_WINDOWS) {
      for (const [key, window] of this.#windows) {
        if (window.start + timeWindow <= now) this.#windows.delete(key)
      }
    }
    let current = 0
    let ttl = 0
    for (const group of clientGroups(ip)) {
      let window = this.#windows.get(group.key)
      if (!window || window.start + timeWindow <= now) {
        window = { count: 0, start: now }
        if (add > 0) this.#windows.set(group.key, window)
      }
      window.count += add
      const used = Math.ceil(window.count / group.times)
      if (used >= current) {
        current = used
        ttl = window.start + timeWindow - now
      }
    }
    return { current, ttl }
  }
}
