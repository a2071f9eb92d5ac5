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
import { ContentValidationError } from '../content/errors'
import { DataFolderError, ensureWritableFolder } from '../database/folder'
import { inputHash, isFresh } from '../engine/cache/stamp'
import { readBuildConfig } from '../engine/config'
import { AuditKeyError } from '../publishing/audit/trail'
import { publishingDirOf, releasesDirOf } from '../publishing/settings'
import { runsPublishing, startPublishing } from '../publishing/start'
import { CURRENT } from '../publishing/workflow/releases'
import { logFormatOf } from '../server/logger'
import { serve, servesStatic } from '../server/serve'

/** The address a server bound, as a person opens it (a wildcard host read as localhost). */
function addressOf(app: FastifyInstance, host: string): string {
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  const name = ['0.0.0.0', '::', ''].includes(host) ? 'localhost' : host
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}/`
}

async function main(): Promise<void> {
  const config = readBuildConfig()
  // For a person: the addresses together, last; for a log collector, the output as it was.
  const forPerson = logFormatOf() === 'pretty'
  const host = process.env.HOST ?? 'localhost'
  if (!servesStatic()) {
    const app = await serve({
      root: config.root,
      contentDir: config.contentDir,
      siteUrl: config.siteUrl,
    })
    if (forPerson) console.log(`Forms service: ${addressOf(app, host)}api/`)
    return
  }
  const releasesDir = releasesDirOf(config.root)
  // Its repository and database are written first: a folder that cannot be is one line.
  if (runsPublishing()) {
    await ensureWritableFolder(publishingDirOf(config.root), {
      what: "the publishing service's folder",
      setting: 'DATA_DIR',
    })
  }
  const release = await readlink(join(releasesDir, CURRENT)).catch(() => undefined)
  if (release) {
    console.log(
      `Serving the editors' release ${basename(release)} (${releasesDir}); npm run build builds this checkout into ${config.outDir}.`,
    )
  } else if (await isFresh(config, await inputHash(config))) {
    console.log(`${config.outDir} is up to date.`)
  } else {
    console.log(`Building the site into ${config.outDir} …`)
    const { buildSite } = await import('../engine/build')
    const report = await buildSite(config)
    console.log(`Built ${report.pages} pages (build ${report.buildHash}).`)
  }
  // The editors' service, on its own port (localhost), stopped with the site. Its addresses
  // wait for the site's, and are printed even if the site does not start: the first
  // administrator's link is made once.
  const addresses: string[] = []
  const print = forPerson ? (line: string) => addresses.push(line) : console.log
  const publishing = runsPublishing() ? await startPublishingAlone(print) : undefined
  try {
    const app = await serve({
      root: config.root,
      outDir: config.outDir,
      releasesDir,
      ...(publishing ? { alongside: [publishing] } : {}),
      contentDir: config.contentDir,
      siteUrl: config.siteUrl,
    })
    if (forPerson) addresses.unshift(`Public site: ${addressOf(app, host)}`)
  } finally {
    for (const line of addresses) console.log(line)
  }
}

/**
 * The publishing service, or none when its audit key is wrong or missing: that stops it alone,
 * with a message naming the setting, and the public site and the forms service go on.
 */
async function startPublishingAlone(print: (line: string) => void) {
  try {
    return await startPublishing(process.env, print)
  } catch (error) {
    if (!(error instanceof AuditKeyError)) throw error
    console.error(
      `The publishing service did not start: ${error.message}. The public site and the forms service run without it; set AUDIT_KEY and start again.`,
    )
    return undefined
  }
}

main().catch((error: unknown) => {
  console.error(
    error instanceof ContentValidationError || error instanceof DataFolderError
      ? error.message
      : error,
  )
  process.exit(1)
})
