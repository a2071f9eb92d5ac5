/**
 * The Prometheus files in `deploy/prometheus/`, checked by Prometheus's own `promtool`: the alert
 * rules load, the example configuration loads them, and every alert fires and stays quiet as
 * `alerts.test.yml` says. CI installs Debian's `prometheus`, which brings `promtool`, so there a
 * missing one fails; elsewhere these tests are skipped, saying how to install it.
 */
import { execFile, spawnSync } from 'node:child_process'
import { copyFile, mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

const run = promisify(execFile)
const DEPLOY = resolve(import.meta.dirname, '../../../deploy/prometheus')
const PROMTOOL = process.env.PROMTOOL_PATH || 'promtool'
const INSTALL =
  'apt-get install --no-install-recommends prometheus (Debian), or set PROMTOOL_PATH to one'
const installed = spawnSync(PROMTOOL, ['--version'], { stdio: 'ignore' }).status === 0

/** promtool's output, or its output in the error when it exits with a failure. */
async function promtool(...args: string[]): Promise<string> {
  try {
    const { stdout, stderr } = await run(PROMTOOL, args, { cwd: DEPLOY })
    return stdout + stderr
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string }
    throw new Error(`promtool ${args.join(' ')} failed:\n${stdout}${stderr}`)
  }
}

describe('the Prometheus rules and configuration in deploy/prometheus/', () => {
  beforeEach((context) => {
    if (installed) return
    if (process.env.CI)
      throw new Error(`CI must check the alerts, but promtool is missing: ${INSTALL}`)
    context.skip(`promtool is missing: ${INSTALL}`)
  })

  it('loads the alert rules', async () => {
    expect(await promtool('check', 'rules', 'alerts.yml')).toMatch(/SUCCESS: \d+ rules found/)
  })

  it('fires every alert, and only, when its unit tests say', async () => {
    expect(await promtool('test', 'rules', 'alerts.test.yml')).toContain('SUCCESS')
  })

  describe('the example configuration', () => {
    // promtool requires the token files it names; the example reads them beside itself, as
    // an installed copy (`/etc/prometheus/secrets/…`) would.
    let folder: string
    beforeAll(async () => {
      folder = await temporaryFolder('prometheus-config-')
      for (const file of ['prometheus.yml', 'alerts.yml']) {
        await copyFile(join(DEPLOY, file), join(folder, file))
      }
      await mkdir(join(folder, 'secrets'))
      await writeFile(join(folder, 'secrets', 'publishing-metrics-token'), `${'0'.repeat(64)}\n`)
    })
    afterAll(async () => {
      if (folder) await removeFolder(folder)
    })

    it('loads, with the alert rules', async () => {
      const output = await promtool('check', 'config', join(folder, 'prometheus.yml'))
      expect(output).toMatch(/SUCCESS: 1 rule files found/)
      expect(output).toMatch(/alerts\.yml\s+SUCCESS: \d+ rules found/)
    })
  })
})
