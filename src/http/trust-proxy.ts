/**
 * `TRUST_PROXY`, read the same way by every service: whom to believe when a request says it
 * was forwarded (`X-Forwarded-For`). Fastify takes the value as its `trustProxy` option.
 */
import { isIP } from 'node:net'
import { SettingError } from '../shared/settings-error'

/** The names `TRUST_PROXY` may hold besides addresses and ranges (connection-limits.ts). */
const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal']

/** Whether `entry` is an address, a range (`address/bits`) or a named range. */
function isProxyEntry(entry: string): boolean {
  if (PROXY_RANGES.includes(entry)) return true
  const [address = '', bits, more] = entry.split('/')
  const version = isIP(address)
  if (version === 0 || more !== undefined) return false
  return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128))
}

/** `TRUST_PROXY`: `true`, or the addresses (comma-separated) of the proxies in front. */
export function trustProxyOf(value: string | undefined): boolean | string | undefined {
  if (!value) return undefined
  if (value === 'true') return true
  if (value === 'false') return false
  const wrong = value.split(',').find((entry) => !isProxyEntry(entry.trim()))
  if (wrong !== undefined) {
    throw new SettingError(
      'TRUST_PROXY',
      `must be true, or the proxies' addresses or ranges, comma-separated; "${wrong.trim()}" is none`,
      `set it to addresses such as 127.0.0.1 or 10.0.0.0/8 (or ${PROXY_RANGES.join(', ')}), or unset it`,
    )
  }
  return value
}
