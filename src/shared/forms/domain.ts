/**
 * What an address's domain must be besides well-formed: a name that can receive mail from us.
 * International labels (`xn--…`) must decode (RFC 3492) to a name that encodes to them again,
 * as IDNA requires; `xn--a` decodes to a control character and names nothing. Names reserved
 * for special use (RFC 6761, RFC 6762, RFC 7686, RFC 8375, RFC 9476, ICANN's `.internal`)
 * reach no mailbox on the Internet: a mail sent there goes nowhere or into someone's local
 * network. Shared by the browser and the forms service, so it uses no Node.js module.
 */

/** Top-level domains that reach no mailbox on the Internet. */
const RESERVED_TOP_LEVEL = new Set([
  'test',
  'example',
  'invalid',
  'localhost',
  'local',
  'onion',
  'internal',
  'alt',
  // The infrastructure's own domain (`home.arpa`, `in-addr.arpa`, …), never a mailbox.
  'arpa',
])

/** True when `domain` (lowercase ASCII) is reserved for special use (see above). */
export function isReservedDomain(domain: string): boolean {
  return RESERVED_TOP_LEVEL.has(domain.slice(domain.lastIndexOf('.') + 1))
}

// RFC 3492's parameters for IDNA.
const BASE = 36
const T_MIN = 1
const T_MAX = 26
const SKEW = 38
const DAMP = 700
const INITIAL_BIAS = 72
const INITIAL_N = 128

function adapt(delta: number, points: number, first: boolean): number {
  let scaled = first ? Math.floor(delta / DAMP) : Math.floor(delta / 2)
  scaled += Math.floor(scaled / points)
  let k = 0
  while (scaled > ((BASE - T_MIN) * T_MAX) / 2) {
    scaled = Math.floor(scaled / (BASE - T_MIN))
    k += BASE
  }
  return k + Math.floor(((BASE - T_MIN + 1) * scaled) / (scaled + SKEW))
}

/** A punycode digit's value: `a`–`z` 0–25, `0`–`9` 26–35; -1 for anything else. */
function digitOf(char: string): number {
  const code = char.charCodeAt(0)
  if (code >= 97 && code <= 122) return code - 97
  if (code >= 48 && code <= 57) return code - 22
  return -1
}

/** The Unicode text of a punycode string (the part after `xn--`); undefined when malformed. */
export function decodePunycode(input: string): string | undefined {
  const delimiter = input.lastIndexOf('-')
  const output =
    delimiter > 0 ? [...input.slice(0, delimiter)].map((c) => c.codePointAt(0) ?? 0) : []
  if (output.some((point) => point >= 0x80)) return undefined
  let n = INITIAL_N
  let bias = INITIAL_BIAS
  let i = 0
  let index = delimiter > 0 ? delimiter + 1 : 0
  while (index < input.length) {
    const old = i
    let weight = 1
    for (let k = BASE; ; k += BASE) {
      if (index >= input.length) return undefined
      const digit = digitOf(input[index++] ?? '')
      if (digit < 0) return undefined
      i += digit * weight
      if (i > 0x10ffff * (output.length + 1)) return undefined
      const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias
      if (digit < t) break
      weight *= BASE - t
    }
    bias = adapt(i - old, output.length + 1, old === 0)
    n += Math.floor(i / (output.length + 1))
    i %= output.length + 1
    if (n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return undefined
    output.splice(i, 0, n)
    i++
  }
  return String.fromCodePoint(...output)
}

/**
 * True when every `xn--` label of `domain` (lowercase ASCII, as the URL parser gives it) is
 * IDNA: it decodes, holds a character beyond ASCII, and the URL parser encodes what it decodes
 * to as the same label again.
 */
export function hasValidLabels(domain: string): boolean {
  for (const label of domain.split('.')) {
    if (!label.startsWith('xn--')) continue
    const decoded = decodePunycode(label.slice(4))
    if (decoded === undefined || ![...decoded].some((char) => (char.codePointAt(0) ?? 0) >= 0x80))
      return false
    try {
      if (new URL(`http://${decoded}`).hostname !== label) return false
    } catch {
      return false
    }
  }
  return true
}
