import { type ChildProcess, spawn } from 'node:child_process'
import { get as httpGet } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../../src/engine/config'
import { DRAWING_CONTENT_SECURITY_POLICY } from '../../../src/shared/http-headers'
import type { LayoutData, PageData } from '../../../src/shared/types'
import { freePort } from '../../support/free-port'

/** The dev server's address: a port of its own, so two runs side by side do not collide. */
let base = ''
let server: ChildProcess

/** One request on a fresh connection: no keep-alive socket the server may close meanwhile. */
function fetch(url: string): Promise<{
  status: number
  ok: boolean
  headers: NodeJS.Dict<string | string[]>
  text(): Promise<string>
  json(): Promise<unknown>
}> {
  return new Promise((resolve, reject) => {
    httpGet(url, { agent: false }, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk) => {
        body += chunk
      })
      response.on('end', () => {
        const status = response.statusCode ?? 0
        resolve({
          status,
          ok: status >= 200 && status < 300,
          headers: response.headers,
          text: async () => body,
          json: async () => JSON.parse(body),
        })
      })
    }).on('error', reject)
  })
}

beforeAll(async () => {
  const port = await freePort()
  base = `http://localhost:${port}`
  server = spawn(process.execPath, ['scripts/run.mjs', 'dev'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port) },
    stdio: 'ignore',
  })
  for (let attempt = 0; attempt < 500; attempt += 1) {
    try {
      if ((await fetch(`${base}/page-data/app-data.json`)).ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('the dev server did not start')
})

afterAll(() => {
  server.kill()
})

describe('dev server (npm run dev)', () => {
  it('renders the same routes as the build, with hot reload', async () => {
    const response = await fetch(`${base}/de/services/cards/`)
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(html).toContain('<html lang="de">')
    expect(html).toContain('/@vite/client')
    expect(html).toContain('/@react-refresh')
    expect(html).toContain('<script type="module" src="/src/runtime/entry.tsx"></script>')
    // The first page Vite renders transforms every module of the site: a second or two, more
    // when the machine is busy.
  }, 90_000)

  it("serves Vite's client and React Refresh, which the pages load for hot reload", async () => {
    for (const path of ['/@vite/client', '/@react-refresh']) {
      const response = await fetch(`${base}${path}`)
      expect(response.status, path).toBe(200)
      expect(await response.text(), path).toMatch(/import|export/)
    }
  })

  it('serves page data and shared data on the protocol paths', async () => {
    const page = (await (
      await fetch(`${base}/page-data/en/about/page-data.json`)
    ).json()) as PageData
    expect(page).toMatchObject({ path: '/en/about/', componentChunkName: 'page' })
    const shared = await fetch(`${base}/page-data/sq/d/${page.staticQueryHashes[0]}.json`)
    expect(((await shared.json()) as LayoutData).language).toBe('en')
  })

  it('serves drawings, its icon and the editors’ alike, in a sandbox', async () => {
    for (const path of ['/icon.svg', '/images/blog/kyc-methods-compared.svg']) {
      const response = await fetch(`${base}${path}`)
      expect(response.status, path).toBe(200)
      expect(response.headers['content-type'], path).toMatch(/^image\/svg\+xml/)
      expect(response.headers['content-security-policy'], path).toBe(
        DRAWING_CONTENT_SECURITY_POLICY,
      )
    }
  })

  it('answers unknown paths with the 404 page of their language', async () => {
    const response = await fetch(`${base}/de/gibt-es-nicht/`)
    expect(response.status).toBe(404)
    expect(await response.text()).toContain('<html lang="de">')
    // Beside the CMS's /admin/, other /admin… paths are the site's.
    const beside = await fetch(`${base}/administration/`)
    expect(beside.status).toBe(404)
    expect(await beside.text()).toContain('<html lang="en">')
    expect((await fetch(`${base}/admin/`)).status).toBe(200)
  })
})
