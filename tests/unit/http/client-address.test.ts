/** Who a client is for the limits per client, and its network for the shares of a budget. */
import { describe, expect, it } from 'vitest'
import {
  clientGroups,
  clientOf,
  ipv6Groups,
  networkGroups,
  networkOf,
  withinShares,
} from '../../../src/http/client-address'
import { ClientGroupsStore } from '../../../src/http/client-rate-limit'

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

describe('clientGroups and withinShares', () => {
  it.each([
    ['192.0.2.17', [['192.0.2.17', 1]]],
    ['::ffff:192.0.2.17', [['192.0.2.17', 1]]],
    [
      '2001:db8:1:2ab::1',
      [
        ['2001:db8:1:2ab::/64', 1],
        ['2001:db8:1:200::/56', 2],
        ['2001:db8:1::/48', 4],
      ],
    ],
    [
      '2001:0db8:0001:02ff:ffff:ffff:ffff:ffff',
      [
        ['2001:db8:1:2ff::/64', 1],
        ['2001:db8:1:200::/56', 2],
        ['2001:db8:1::/48', 4],
      ],
    ],
    ['unix', [['other:unix', 1]]],
  ])('%s counts in %j', (address, groups) => {
    expect(clientGroups(address).map(({ key, times }) => [key, times])).toEqual(groups)
  })

  it('counts a network for its share of a budget: an IPv4 /24, an IPv6 client’s groups', () => {
    expect(networkGroups('192.0.2.17')).toEqual([{ key: '192.0.2.0/24', times: 1 }])
    expect(networkGroups('::ffff:192.0.2.17')).toEqual([{ key: '192.0.2.0/24', times: 1 }])
    expect(networkGroups('2001:db8:1:2ab::1')).toEqual(clientGroups('2001:db8:1:2ab::1'))
    expect(networkGroups('2001:db8:1:2ab::1')[0]?.key).toBe(networkOf('2001:db8:1:2ab::1'))
  })

  it('holds every group of a client to its share', () => {
    const taken = new Map<string, number>()
    const take = (address: string) => {
      const groups = clientGroups(address)
      if (!withinShares(groups, 3, (key) => taken.get(key) ?? 0)) return false
      for (const { key } of groups) taken.set(key, (taken.get(key) ?? 0) + 1)
      return true
    }
    // One /64: 3. Its /56: 6, whichever /64s. Its /48: 12.
    expect([1, 2, 3, 4].map(() => take('2001:db8:0:1::1'))).toEqual([true, true, true, false])
    expect([2, 3, 4, 5].map((net) => take(`2001:db8:0:${net}::1`))).toEqual([
      true,
      true,
      true,
      false,
    ])
    const otherFifty6s = Array.from({ length: 8 }, (_, index) =>
      take(`2001:db8:0:${(index + 1) * 256}::1`),
    )
    expect(otherFifty6s).toEqual([true, true, true, true, true, true, false, false])
    expect(take('2001:db8:1::1')).toBe(true)
    expect(take('192.0.2.1')).toBe(true)
  })
})

describe('ClientGroupsStore (the forms rate limit)', () => {
  const count = (store: ClientGroupsStore, address: string) =>
    new Promise<number>((done) =>
      store.incr(address, (_error, result) => done(result?.current ?? Number.NaN), 60_000),
    )

  it('counts a request as the most any group of its client has used of its share', async () => {
    const store = new ClientGroupsStore()
    expect(await count(store, '2001:db8:0:1::1')).toBe(1)
    expect(await count(store, '2001:db8:0:1::2')).toBe(2)
    // Another /64 of the /56: its own first, the /56's third (of a share twice as large).
    expect(await count(store, '2001:db8:0:2::1')).toBe(2)
    expect(await count(store, '2001:db8:0:3::1')).toBe(2)
    expect(await count(store, '2001:db8:0:4::1')).toBe(3)
    expect(await count(store, '192.0.2.1')).toBe(1)
    expect(await count(store, '192.0.2.1')).toBe(2)
    expect(store.child()).not.toBe(store)
  })
})
