/**
 * The editor at `/admin/` of `npm run dev`: Decap CMS's prebuilt bundle, started with the
 * configuration generated from the content model, talking to the local backend beside it.
 * Only the dev server mounts it; the built site has no `/admin/`.
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { createFileStore } from '../content/file-store'
import type { SiteContent } from '../content/site-content'
import { scriptJson } from '../shared/html'
import { htmlPage } from '../shared/html-page'
import { type CmsBackendOptions, createCmsBackend } from './backend'
import { CMS_API_PATH, CMS_PATH, cmsConfig } from './config'

export interface Answer {
  status: number
  type: string
  body: string | Buffer
}

const DECAP_DIST = dirname(createRequire(import.meta.url).resolve('decap-cms'))
const BUNDLE_FILE = /^[\w.-]+\.js$/
const LOCAL_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/

const json = (status: number, body: unknown): Answer => ({
  status,
  type: 'application/json; charset=utf-8',
  body: JSON.stringify(body),
})

/**
 * Our module beside Decap: registers the preview of each content type, then starts the CMS. It
 * is the publishing service's editor's preview too, kept there (src/publishing/editor/browser/)
 * and loaded by its address, so both editors show an entry alike.
 */
export const PREVIEW_MODULE = '/src/publishing/editor/browser/preview.tsx'
export const CMS_PREVIEW_PATH = `${CMS_PATH}preview`
export const CMS_CONFIG_ELEMENT_ID = 'cms-config'

function page(config: Record<string, unknown>): string {
  return htmlPage({
    language: 'en',
    title: 'Content manager',
    head: ['<link rel="icon" href="/icon.svg" type="image/svg+xml">'],
    body: `<script>window.CMS_MANUAL_INIT = true</script>
<script src="${CMS_PATH}decap-cms.js"></script>
<script type="application/json" id="${CMS_CONFIG_ELEMENT_ID}">${scriptJson(config)}</script>
<script type="module" src="${PREVIEW_MODULE}"></script>`,
  })
}

/**
 * The CMS's routes for the dev server: `handle` answers what belongs to the CMS and returns
 * undefined for everything else.
 */
export function createCmsRoutes(
  options: CmsBackendOptions & {
    /**
     * The pages of an entry as the site would show them (the dev server renders them with the
     * build's own code): what the preview beside the editor shows.
     */
    previewPages?: (content: SiteContent, files: readonly string[]) => unknown[]
  },
) {
  const backend = createCmsBackend(options)
  return {
    async handle(request: {
      method: string
      pathname: string
      /** The Host header: the editor works on `localhost` or `127.0.0.1` only. */
      host: string | undefined
      /** The Origin header, when the browser sent one. */
      requestOrigin: string | undefined
      body: () => Promise<string>
    }): Promise<Answer | undefined> {
      const { method, pathname } = request
      // A local tool: a page of another site that points a name at this machine gets nothing.
      const host = request.host ?? ''
      if (!LOCAL_HOST.test(host)) return json(403, { error: `the editor runs on localhost only` })
      const origin = `http://${host}`
      if (pathname === CMS_PREVIEW_PATH) {
        if (method !== 'POST') return json(405, { error: 'expected POST' })
        if (request.requestOrigin !== undefined && request.requestOrigin !== origin)
          return json(403, { error: `requests from ${request.requestOrigin} are not allowed` })
        let body: { files?: unknown }
        try {
          body = JSON.parse(await request.body())
        } catch {
          return json(400, { error: 'expected a JSON body' })
        }
        if (!Array.isArray(body.files)) return json(400, { error: 'expected files' })
        try {
          const preview = await backend.preview(body.files as { path: string; data: unknown }[])
          const pages =
            preview.content && options.previewPages
              ? options.previewPages(preview.content, preview.files)
              : []
          return json(200, { pages, problems: preview.problems })
        } catch (error) {
          return json(400, { error: error instanceof Error ? error.message : String(error) })
        }
      }
      if (pathname === CMS_API_PATH) {
        // Only the editor on this server may write: a page elsewhere cannot reach the store.
        if (method !== 'POST') return json(405, { error: 'expected POST' })
        if (request.requestOrigin !== undefined && request.requestOrigin !== origin)
          return json(403, { error: `requests from ${request.requestOrigin} are not allowed` })
        let body: unknown
        try {
          body = JSON.parse(await request.body())
        } catch {
          return json(400, { error: 'expected a JSON body' })
        }
        const answer = await backend.handle(body)
        return json(answer.status, answer.body)
      }
      if (pathname === CMS_PATH.slice(0, -1) || pathname === CMS_PATH) {
        const { documents } = await createFileStore(options.contentDir).read()
        const config = cmsConfig(origin, documents)
        return { status: 200, type: 'text/html; charset=utf-8', body: page(config) }
      }
      if (pathname.startsWith(CMS_PATH)) {
        const name = pathname.slice(CMS_PATH.length)
        if (!BUNDLE_FILE.test(name)) return undefined
        try {
          const body = await readFile(join(DECAP_DIST, name))
          return { status: 200, type: 'text/javascript; charset=utf-8', body }
        } catch {
          return undefined
        }
      }
      return undefined
    },
  }
}
