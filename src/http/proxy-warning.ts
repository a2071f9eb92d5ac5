/**
 * A service behind a proxy it was not told of counts every visitor as the proxy: the limits
 * per client (the forms', the CSP reports') become one limit for everyone, and the 11th
 * visitor of a minute is turned away, with nothing said. When `TRUST_PROXY` is unset and a
 * request comes forwarded (`X-Forwarded-For`) from a loopback or private address, where a
 * proxy of the bank's stands, the service says so once, naming the setting to make.
 * A forwarded request from a public address is no sign of a proxy of ours: anyone may send
 * the header.
 */
import { BlockList, isIPv4 } from 'node:net'
import type { FastifyInstance } from 'fastify'

/** Loopback, private (RFC 1918, RFC 4193), shared (RFC 6598) and link-local networks. */
const NEARBY = new BlockList()
for (const [network, prefix] of [
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
] as const) {
  NEARBY.addSubnet(network, prefix, 'ipv4')
}
NEARBY.addAddress('::1', 'ipv6')
NEARBY.addSubnet('fc00::', 7, 'ipv6')
NEARBY.addSubnet('fe80::', 10, 'ipv6')

/** A loopback, private or link-local address (an IPv4 one written as IPv6 too). */
export function isNearbyAddress(ip: string): boolean {
  try {
    return NEARBY.check(ip, isIPv4(ip) ? 'ipv4' : 'ipv6')
  } catch {
    return false
  }
}

/**
 * With no `TRUST_PROXY` (`trustProxy` undefined; `false` is an operator's choice), logs one
 * warning at the first request forwarded from a nearby address.
 */
export function warnOfUntrustedProxy(
  app: FastifyInstance,
  trustProxy: boolean | string | undefined,
): void {
  if (trustProxy !== undefined) return
  let warned = false
  app.addHook('onRequest', async (request) => {
    if (warned || request.headers['x-forwarded-for'] === undefined) return
    const proxy = request.socket.remoteAddress ?? ''
    if (!isNearbyAddress(proxy)) return
    warned = true
    request.log.warn(
      { proxy },
      `requests come through a proxy, but TRUST_PROXY is unset: every visitor counts as the proxy for the limits per client; set TRUST_PROXY=${proxy.replace(/^::ffff:(?=\d)/, '')}`,
    )
  })
}
