/**
 * A publishing process killed (-9) at any moment of a publication: the served release is a
 * whole one, the old or the new, never half of either; the next process takes the lease over,
 * clears what was left half-made and brings the served site up to main; the database (PGlite)
 * opens again with everything it had acknowledged.
 */
import { spawn } from 'node:child_process'
import { access, readFile, readlink } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../../src/engine/build'
import { ROOT, readBuildConfig } from '../../../../src/engine/config'
import { openPublishingService } from '../../../../src/publishing/service'
import { readPublishingSettings } from '../../../../src/publishing/settings'
import { MAIN } from '../../../../src/publishing/workflow/drafts'
import { CURRENT } from '../../../../src/shared/release-layout'
import { ada, addPeople, paul, rita } from '../../../support/people'
import { ABOUT, approvedDraft as approvedDraftOf } from '../../../support/publishing'
import { siteRepository } from '../../../support/site-repository'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

let dir: string
let env: Record<string, string>

const open = () =>
  openPublishingService(readPublishingSettings(ROOT, env), {
    root: ROOT,
    buildConfig: readBuildConfig(env),
    build: buildSite,
  })

async function approvedDraft(title: string) {
  const service = await open()
  try {
    await approvedDraftOf(service.drafts, title)
  } finally {
    await service.close()
  }
}

/** Starts a publication in a process of its own and kills it `afterMs` after it began. */
async function publishAndKill(afterMs: number): Promise<'killed' | 'finished'> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'tests/support/publish-child.ts',
      env.DATA_DIR as string,
      env.PUBLISHING_REMOTE as string,
      'pages/about',
      paul.email,
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, NODE_ENV: 'production' },
    },
  )
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('publishing')) resolve()
    })
    child.once('exit', () => reject(new Error('the publishing process ended before it began')))
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), afterMs)
  const code = await exited
  clearTimeout(timer)
  return code === 0 ? 'finished' : 'killed'
}

beforeAll(async () => {
  dir = await temporaryFolder('publishing-crash-')
  const remote = await siteRepository(join(dir, 'bank.git'))
  env = { DATA_DIR: join(dir, 'data'), PUBLISHING_REMOTE: remote.gitDir }
  const service = await open()
  await addPeople(service.database, [ada, rita, paul])
  await service.close()
  // A live release to fall back on.
  await approvedDraft('Live before the crashes')
  const first = await open()
  await first.publisher.publish(paul, 'pages/about')
  await first.close()
})

afterAll(async () => {
  await removeFolder(dir)
})

describe('a publication killed at any moment', () => {
  for (const afterMs of [300, 4000]) {
    it(`leaves one whole release served when killed ${afterMs} ms in, and the next process brings the site up to main`, async () => {
      await approvedDraft(`Killed ${afterMs} ms in`)
      const outcome = await publishAndKill(afterMs)
      const releasesDir = join(dir, 'data', 'releases')
      const served = await readlink(join(releasesDir, CURRENT))
      // A whole release: the build finishes a folder before the link can name it.
      await access(join(releasesDir, served, 'en', 'about', 'index.html'))
      await access(join(releasesDir, served, '_headers.json'))

      const service = await open()
      try {
        await service.publisher.recover()
        const main = (await service.repo.resolve(MAIN)) as string
        const live = (await service.releases.current()) as string
        expect((await service.publisher.releaseOf(live))?.commit).toBe(main)
        const title = (await service.repo.readFile(main, ABOUT))
          ?.toString()
          .match(/^title: (.*)$/m)?.[1]
        const page = await readFile(join(releasesDir, live, 'en', 'about', 'index.html'), 'utf8')
        expect(page).toContain(title)
        expect((await service.releases.removeUnfinished()).length).toBe(0)
        // Published or not, as the moment of the kill decided: never in between.
        if (outcome === 'finished' || title === `Killed ${afterMs} ms in`) {
          expect(await service.drafts.get('pages/about')).toBeNull()
        } else {
          expect((await service.drafts.get('pages/about'))?.status).toBe('pending_publish')
          await service.drafts.discard(ada, 'pages/about')
        }
      } finally {
        await service.close()
      }
    })
  }
})
