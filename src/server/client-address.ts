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
