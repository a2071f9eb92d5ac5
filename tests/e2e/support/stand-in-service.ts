/**
 * The publishing service in the test's own process, with a stand-in build (publishing itself is
 * publishing.spec.ts's, which runs the real one): a fresh remote, data and output folder, on a
 * free port. Shared by the browser tests of the service's screens and editor.
 */
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { createPublishingApp } from '../../../src/publishing/http/app'
import type { PublishingService } from '../../../src/publishing/service'
import { freePort } from '../../support/free-port'
import { openServiceWithStandInBuild } from '../../support/publishing'
import { siteRepository } from '../../support/site-repository'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

export interface StandInService {
  /** Where it answers: `http://localhost:<port>`. */
  url: string
  service: PublishingService
  app: FastifyInstance
  close(): Promise<void>
}

/** Starts the service; `bundleEditor` bundles the editor's code at once (its first page waits). */
export async function startStandInService(
  name: string,
  options: { bundleEditor?: boolean } = {},
): Promise<StandInService> {
  const port = await freePort()
  const url = `http://localhost:${port}`
  const dir = await temporaryFolder(`${name}-e2e-`)
  const remote = await siteRepository(join(dir, 'bank.git'))
  const service = await openServiceWithStandInBuild({
    DATA_DIR: join(dir, 'data'),
    OUT_DIR: join(dir, 'dist'),
    CMS_PORT: String(port),
    CMS_URL: url,
    PUBLISHING_REMOTE: remote.gitDir,
  })
  const app = await createPublishingApp(service, {
    logLevel: 'warn',
    ...(options.bundleEditor ? { bundleEditor: true } : {}),
  })
  await app.listen({ port, host: '127.0.0.1' })
  return {
    url,
    service,
    app,
    async close() {
      await app.close()
      await service.close()
      await removeFolder(dir)
    },
  }
}
