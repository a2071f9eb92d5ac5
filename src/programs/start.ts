/**
 * `npm start`: serves the site on http://localhost:8080 (`PORT`, `HOST` override) until SIGINT
 * or SIGTERM, finishing the requests in flight before it exits: the release the editors
 * published last, or, before their first, `dist/` built from this checkout when it is missing
 * or stale. With `SERVE_STATIC=off` it builds nothing and runs the forms service alone (as
 * `npm run serve:api`).
 *
 * On a terminal (or with `LOG_FORMAT=pretty`) it ends its start with one plain line per address,
 * the site's, the publishing service's and the first administrator's link, after the log lines
 * of the start; elsewhere the output stays as log collectors and tests read it.
 */
import { readlink } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { contentProblems } from '../content/errors'
import { checkDatabaseUrls } from '../database/open'
import { inputHash, isFresh } from '../engine/cache/stamp'
import { buildInChild } from '../engine/child/build'
import { checkBuildFolders, checkContentDir, readBuildConfig } from '../engine/config'
import { checkListeners } from '../http/listeners'
import { AuditKeyError } from '../publishing/audit/trail'
import { releasesDirOf } from '../publishing/settings'
import {
  checkPublishingFolders,
  type PublishingStartSettings,
  publishingListeners,
  readPublishingStart,
  runsPublishing,
  startPublishing,
} from '../publishing/start'
import { readServeSettings, serve, serveListeners } from '../server/serve'
import { CURRENT } from '../shared/release-layout'
import { runProgram } from '../shared/settings-error'

/** The address a server bound, as a person opens it (a wildcard host read as localhost). */
function addressOf(app: FastifyInstance, host: string): string {
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  const name = ['0.0.0.0', '::', ''].includes(host) ? 'localhost' : host
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}/`
}

async function main(): Promise<void> {
  const config = readBuildConfig()
  // Every setting is read and checked before anything starts: a wrong one stops npm start with
  // one line that names it (src/shared/settings-error.ts), nothing half started.
  const site = readServeSettings({
    root: config.root,
    contentDir: config.contentDir,
    siteUrl: config.siteUrl,
  })
  // For a person: the addresses together, last; for a log collector, the output as it was.
  const forPerson = site.logFormat === 'pretty'
  const host = site.listener.host
  await checkContentDir(config)
  if (!site.servesStatic) {
    const app = await serve(
      { root: config.root, contentDir: config.contentDir, siteUrl: config.siteUrl },
      site,
    )
    if (forPerson) console.log(`Forms service: ${addressOf(app, host)}api/`)
    return
  }
  const publishing = runsPublishing() ? readPublishingAlone() : undefined
  await checkListeners([
    ...serveListeners(site),
    ...(publishing ? publishingListeners(publishing) : []),
  ])
  await checkDatabaseUrls(site.forms)
  // Its repository and database are written first: a folder that cannot be is one line.
  if (publishing) await checkPublishingFolders(publishing.settings)
  const releasesDir = releasesDirOf(config.root)
  const release = await readlink(join(releasesDir, CURRENT)).catch(() => undefined)
  if (release) {
    console.log(
      `Serving the editors' release ${basename(release)} (${releasesDir}); npm run build builds this checkout into ${config.outDir}.`,
    )
  } else if (await isFresh(config, await inputHash(config))) {
    console.log(`${config.outDir} is up to date.`)
  } else {
    await checkBuildFolders(config)
    console.log(`Building the site into ${config.outDir} …`)
    // In a process of its own: the server that follows keeps nothing of the build.
    const report = await buildInChild(config)
    console.log(`Built ${report.pages} pages (build ${report.buildHash}).`)
  }
  // The editors' service, on its own port (localhost), stopped with the site. Its addresses
  // wait for the site's, and are printed even if the site does not start: the first
  // administrator's link is made once.
  const addresses: string[] = []
  const print = forPerson ? (line: string) => addresses.push(line) : console.log
  const started = publishing ? await startPublishingAlone(print, publishing) : undefined
  try {
    const app = await serve(
      {
        root: config.root,
        outDir: config.outDir,
        releasesDir,
        ...(started ? { alongside: [started] } : {}),
        contentDir: config.contentDir,
        siteUrl: config.siteUrl,
      },
      site,
    )
    if (forPerson) addresses.unshift(`Public site: ${addressOf(app, host)}`)
  } finally {
    for (const line of addresses) console.log(line)
  }
}

/**
 * The line that says the publishing service did not start because of its audit key, and that
 * the public site and the forms service go on without it.
 */
const withoutPublishing = (error: AuditKeyError) =>
  `${error.message} (the publishing service did not start; the public site and the forms service run without it)`

/**
 * The publishing service's settings, or none when its audit key is wrong: that stops it alone,
 * with a line naming the setting, and the public site and the forms service go on. Any other
 * wrong setting of it stops npm start.
 */
function readPublishingAlone(): PublishingStartSettings | undefined {
  try {
    return readPublishingStart(process.env)
  } catch (error) {
    if (!(error instanceof AuditKeyError)) throw error
    console.error(withoutPublishing(error))
    return undefined
  }
}

/**
 * The publishing service, or none when its audit key does not fit its trail (a keyed trail, a
 * key missing or not held): as above, it alone does not start.
 */
async function startPublishingAlone(
  print: (line: string) => void,
  settings: PublishingStartSettings,
) {
  try {
    return await startPublishing(process.env, print, settings)
  } catch (error) {
    if (!(error instanceof AuditKeyError)) throw error
    console.error(withoutPublishing(error))
    return undefined
  }
}

runProgram(main, contentProblems)
