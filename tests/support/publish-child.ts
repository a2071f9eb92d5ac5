/**
 * A publishing service process for the crash test: publishes one draft with the real build and
 * says when it begins, so the test can kill it (-9) at any moment of the publication.
 * `node --import tsx tests/support/publish-child.ts <data dir> <remote> <draft> <publisher>`
 */
import { buildSite } from '../../src/engine/build'
import { ROOT, readBuildConfig } from '../../src/engine/config'
import { personOf } from '../../src/publishing/people/people'
import { openPublishingService } from '../../src/publishing/service'
import { readPublishingSettings } from '../../src/publishing/settings'

const [dataDir, remote, draft, email] = process.argv.slice(2) as [string, string, string, string]
const env = { DATA_DIR: dataDir, PUBLISHING_REMOTE: remote }
const service = await openPublishingService(readPublishingSettings(ROOT, env), {
  root: ROOT,
  buildConfig: readBuildConfig(env),
  build: buildSite,
})
const person = await personOf(service.database, email)
if (!person) throw new Error(`no ${email}`)
console.log('publishing')
const release = await service.publisher.publish(person, draft)
console.log(`published ${release.folder}`)
await service.close()
