/**
 * `npm run dev`: the same routes as the build, rendered on request by Vite's dev server, with
 * hot reload for code (React Fast Refresh) and a full reload when content changes.
 */
import { watch } from 'node:fs'
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http'
import { join } from 'node:path'
import { createServer } from 'vite'
import { createCmsRoutes } from '../cms/admin'
import { CMS_PATH } from '../cms/config'
import { ContentValidationError } from '../content/errors'
import { createFileStore } from '../content/file-store'
import { loadContent } from '../content/load'
import { rateHistoryFiles } from '../content/rates'
import type { SiteContent } from '../content/site-content'
import type { ServerRenderer } from '../engine/assets/bundle'
import { baseViteConfig, outsideTheCode } from '../engine/assets/vite-config'
import type { BuildPage } from '../engine/build-page'
import { checkContentDir, ROOT, readBuildConfig } from '../engine/config'
import { CLIENT_ENTRY, SERVER_ENTRY } from '../engine/entries'
import { escapeHtml, renderDocument } from '../engine/pages/html-document'
import { createPageData, createStaticQueries, manifestPath } from '../engine/pages/page-data'
import { previewPages } from '../engine/pages/preview-pages'
import { structuredData } from '../engine/pages/structured-data'
import { createRouteTable } from '../engine/routes/route-table'
import { rssFeeds } from '../engine/site-files/feeds'
import { ROBOTS_PATH, robotsTxt, SITEMAP_PATH, sitemapXml } from '../engine/site-files/seo'
import { KILL_SWITCH_WORKER } from '../engine/site-files/service-worker'
import { iconSvg, webManifest } from '../engine/site-files/web-manifest'
import { checkListeners, listenFailure } from '../http/listeners'
import { CONTENT_CHANGED_EVENT, ICON_PATH } from '../shared/constants'
import { DRAWING_CONTENT_SECURITY_POLICY } from '../shared/http-headers'
import { LANGUAGES } from '../shared/languages'
import { APP_DATA_URL, normalizePath, notFoundPathFor, pageDataName } from '../shared/paths'
import { isHistoryPath } from '../shared/rates/history'
import { portSetting } from '../shared/setting-values'
import { runProgram } from '../shared/settings-error'
import type { BootData, LayoutData } from '../shared/types'

interface SiteState {
  content: SiteContent
  routes: Map<string, BuildPage>
  queries: ReturnType<typeof createStaticQueries>
  /** The rate pages' history files by address, as the build writes them. */
  histories: Map<string, unknown>
}

const DEV_BUILD_HASH = 'development'

async function loadState(contentDir: string): Promise<SiteState> {
  const content = await loadContent(createFileStore(contentDir), {
    publicDir: join(ROOT, 'public'),
  })
  const routes = new Map(createRouteTable(content).map((page) => [page.route.path, page]))
  const histories = new Map<string, unknown>(
    rateHistoryFiles(content.rates).map((file) => [file.url, file.history]),
  )
  return { content, routes, queries: createStaticQueries(content), histories }
}

async function main(): Promise<void> {
  const config = { ...readBuildConfig(), serviceWorker: false }
  await checkContentDir(config)
  // Every address: Node's default when no host is given.
  const listener = {
    port: portSetting(process.env, 'PORT', 5173),
    host: '',
    portSetting: 'PORT',
    hostSetting: 'PORT',
  }
  // A port taken stops it before Vite starts.
  await checkListeners([listener])
  const { port } = listener
  const siteUrl = `http://localhost:${port}`
  // Hot-reload messages travel over this server's own port, so dev servers can run side by side.
  const server = createHttpServer()
  const vite = await createServer({
    ...baseViteConfig(config),
    logLevel: 'info',
    appType: 'custom',
    server: { middlewareMode: true, hmr: { server }, watch: { ignored: outsideTheCode(ROOT) } },
  })
  let state = loadState(config.contentDir)
  state.catch(() => {})
  watch(config.contentDir, { recursive: true }, () => {
    state = loadState(config.contentDir)
    state.catch(() => {})
    // The site's pages reload (`src/runtime/entry.tsx`); the editor, which just saved, does not.
    vite.ws.send({ type: 'custom', event: CONTENT_CHANGED_EVENT })
  })

  const json = (data: unknown) => ({
    type: 'application/json; charset=utf-8',
    body: JSON.stringify(data),
  })

  async function answer(
    pathname: string,
  ): Promise<{ status?: number; type: string; body: string | Buffer } | undefined> {
    const site = await state
    const queryList = LANGUAGES.map((language) => site.queries[language])
    const pageData = (page: BuildPage) => createPageData(page, site.queries, site.content, siteUrl)
    if (pathname === APP_DATA_URL) return json({ webpackCompilationHash: DEV_BUILD_HASH })
    if (pathname.startsWith('/page-data/sq/d/')) {
      const query = queryList.find((q) => pathname === `/page-data/sq/d/${q.hash}.json`)
      return query ? json(query.data) : undefined
    }
    if (pathname.startsWith('/page-data/')) {
      const name = pathname.slice('/page-data/'.length).replace(/\/page-data\.json$/, '')
      const page = [...site.routes.values()].find(
        (route) => pageDataName(route.route.path) === name,
      )
      return page ? json(pageData(page)) : undefined
    }
    if (isHistoryPath(pathname)) {
      const history = site.histories.get(pathname)
      return history ? json(history) : undefined
    }
    if (pathname === '/sw.js') return { type: 'text/javascript', body: KILL_SWITCH_WORKER }
    if (pathname === ICON_PATH) return { type: 'image/svg+xml', body: iconSvg() }
    if (pathname === SITEMAP_PATH)
      return { type: 'application/xml', body: sitemapXml([...site.routes.values()], siteUrl) }
    if (pathname === ROBOTS_PATH) return { type: 'text/plain', body: robotsTxt(siteUrl) }
    for (const [path, xml] of rssFeeds(site.content, siteUrl))
      if (pathname === path) return { type: 'application/rss+xml', body: xml }
    for (const language of LANGUAGES) {
      if (pathname === manifestPath(language))
        return json(webManifest(language, site.content.settings))
    }
    // Vite's own modules (`/@vite/client`, `/@react-refresh`, `/@fs/…`) and files go to Vite.
    if (pathname.startsWith('/@') || pathname.startsWith('/node_modules/')) return undefined
    if (/\.[a-z0-9]+$/i.test(pathname) && !pathname.endsWith('.html')) return undefined
    const path = normalizePath(pathname)
    const found = site.routes.get(path)
    const page = found ?? site.routes.get(notFoundPathFor(path))
    if (!page) return undefined
    const data = pageData(page)
    const staticQueries: Record<string, LayoutData> = {}
    for (const query of queryList)
      if (data.staticQueryHashes.includes(query.hash)) staticQueries[query.hash] = query.data
    const boot: BootData = {
      buildHash: DEV_BUILD_HASH,
      serviceWorker: false,
      tracking: config.tracking,
      page: data,
      staticQueries,
    }
    const renderer = (await vite.ssrLoadModule(`/${SERVER_ENTRY}`)) as ServerRenderer
    await renderer.prepare()
    const html = renderDocument(
      boot,
      renderer.renderPage(boot, (url) => site.histories.get(url)),
      { entry: `/${CLIENT_ENTRY}`, preload: [], styles: [], fonts: [] },
      structuredData(page, {
        siteUrl,
        settings: site.content.settings,
      }),
    )
    return {
      status: found ? 200 : 404,
      type: 'text/html; charset=utf-8',
      body: await vite.transformIndexHtml(pathname, html),
    }
  }

  const cms = createCmsRoutes({
    contentDir: config.contentDir,
    publicDir: join(ROOT, 'public'),
    previewPages: (content, files) => previewPages(content, files, siteUrl),
  })
  const readBody = (request: IncomingMessage) =>
    new Promise<string>((resolve, reject) => {
      let body = ''
      request.setEncoding('utf8')
      request.on('data', (chunk: string) => {
        body += chunk
      })
      request.on('end', () => resolve(body))
      request.on('error', reject)
    })

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', siteUrl)
    const pathname = decodeURIComponent(url.pathname)
    // The CMS answers its own paths; anything else under /admin… is the site's (its 404).
    const result = pathname.startsWith(CMS_PATH.slice(0, -1))
      ? cms
          .handle({
            method: request.method ?? 'GET',
            pathname,
            host: request.headers.host,
            requestOrigin: request.headers.origin,
            body: () => readBody(request),
          })
          .then(async (answered) => {
            if (!answered) return answer(pathname)
            // The editor's page loads the preview's module through Vite (React, CSS modules).
            if (!answered.type.startsWith('text/html')) return answered
            return {
              ...answered,
              body: await vite.transformIndexHtml(pathname, String(answered.body)),
            }
          })
      : answer(pathname)
    result
      .then((result) => {
        // Opened on its own, a drawing (the icon, an editor's) runs nothing here either: this
        // origin answers the CMS's writes. (writeHead keeps the headers set before it.)
        if (result ? result.type.startsWith('image/svg+xml') : /\.svg$/i.test(pathname))
          response.setHeader('content-security-policy', DRAWING_CONTENT_SECURITY_POLICY)
        if (!result) {
          vite.middlewares(request, response)
          return
        }
        response.writeHead(result.status ?? 200, {
          'content-type': result.type,
          'cache-control': 'no-store',
        })
        response.end(result.body)
      })
      .catch((error: unknown) => {
        const message =
          error instanceof ContentValidationError
            ? error.message
            : String((error as Error)?.stack ?? error)
        if (!(error instanceof ContentValidationError)) vite.ssrFixStacktrace(error as Error)
        response.writeHead(500, { 'content-type': 'text/html; charset=utf-8' })
        response.end(`<!doctype html><title>Build error</title><pre>${escapeHtml(message)}</pre>`)
      })
  })
  // Browsers and test clients reuse idle connections; keep them open longer than they wait.
  server.keepAliveTimeout = 65_000
  await new Promise<void>((done, fail) => {
    server.once('error', (error) => fail(listenFailure(error, listener)))
    server.listen(port, done)
  })
  console.log(
    `Dev server on ${siteUrl}/ (content: ${config.contentDir}); content manager on ${siteUrl}${CMS_PATH}`,
  )
}

runProgram(main)
