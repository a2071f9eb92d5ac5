/**
 * Every limit per client counts an IPv6 client in its /64, /56 and /48 at once (finding 8), and
 * one client holds only its share of the connections (finding 9): the server process with
 * clients from real source addresses, 60 /64s of one /56, in a network namespace of the test's
 * own (`unshare -rn`, as any user may on Linux). `tests/support/prefix-clients.ts` runs there.
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  CLIENTS,
  clientAddress,
  ELSEWHERE,
  type PrefixResults,
  SERVER_ADDRESS,
} from '../../support/prefix-clients'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

const ROOT = resolve(import.meta.dirname, '../../..')

/** Runs prefix-clients.ts in a new network namespace with the clients' addresses on `lo`. */
function inNamespace(env: NodeJS.ProcessEnv): Promise<PrefixResults> {
  const addresses = [
    SERVER_ADDRESS,
    ELSEWHERE,
    ...Array.from({ length: CLIENTS }, (_, index) => clientAddress(index + 1)),
  ]
  const setUp = [
    'ip link set lo up',
    ...addresses.map((address) => `ip -6 addr add ${address}/128 dev lo nodad`),
    `exec "${process.execPath}" --import tsx tests/support/prefix-clients.ts`,
  ].join(' && ')
  return new Promise((done, fail) => {
    const child = spawn('unshare', ['-rn', 'sh', '-c', setUp], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.once('exit', (code) => {
      const results = /^RESULTS (.*)$/m.exec(output)?.[1]
      if (results) done(JSON.parse(results) as PrefixResults)
      else fail(new Error(`prefix-clients.ts ended (${code}) without results: ${output}`))
    })
  })
}

/**
 * Whether this machine lets a process make a network namespace of its own: Linux does for any
 * user unless a container's seccomp profile or `user.max_user_namespaces=0` forbids it. Where
 * it refuses, the suite says so and is skipped (the unit tests of `clientGroups` still run).
 */
const namespaces = spawnSync('unshare', ['-rn', 'true'], { encoding: 'utf8' })
const NAMESPACES = namespaces.status === 0
if (!NAMESPACES) {
  console.warn(
    `client-prefixes: skipped, this machine refuses a network namespace (unshare -rn: ${(namespaces.stderr || String(namespaces.error)).trim()})`,
  )
}

describe.skipIf(!NAMESPACES)('clients from many /64s of one /56', () => {
  let scratch: string
  let results: PrefixResults

  beforeAll(async () => {
    scratch = await temporaryFolder('client-prefixes-')
    await mkdir(join(scratch, 'site', 'en'), { recursive: true })
    await writeFile(join(scratch, 'site', 'en', 'index.html'), '<title>English home</title>')
    results = await inNamespace({
      PREFIX_DATA_DIR: join(scratch, 'data'),
      PREFIX_SITE_DIR: join(scratch, 'site'),
    })
  }, 60_000)
  afterAll(async () => {
    if (scratch) await removeFolder(scratch)
  })

  it('hold the /56 to twice the connections of one client (4), one address to 4, and serve others meanwhile', () => {
    expect(results.heldFromPrefix).toBe(8)
    expect(results.heldFromOne).toBe(4)
    expect(results.elsewhere).toBe(200)
  })

  it('hold the /56 to twice the form posts of one client a minute (2), and serve another /48', () => {
    expect(results.forms.slice(0, 4)).not.toContain(429)
    expect(results.forms.slice(4)).toEqual(Array(16).fill(429))
    expect(results.formsElsewhere).not.toBe(429)
  })

  it('hold the /56 to twice the CSP reports of one client a minute (20)', () => {
    expect(results.reports.slice(0, 40)).toEqual(Array(40).fill(204))
    expect(results.reports.slice(40)).toEqual(Array(CLIENTS - 40).fill(429))
  })
})
