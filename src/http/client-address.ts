/**
 * Who a client is, for the limits per client (the forms' rate limits, the CSP reports), and
 * which network it is in, for a client's share of a budget shared by everyone (the
 * confirmation mails). The address is the connection's, or the forwarded one behind a trusted
 * proxy (`TRUST_PROXY`), as Fastify's `request.ip` gives it.
 *
 * - A client is an IPv4 address, or an IPv6 /64: one line's prefix, from which a host takes
 *   any of 2^64 addresses at will (privacy extensions pick a new one every day anyway).
 * - A network is an IPv4 /24, or the same IPv6 /64.
 * - An IPv4 address written as IPv6 (`::ffff:192.0.2.1`, what a dual-stack socket reports for
 *   an IPv4 client) is that IPv4 address.
 * - A limit per client counts an IPv6 client in its /64, its /56 and its /48 at once, each
 *   with a larger share (`IPV6_SHARES`): whoever holds a /48 (or a /56: what a provider gives
 *   a home) has 65,536 (256) /64s to pick from, and was counted as that many clients.
 *   `clientGroups` says where a client counts, `withinShares` whether it may take one more;
 *   every limit per client uses them (the forms' rate limits, the CSP reports, connections).
 */
import { isIPv4, isIPv6 } from 'node:net'

/** The eight 16-bit groups of an IPv6 address (a zone `%eth0` ignored); undefined for others. */
export function ipv6Groups(ip: string): number[] | undefined {
  const address = ip.split('%')[0] ?? ''
  if (!isIPv6(address)) return undefined
  // A dotted IPv4 tail (`::ffff:192.0.2.1`) is two groups.
  const text = address.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_all, a, b, c, d) =>
    [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)]
      .map((group) => group.toString(16))
      .join(':'),
  )
  const groupsOf = (part: string) => (part ? part.split(':').map((hex) => parseInt(hex, 16)) : [])
  const [head = '', tail] = text.split('::')
  const left = groupsOf(head)
  if (tail === undefined) return left
  const right = groupsOf(tail)
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right]
}

/** The IPv4 address an IPv4-mapped IPv6 address (`::ffff:0:0/96`) stands for. */
function mappedIPv4(groups: number[]): string | undefined {
  if (groups.slice(0, 5).some((group) => group !== 0) || groups[5] !== 0xffff) return undefined
  const [high = 0, low = 0] = groups.slice(6)
  return [high >> 8, high & 255, low >> 8, low & 255].join('.')
}

const prefix64 = (groups: number[]) =>
  `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`

/** An IPv4 address, or an IPv6 address's own IPv4 (mapped) or /64. */
function parse(ip: string): { v4: string } | { v6: string } | undefined {
  if (isIPv4(ip)) return { v4: ip }
  const groups = ipv6Groups(ip)
  if (!groups) return undefined
  const v4 = mappedIPv4(groups)
  return v4 ? { v4 } : { v6: prefix64(groups) }
}

/** Whatever a socket reports that is no address at all, cut short (it becomes a key). */
const other = (ip: string) => `other:${ip.slice(0, 64)}`

/** The client, for a limit per client: an IPv4 address, or an IPv6 address's /64. */
export function clientOf(ip: string): string {
  const parsed = parse(ip)
  if (!parsed) return other(ip)
  return 'v4' in parsed ? parsed.v4 : parsed.v6
}

/** The client's network, for a share of a budget: an IPv4 address's /24, an IPv6's /64. */
export function networkOf(ip: string): string {
  const parsed = parse(ip)
  if (!parsed) return other(ip)
  return 'v4' in parsed ? `${parsed.v4.replace(/\.\d+$/, '.0')}/24` : parsed.v6
}

/**
 * The IPv6 prefixes a client counts in, each with how many times a client's limit it may
 * take: its own /64 once, the /56 around it twice, the /48 four times.
 */
export const IPV6_SHARES = [
  { bits: 64, times: 1 },
  { bits: 56, times: 2 },
  { bits: 48, times: 4 },
] as const

/** One place a client counts in for a limit per client: its key, and its share in clients. */
export interface ClientGroup {
  key: string
  times: number
}

/** An IPv6 address's prefix of `bits` (a multiple of 8 up to 64), as `2001:db8:1:200::/56`. */
function prefixOf(groups: number[], bits: number): string {
  const kept = groups.slice(0, Math.ceil(bits / 16)).map((group, index) => {
    const room = bits - index * 16
    return room >= 16 ? group : group & (0xffff << (16 - room)) & 0xffff
  })
  return `${kept.map((group) => group.toString(16)).join(':')}::/${bits}`
}

/**
 * Where a client counts for a limit per client: an IPv4 address alone (many people may share
 * one network behind a provider's NAT), an IPv6 client in each of `IPV6_SHARES`.
 */
export function clientGroups(ip: string): ClientGroup[] {
  if (isIPv4(ip)) return [{ key: ip, times: 1 }]
  const groups = ipv6Groups(ip)
  if (!groups) return [{ key: other(ip), times: 1 }]
  const v4 = mappedIPv4(groups)
  if (v4) return [{ key: v4, times: 1 }]
  return IPV6_SHARES.map(({ bits, times }) => ({ key: prefixOf(groups, bits), times }))
}

/**
 * Whether a client counted in `groups` may take one more of a limit of `limit` per client,
 * each group having taken `taken(key)`: not once any group has taken its share.
 */
export function withinShares(
  groups: readonly ClientGroup[],
  limit: number,
  taken: (key: string) => number,
): boolean {
  return groups.every((group) => taken(group.key) < limit * group.times)
}

/**
 * Where a client's network counts for its share of a budget shared by everyone (the
 * confirmation mails): an IPv4 address's /24 alone, an IPv6 client's groups as for the limits
 * per client (its /64, /56 and /48, with their larger shares).
 */
export function networkGroups(ip: string): ClientGroup[] {
  const parsed = parse(ip)
  if (parsed && 'v4' in parsed) return [{ key: networkOf(ip), times: 1 }]
  return clientGroups(ip)
}
