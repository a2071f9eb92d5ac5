/**
 * A publishing service process for the test of several processes on one PostgreSQL: the
 * service's own HTTP app and schedule loop, configured by the environment as `serve:cms` is,
 * with a stand-in build that writes the about page's title (the real build is tested in
 * publisher.test.ts, and every process bundling the editor would only cost time). Prints
 * `listening <port>` once it takes requests; SIGTERM closes it.
 * `node --import tsx tests/support/service-process.ts`
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { ROOT, readBuildConfig } from '../../src/engine/config'
import { createPublishingApp } from '../../src/publishing/http/app'
import { openPublishingService } from '../../src/publishing/service'
import { readPublishingSettings } from '../../src/publishing/settings'
import { standInReport } from './build-report'

const settings = readPublishingSettings(ROOT, process.env)
const service = await openPublishingService(settings, {
  root: ROOT,
  buildConfig: readBuildConfig(process.env),
  build: async (config) => {
    const about = await readFile(join(config.contentDir, 'en/pages/about.yaml'), 'utf8')
    await mkdir(config.outDir, { recursive: true })
    await writeFile(join(config.outDir, 'index.html'), /^title: (.*)$/m.exec(about)?.[1] ?? '')
    // Long enough for two publications to meet.
    await new Promise((resolve) => setTimeout(resolve, 300))
    return standInReport()
  },
})
const app = await createPublishingApp(service, { logLevel: 'warn' })
const stopSchedules = service.schedules.start(settings.scheduleCheckSeconds)
await app.listen({ port: settings.port, host: '127.0.0.1' })
const address = app.server.address()
console.log(`listening ${typeof address === 'object' && address ? address.port : settings.port}`)
process.once('SIGTERM', async () => {
  await stopSchedules()
  await app.close()
  await service.close()
  process.exit(0)
})
