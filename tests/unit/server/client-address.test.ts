/** Who a client is for the limits per client, and its network for the shares of a budget. */
import { describe, expect, it } from 'vitest'
import { clientOf, ipv6Groups, networkOf } from '../../../src/server/client-address'

describe('clientOf and networkOf', () => {
  it.each([
    // [address, client, network]
    ['192.0.2.17', '192.0.2.17', '192.0.2.0/24'],
    ['192.0.2.200', '192.0.2.200', '192.0.2.0/24'],
    ['127.0.0.1', '127.0.0.1', '127.0.0.0/24'],
    // What a dual-stack socket reports for an IPv4 client is that client.
    ['::ffff:192.0.2.17', '192.0.2.17', '192.0.2.0/24'],
    ['::FFFF:c000:0211', '192.0.2.17', '192.0.2.0/24'],
    ['0:0:0:0:0:ffff:192.0.2.9', '192.0.2.9', '192.0.2.0/24'],
    // Every address of one /64 is one client, however it is written.
    ['2001:db8:1:2::1', '2001:db8:1:2::/64', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:0:0:0:abcd', '2001:db8:1:2::/64', '2001:db8:1:2::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64', '0:0:0:0::/64'],
    ['2001:db8::', '2001:db8:0:0::/64', '2001:db8:0:0::/64'],
    // An address with an IPv4 tail that is not mapped is IPv6.
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64', '64:ff9b:0:0::/64'],
  ])('%s is the client %s in the network %s', (address, client, network) => {
    expect(clientOf(address)).toBe(client)
    expect(networkOf(address)).toBe(network)
  })

  it('tells the /64s next to each other apart', () => {
    expect(clientOf('2001:db8:1:2::1')).not.toBe(clientOf('2001:db8:1:3::1'))
    expect(networkOf('2001:db8:1:2::1')).not.toBe(networkOf('2001:db8:1:3::1'))
    expect(networkOf('192.0.2.1')).not.toBe(networkOf('192.0.3.1'))
  })

  it('keeps whatever is no address apart from every address, cut short', () => {
    expect(clientOf('unix-socket')).toBe('other:unix-socket')
    expect(networkOf('x'.repeat(500))).toHaveLength(70)
  })

  it('reads the groups of an IPv6 address', () => {
    expect(ipv6Groups('1::8')).toEqual([1, 0, 0, 0, 0, 0, 0, 8])
    expect(ipv6Groups('::')).toEqual([0, 0, 0, 0, 0, 0, 0, 0])
    expect(ipv6Groups('192.0.2.1')).toBeUndefined()
  })
})
