/**
 * The forms service (its own process, as `npm start` runs it) behind Debian's nginx with the
 * block `npm run nginx-config` writes: with the TRUST_PROXY the block names, each visitor has
 * limits of its own and none can name itself another; without, the service says once that it
 * counts every visitor as nginx.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isNearbyAddress } from '../../../src/http/proxy-warning'
import { EMPTY_POLICY, SITE_POLICY_FILE } from '../../../src/shared/http-headers'
import { type ServerProcess, spawnFormsServer, stopFormsServer, until } from '../../support/forms'
import { freePort } from '../../support/free-port'
import { type NginxServer, nginxInstalled, startNginx } from '../../support/nginx'
import { rawRequest, sendRaw } from '../../support/raw-http'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

/** Form posts a client may send a minute, here. */
const LIMIT = 3
/** A service process takes seconds to start, more on two busy cores. */
const START_MS = 90_000

/** The service behind nginx, with its log lines as they come. */
async function behindNginx(folder: string, name: string, env: NodeJS.ProcessEnv) {
  const service = await spawnFormsServer({
    DATA_DIR: join(folder, name),
    DATABASE_URL: '',
    SMTP_URL: '',
    FORMS_RATE_LIMIT: String(LIMIT),
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    ...env,
  })
  const lines: { level: number; msg: string }[] = []
  let rest = ''
  service.child.stdout?.on('data', (chunk: Buffer) => {
    const text = rest + chunk.toString()
    const complete = text.split('\n')
    rest = complete.pop() ?? ''
    for (const line of complete) if (line.startsWith('{')) lines.push(JSON.parse(line))
  })
  const nginx = await startNginx({
    root: folder,
    port: await freePort(),
    api: new URL(service.origin).host,
    scratch: join(folder, `${name}-nginx`),
  })
  /** A form post through nginx from `localAddress`, perhaps with an X-Forwarded-For of its own. */
  const post = async (localAddress: string, forwardedFor?: string) =>
    (
      await sendRaw(
        { port: Number(new URL(nginx.origin).port), localAddress },
        rawRequest(
          'POST',
          '/api/forms/no-such-form',
          {
            'content-type': 'application/json',
            'content-length': '2',
            ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
          },
          '{}',
        ),
      )
    ).status
  return { service, nginx, lines, post }
}

describe.skipIf(!nginxInstalled())('the forms service behind the nginx block', () => {
  let folder = ''
  const running: { service: ServerProcess; nginx: NginxServer }[] = []

  beforeAll(async () => {
    folder = await temporaryFolder('proxy-warning-')
    await writeFile(join(folder, SITE_POLICY_FILE), JSON.stringify(EMPTY_POLICY))
  })

  afterAll(async () => {
    for (const { service, nginx } of running) {
      await nginx.stop()
      await stopFormsServer(service)
    }
    await removeFolder(folder)
  })

  it(
    'counts each visitor on its own with TRUST_PROXY=127.0.0.1, as the block says',
    async () => {
      const behind = await behindNginx(folder, 'trusting', { TRUST_PROXY: '127.0.0.1' })
      running.push(behind)
      for (let index = 0; index < LIMIT; index++) {
        expect(await behind.post('127.0.0.2')).toBe(404)
      }
      expect(await behind.post('127.0.0.2')).toBe(429)
      // Another visitor is not held to the first one's limit.
      expect(await behind.post('127.0.0.3')).toBe(404)
      // A visitor who names itself another each time is still itself: nginx writes the address
      // it saw, whatever the visitor sent (appended, a visitor on nginx's own host, which the
      // service trusts, was whoever it said).
      const statuses: number[] = []
      for (let index = 0; index <= LIMIT; index++) {
        statuses.push(await behind.post('127.0.0.1', `198.51.100.${index + 1}`))
      }
      expect(statuses.at(-1)).toBe(429)
      expect(behind.lines.filter((line) => line.level >= 40)).toEqual([])
    },
    START_MS,
  )

  it(
    'says once, without TRUST_PROXY, that it counts every visitor as nginx',
    async () => {
      const behind = await behindNginx(folder, 'unaware', {})
      running.push(behind)
      expect(await behind.post('127.0.0.2')).toBe(404)
      expect(await behind.post('127.0.0.3')).toBe(404)
      expect(await behind.post('127.0.0.4')).toBe(404)
      // Each post is logged when answered: the three lines are the sign that all were seen.
      await until(
        async () => behind.lines.filter((line) => line.msg === 'request completed').length >= 3,
      )
      const warnings = behind.lines.filter((line) => line.level >= 40)
      expect(warnings).toHaveLength(1)
      expect(warnings[0]?.msg).toContain('TRUST_PROXY=127.0.0.1')
    },
    START_MS,
  )
})

describe('isNearbyAddress', () => {
  it('takes loopback, private and link-local addresses for a proxy of ours, no public one', () => {
    const nearby = ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1', '10.1.2.3', '172.16.0.1']
    const more = [
      '192.168.1.1',
      '100.64.0.1',
      '169.254.1.1',
      'fd00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
    ]
    for (const ip of [...nearby, ...more]) expect(isNearbyAddress(ip), ip).toBe(true)
    const far = [
      '8.8.8.8',
      '172.32.0.1',
      '2001:db8::1',
      '::ffff:198.51.100.1',
      'not an address',
      '',
    ]
    for (const ip of far) expect(isNearbyAddress(ip), ip).toBe(false)
  })
})
