/**
 * The build: validate content, bundle, render every route to HTML plus its page data,
 * then the shared data, app data, manifests and service worker. No compressed twins: `npm run
 * build` and the publishing service write them after (`assets/twins.ts`).
 */
import { spawn } from 'node:child_process'
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join, relative } from 'node:path'
import { createFileStore } from '../content/file-store'
import { loadContent } from '../content/load'
import { rateHistoryFiles } from '../content/rates'
import type { SiteContent } from '../content/site-content'
import { ICON_PATH } from '../shared/constants'
import { LANGUAGES } from '../shared/languages'
import { APP_DATA_URL, notFoundPath, pageDataUrl, staticQueryUrl } from '../shared/paths'
import { searchIndexUrl } from '../shared/search/format'
import type { AppData, BootData, LayoutData } from '../shared/types'
import { type Bundle, bundle } from './assets/bundle'
import {
  type PreparedImages,
  prepareImages,
  refuseFilesInGeneratedDirs,
  SITE_CARD_SOURCE,
} from './assets/content-images'
import type { BuildPage } from './build-page'
import { openMarkdownCache } from './cache/markdown-cache'
import { openPageReuse, type PageReuse } from './cache/page-reuse'
import { inputHash, writeStamp } from './cache/stamp'
import type { BuildConfig } from './config'
import { fetchEcbRates } from './fetch-rates'
import { renderDocument } from './pages/html-document'
import { createPageData, createStaticQueries, manifestPath } from './pages/page-data'
import { pagesOfFiles } from './pages/preview-pages'
import { type StructuredDataContext, structuredData } from './pages/structured-data'
import { writeDocuments } from './pdf/documents'
import { openPdfWriter } from './pdf/writer'
import { createRouteTable, refuseRedirectsOverPages } from './routes/route-table'
import { openSearchCollector } from './search/collect'
import { rssFeeds } from './site-files/feeds'
import { writeHostConfiguration } from './site-files/host-config'
import { ROBOTS_PATH, robotsTxt, SITEMAP_PATH, sitemapXml } from './site-files/seo'
import { writeServiceWorker } from './site-files/service-worker'
import { iconSvg, webManifest } from './site-files/web-manifest'
import { createTimeline, type Profile } from './timeline'

export interface BuildReport {
  pages: number
  /** Pages whose inputs were unchanged: linked from the last site, not rendered. */
  pagesReused: number
  buildHash: string
  /** The code was unchanged since a cached build: its bundles were reused. */
  bundlesReused: boolean
  precached: number
  timings: Record<string, number>
  /** Every phase on the process's clock, with the CPU used (`BUILD_PROFILE`). */
  profile: Profile
  /** The page each store file makes, by the file (relative to the content): `blog/posts/how-we-test-our-apis.md`. */
  pagesOfFiles: Record<string, string>
  /**
   * Settles when the build's caches are written: at once, unless `deferCacheSaves` let the
   * build return before them. The next build with the same cache must wait for it.
   */
  cacheSaved: Promise<void>
}

/** Runs `task` on each item, `concurrency` at a time, taking items as they come. */
async function eachLimited<T>(
  items: Iterable<T>,
  concurrency: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  const iterator = items[Symbol.iterator]()
  const worker = async () => {
    for (let next = iterator.next(); !next.done; next = iterator.next()) await task(next.value)
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
}

/** Writes files with bounded concurrency (thousands of pages must not open thousands of files). */
async function writeAll(
  files: Iterable<[string, string]>,
  /** Files there may be links to the last site's: removed first, never written through. */
  replace = false,
  /**
   * Links a file the last site holds as it is: at the same path, or at the one `from` names
   * (paths relative to the site).
   */
  same?: { stage: string; reuse: PageReuse; from?: (path: string) => string },
): Promise<void> {
  const createdDirs = new Set<string>()
  await eachLimited(files, 64, async ([path, data]) => {
    if (same) {
      const inSite = relative(same.stage, path)
      if (await same.reuse.linkIfSame(inSite, data, same.from?.(inSite))) return
    }
    const dir = dirname(path)
    if (!createdDirs.has(dir)) {
      await mkdir(dir, { recursive: true })
      createdDirs.add(dir)
    }
    if (replace) await rm(path, { force: true })
    await writeFile(path, data)
  })
}

/** The version of each language's search index in a site, from its `index.json`. */
async function searchVersions(site: string): Promise<Map<string, string>> {
  const versions = new Map<string, string>()
  for (const language of LANGUAGES) {
    try {
      const index = await readFile(join(site, searchIndexUrl(language)), 'utf8')
      const { version } = JSON.parse(index) as { version?: unknown }
      if (typeof version === 'string') versions.set(language, version)
    } catch {
      // No index there, or not one a build wrote: its files are written anew.
    }
  }
  return versions
}

/**
 * Where the last site has a file of the search index: a new version of an index is a folder of
 * its own (visitors keep its files for good), but most of its files are as they were in the
 * last version's folder, and are linked from there.
 */
function lastSearchPath(path: string, versions: ReadonlyMap<string, string>): string {
  const match = /^search\/(\w+)\/[\w-]+\/([cp]\d+\.json)$/.exec(path)
  const last = match?.[1] && versions.get(match[1])
  return match && last ? `search/${match[1]}/${last}/${match[2]}` : path
}

/** `dist/en/about/index.html` for `/en/about/`. */
function htmlFile(outDir: string, path: string): string {
  return join(outDir, path, 'index.html')
}

const OLD_SUFFIX = '.old-'

/**
 * Deletes a folder in a process of its own that outlives the build: removing the last site
 * (3 files a page with the compressed twins, 60,000 at 10,000 pages) took seconds the build
 * need not wait for.
 */
function removeInBackground(path: string): void {
  const remover = spawn(
    process.execPath,
    ['-e', 'require("node:fs").rmSync(process.argv[1], { recursive: true, force: true })', path],
    { detached: true, stdio: 'ignore' },
  )
  remover.on('error', () => {})
  remover.unref()
}

/** Old sites a killed remover left behind (`dist.old-…`), removed the same way. */
async function removeOldSites(target: string): Promise<void> {
  const prefix = `${basename(target)}${OLD_SUFFIX}`
  const siblings = await readdir(dirname(target)).catch(() => [])
  for (const name of siblings) {
    if (name.startsWith(prefix)) removeInBackground(join(dirname(target), name))
  }
}

/** Replaces `target` by `stage` with two renames, so the site is never half there. */
async function swapIn(stage: string, target: string): Promise<void> {
  const old = `${target}${OLD_SUFFIX}${process.pid}-${Date.now().toString(36)}`
  const moved = await rename(target, old).then(
    () => true,
    () => false,
  )
  await rename(stage, target)
  if (moved) removeInBackground(old)
}

export async function buildSite(config: BuildConfig): Promise<BuildReport> {
  const timeline = createTimeline()
  const { measure } = timeline
  const timings: Record<string, number> = {}
  let mark = performance.now()
  const step = (name: string) => {
    const now = performance.now()
    timings[name] = Math.round(now - mark)
    mark = now
  }

  await refuseFilesInGeneratedDirs(join(config.root, 'public'))
  const hash = inputHash(config)
  // Everything is written to a staging folder and swapped in at the end: a failed build leaves
  // the last good site in place, and a server never serves a half-written one.
  const stage = `${config.outDir}.next`
  const staged: BuildConfig = { ...config, outDir: stage }
  await rm(stage, { recursive: true, force: true })
  await removeOldSites(config.outDir)
  // The folders the parallel steps share exist first: copying the bundle's public files and
  // writing images at once must not race to create `images/` (EEXIST).
  await mkdir(join(stage, 'images'), { recursive: true })
  await mkdir(config.cacheDir, { recursive: true })
  const markdownCache = await openMarkdownCache(config)
  // Validating content and bundling code do not depend on each other: they run side by side,
  // and the documents (PDFs), which need the content only, are written while bundling ends.
  const contentLoaded = (
    config.ratesFetch ? fetchEcbRates(config.ratesFetch.url) : Promise.resolve(undefined)
  ).then((fetchedEcbRates) =>
    measure('content', () =>
      loadContent(createFileStore(config.contentDir), {
        publicDir: join(config.root, 'public'),
        markdownCache,
        measure,
        ...(fetchedEcbRates ? { fetchedEcbRates } : {}),
      }),
    ),
  )
  // Images too need only the content: variants and sharing cards are made while bundling.
  const imagesPrepared = contentLoaded.then((content) =>
    measure('images: variants', () =>
      prepareImages(content, {
        publicDir: join(config.root, 'public'),
        siteCard: join(config.root, SITE_CARD_SOURCE),
        outDir: stage,
        cacheDir: config.cacheDir,
        timeline,
      }),
    ),
  )
  // Without cached PDFs (a first build) the worker loads PDFKit while the content loads.
  const pdfWriter = openPdfWriter()
  const cachedPdfs = await readdir(join(config.cacheDir, 'documents')).catch(() => [])
  if (cachedPdfs.length === 0) pdfWriter.warm()
  const documentsWritten = contentLoaded.then((content) =>
    measure('documents (PDF)', () =>
      writeDocuments(content, stage, {
        markdownCache,
        cacheDir: config.cacheDir,
        root: config.root,
        pdfWriter,
      }),
    ),
  )
  // Its failure is the content's, reported below: marked handled now, since the bundle is
  // awaited first and a long-running caller (the publishing service) must not see it unhandled.
  documentsWritten.catch(() => {})
  const [loaded, bundledResult, images] = await Promise.allSettled([
    contentLoaded,
    measure('bundle', () => bundle(staged, timeline)),
    imagesPrepared,
  ])
  const failed = [loaded, bundledResult, images].find((result) => result.status === 'rejected')
  if (failed) {
    await Promise.all([
      documentsWritten.catch(() => 0),
      // Started early, it would keep the process alive when the content failed to load.
      pdfWriter.close(),
    ])
    // Sharing cards may still be landing in the stage: a folder that will not go away now must
    // not hide why the build failed.
    await rm(stage, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined)
    throw (failed as PromiseRejectedResult).reason
  }
  const content = (loaded as PromiseFulfilledResult<SiteContent>).value
  const { cardsWritten } = (images as PromiseFulfilledResult<PreparedImages>).value
  const bundled = (bundledResult as PromiseFulfilledResult<Bundle>).value
  const routes = createRouteTable(content)
  refuseRedirectsOverPages(content.redirects, routes, config.contentDir)
  step('content and bundle')

  const queries = createStaticQueries(content)
  const queryByHash = new Map<string, LayoutData>(
    LANGUAGES.map((language) => [queries[language].hash, queries[language].data]),
  )
  const structuredContext: StructuredDataContext = {
    siteUrl: config.siteUrl,
    settings: content.settings,
  }
  const htmlByPath = new Map<string, string>()
  // Each currency's rates by day: fetched by the rate pages when a visitor asks for them, and
  // drawn by the build into those pages for visitors without script.
  const histories = rateHistoryFiles(content.rates)
  const historyByUrl = new Map(histories.map((file) => [file.url, file.history]))
  const resources = (url: string) => historyByUrl.get(url)
  const reuse = await openPageReuse(
    config.previousSite ?? config.outDir,
    stage,
    config.cacheDir,
    JSON.stringify([
      bundled.codeVersion,
      bundled.buildHash,
      config.serviceWorker,
      config.tracking,
      structuredContext,
    ]),
  )
  const search = await openSearchCollector(
    config.cacheDir,
    Object.fromEntries(LANGUAGES.map((language) => [language, queries[language].data])),
    bundled.codeVersion,
  )
  const pageDataOf = (route: BuildPage) => {
    const page = createPageData(route, queries, content, config.siteUrl)
    const json = JSON.stringify(page)
    const structured = structuredData(route, structuredContext)
    return { page, json, structured, key: reuse.key(json, JSON.stringify(structured)) }
  }
  // Pages the last site holds as they are now: linked, not rendered.
  const unchanged: BuildPage[] = []
  function* pageFiles(pages: Iterable<BuildPage>, reusing: boolean): Generator<[string, string]> {
    if (reusing) {
      for (const { url, history } of histories) yield [join(stage, url), JSON.stringify(history)]
    }
    for (const route of pages) {
      const { page, json, structured, key } = pageDataOf(route)
      reuse.record(page.path, key)
      // The 404 pages are also written as 404.html files below: always rendered.
      if (reusing && !route.route.matchPath && reuse.unchanged(page.path, key)) {
        unchanged.push(route)
        search.add(page, key)
        continue
      }
      const staticQueries: Record<string, LayoutData> = {}
      for (const hash of page.staticQueryHashes) {
        const data = queryByHash.get(hash)
        if (data) staticQueries[hash] = data
      }
      const boot: BootData = {
        buildHash: bundled.buildHash,
        serviceWorker: config.serviceWorker,
        tracking: config.tracking,
        page,
        staticQueries,
      }
      const html = renderDocument(
        boot,
        bundled.renderer.renderPage(boot, resources),
        bundled.assetsFor(page.componentChunkName),
        structured,
      )
      search.add(page, key, html)
      if (route.route.matchPath) htmlByPath.set(page.path, html)
      yield [htmlFile(stage, page.path), html]
      yield [join(stage, pageDataUrl(page.path)), json]
    }
  }
  const pagesReused = await measure('pages: render and write', async () => {
    await writeAll(pageFiles(routes, true), false, { stage, reuse })
    // Files of the last site gone meanwhile: those pages are rendered after all.
    const gone: BuildPage[] = []
    await eachLimited(unchanged, 64, async (route) => {
      const path = route.route.path
      for (const file of [join(path, 'index.html'), pageDataUrl(path)]) {
        if (!(await reuse.link(file))) {
          gone.push(route)
          return
        }
      }
    })
    await writeAll(pageFiles(gone, false), true)
    return unchanged.length - gone.length
  })
  step('pages')

  const searchFiles = await measure('search index', () =>
    search.files((path) => readFile(htmlFile(stage, path), 'utf8')),
  )
  const appData: AppData = { webpackCompilationHash: bundled.buildHash }
  const extra: [string, string][] = [
    [join(stage, APP_DATA_URL), JSON.stringify(appData)],
    [join(stage, ICON_PATH), iconSvg()],
    [join(stage, SITEMAP_PATH), sitemapXml(routes, config.siteUrl)],
    [join(stage, ROBOTS_PATH), robotsTxt(config.siteUrl)],
    ...rssFeeds(content, config.siteUrl).map(([path, xml]): [string, string] => [
      join(stage, path),
      xml,
    ]),
    ...searchFiles.map(([path, json]): [string, string] => [join(stage, path), json]),
    ...LANGUAGES.map((language): [string, string] => [
      join(stage, staticQueryUrl(queries[language].hash)),
      queries[language].json,
    ]),
    ...LANGUAGES.map((language): [string, string] => [
      join(stage, manifestPath(language)),
      JSON.stringify(webManifest(language, content.settings), null, 2),
    ]),
  ]
  // Static hosts answer unknown paths with the nearest 404.html; the runtime then shows the
  // 404 page whose match path fits the address.
  for (const language of LANGUAGES) {
    const html = htmlByPath.get(notFoundPath(language))
    if (!html) continue
    extra.push([join(stage, language, '404.html'), html])
    if (language === LANGUAGES[0]) extra.push([join(stage, '404.html'), html])
  }
  // What the change left as it was (most of the search index, the feeds, the rate histories)
  // is linked from the last site instead of written again.
  const lastSearch = await searchVersions(config.previousSite ?? config.outDir)
  await measure('site files', () =>
    writeAll(extra, false, {
      stage,
      reuse,
      from: (path) => lastSearchPath(path, lastSearch),
    }),
  )
  await documentsWritten
  await cardsWritten
  step('data')

  const precached = await measure('service worker', () =>
    writeServiceWorker(staged, bundled.serviceWorkerSource),
  )
  await writeHostConfiguration(stage, config.tracking, content.redirects)
  // The caches are written after the swap; a caller that builds again in the same process
  // (the publishing service) may take the site first and wait for them before its next build.
  let cacheSaved: Promise<void> = Promise.resolve()
  await measure('finish: cache and swap', async () => {
    await reuse.markSite(stage)
    await swapIn(stage, config.outDir)
    cacheSaved = Promise.all([
      markdownCache.save(),
      reuse.save(),
      search.save(),
      hash.then((inputs) => writeStamp(config, inputs)),
    ]).then(() => undefined)
    // Awaited by the caller when deferred; until then a failure must not count as unhandled.
    cacheSaved.catch(() => {})
    if (!config.deferCacheSaves) await cacheSaved
  })
  step('finish')

  return {
    pages: routes.length,
    pagesReused,
    buildHash: bundled.buildHash,
    bundlesReused: bundled.cached,
    precached,
    timings,
    profile: timeline.profile(),
    pagesOfFiles: pagesOfFiles(content, routes),
    cacheSaved,
  }
}
