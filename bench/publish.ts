/**
 * Publishing: the time from a publisher pressing Publish (the editor's `publishUnpublishedEntry`
 * call to the publishing service) to the public site serving the changed page, on the real
 * site. The service and the public server run in this process over HTTP, on a repository made
 * from this checkout; three people (author, reviewer, publisher) are signed in by sessions made
 * in the service's database. Each run: the author saves a new title, the reviewer approves,
 * then the clock runs from the publisher's request until `/en/about/` shows the title, asked
 * for every 5 ms from the press on (the request answers after that: it pushes to the remote).
 *
 * The approval builds the release ahead in the background (`RELEASE_AHEAD`): the runs alternate
 * between a publisher who presses once that is done (a person reads the change for longer than
 * it takes: the figure the target is for) and one who presses the moment the approval answers
 * (the publication waits for the release built ahead, then takes it).
 */
import { access, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { buildSite } from '../src/engine/build'
import { inputHash, isFresh } from '../src/engine/cache/stamp'
import { ROOT, readBuildConfig } from '../src/engine/config'
import { createPublishingApp, SESSION_COOKIE } from '../src/publishing/http/app'
import { startSession } from '../src/publishing/people/people'
import { openPublishingService } from '../src/publishing/service'
import { readPublishingSettings } from '../src/publishing/settings'
import { createApp } from '../src/server/app'
import { CURRENT } from '../src/shared/release-layout'
import { ada, addPeople, paul, rita } from '../tests/support/people'
import { siteRepository } from '../tests/support/site-repository'
import { removeFolder, temporaryFolder } from '../tests/support/temporary-folder'
import { median } from './builds'

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  )

export interface PublishFigures {
  /** Press Publish → changed page served, each run (ms), once the release was built ahead. */
  runsMs: number[]
  medianMs: number
  maxMs: number
  /** The same, pressed the moment the approval answered, each run (ms). */
  atOnceMs: number[]
  atOnceMedianMs: number
  /** The first publication after the service started (its workspace's first build). */
  firstMs: number
  /** Of the median, how long the publish request itself took. */
  requestMedianMs: number
  /**
   * Page served → the changed page's and its page data's compressed twins in the live release,
   * each run (ms; written in the background after the release went live).
   */
  twinsMs: number[]
}

export async function publishTimes(runs: number): Promise<PublishFigures> {
  const dir = await temporaryFolder('bench-publish-')
  const remote = await siteRepository(join(dir, 'bank.git'))
  const env = {
    DATA_DIR: join(dir, 'data'),
    CMS_PORT: '0',
    PUBLISHING_REMOTE: remote.gitDir,
    // `RELEASE_TWINS=off npm run bench` measures publication without the twins' pass.
    ...(process.env.RELEASE_TWINS ? { RELEASE_TWINS: process.env.RELEASE_TWINS } : {}),
  }
  const buildConfig = readBuildConfig(env)
  // As `npm start` does before it starts the publishing service: the site is built unless its
  // build is fresh. The service's first publication then starts from that build's cache.
  if (!(await isFresh(buildConfig, await inputHash(buildConfig)))) await buildSite(buildConfig)
  const settings = readPublishingSettings(ROOT, env)
  const service = await openPublishingService(settings, {
    root: ROOT,
    buildConfig,
    build: buildSite,
  })
  const cms = await createPublishingApp(service, { logLevel: 'silent' })
  await cms.listen({ port: 0, host: '127.0.0.1' })
  const site = await createApp({ releasesDir: settings.releasesDir, logLevel: 'silent' })
  await site.listen({ port: 0, host: '127.0.0.1' })
  const portOf = (app: typeof site) => {
    const address = app.server.address()
    return typeof address === 'object' && address ? address.port : 0
  }
  const cmsUrl = `http://127.0.0.1:${portOf(cms)}`
  const siteUrl = `http://127.0.0.1:${portOf(site)}`
  const cookies: Record<string, string> = {}
  await addPeople(service.database, [ada, rita, paul])
  for (const { email, roles } of [ada, rita, paul]) {
    cookies[roles[0] ?? ''] =
      `${SESSION_COOKIE}=${(await startSession(service.database, email)).token}`
  }
  const call = async (role: string, action: string, params: Record<string, unknown>) => {
    const response = await fetch(`${cmsUrl}/api/cms`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: cookies[role] as string,
        // The service takes writes from its own origin only.
        origin: settings.url,
      },
      body: JSON.stringify({ action, params: { branch: 'main', ...params } }),
    })
    if (!response.ok) throw new Error(`${action}: ${response.status} ${await response.text()}`)
    return response.json()
  }
  const english = await readFile(join(ROOT, 'content/en/pages/about.yaml'), 'utf8')
  const german = await readFile(join(ROOT, 'content/de/pages/about.yaml'), 'utf8')
  const publishOnce = async (title: string, { atOnce = true } = {}) => {
    // Each decision names the version it is about, as the editor sends the one it loaded.
    const { version } = (await call('author', 'persistEntry', {
      version: null,
      dataFiles: [
        {
          path: 'content/pages/en/about.yaml',
          slug: 'about',
          raw: english.replace(/^title: .*$/m, `title: ${title}`),
        },
        { path: 'content/pages/de/about.yaml', slug: 'about', raw: german },
      ],
      assets: [],
      options: { collectionName: 'pages', useWorkflow: true, status: 'draft' },
    })) as { version: string }
    // Its author moves it to review; only then may the reviewer approve it.
    await call('author', 'updateUnpublishedEntryStatus', {
      collection: 'pages',
      slug: 'about',
      newStatus: 'pending_review',
      version,
    })
    await call('reviewer', 'updateUnpublishedEntryStatus', {
      collection: 'pages',
      slug: 'about',
      newStatus: 'pending_publish',
      version,
    })
    if (!atOnce) await service.publisher.idle()
    // The page is asked for from the press on, as a visitor would: it is served once the
    // release is switched, while the request still pushes to the remote and prunes.
    const started = performance.now()
    let requestMs = 0
    let failure: unknown
    const request = call('publisher', 'publishUnpublishedEntry', {
      collection: 'pages',
      slug: 'about',
      version,
    }).then(
      () => {
        requestMs = performance.now() - started
      },
      (error: unknown) => {
        failure = error
      },
    )
    for (;;) {
      if (failure) throw failure
      const page = await fetch(`${siteUrl}/en/about/`).then((response) => response.text())
      if (page.includes(title)) break
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    const served = performance.now()
    await request
    if (failure) throw failure
    const live = join(settings.releasesDir, CURRENT)
    const twins = ['en/about/index.html.br', 'page-data/en/about/page-data.json.gz']
    while (performance.now() - served < 30_000) {
      const found = await Promise.all(twins.map((twin) => exists(join(live, twin))))
      if (found.every(Boolean)) break
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    return { totalMs: served - started, requestMs, twinsMs: performance.now() - served }
  }
  try {
    const first = await publishOnce('Published first after the start')
    const measured: { totalMs: number; requestMs: number; twinsMs: number }[] = []
    const atOnce: number[] = []
    for (let run = 0; run < runs; run += 1) {
      measured.push(await publishOnce(`Published ${run}`, { atOnce: false }))
      atOnce.push(Math.round((await publishOnce(`Published at once ${run}`)).totalMs))
    }
    const totals = measured.map((result) => Math.round(result.totalMs))
    return {
      runsMs: totals,
      medianMs: median(totals),
      atOnceMs: atOnce,
      atOnceMedianMs: median(atOnce),
      maxMs: Math.max(...totals),
      firstMs: Math.round(first.totalMs),
      requestMedianMs: Math.round(median(measured.map((result) => result.requestMs))),
      twinsMs: measured.map((result) => Math.round(result.twinsMs)),
    }
  } finally {
    await site.close()
    await cms.close()
    await service.close()
    await removeFolder(dir)
  }
}

export function formatPublish(figures: PublishFigures): string {
  return `Publish → page served: median ${figures.medianMs} ms, max ${figures.maxMs} ms over ${figures.runsMs.length} runs (${figures.runsMs.join(', ')} ms); pressed the moment the approval answered, median ${figures.atOnceMedianMs} ms (${figures.atOnceMs.join(', ')} ms); the publish request ${figures.requestMedianMs} ms at the median; the first after the start ${figures.firstMs} ms; the changed page's twins ${figures.twinsMs.join(', ')} ms after it was served`
}
