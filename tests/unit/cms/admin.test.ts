import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createCmsRoutes } from '../../../src/cms/admin'
import { ROOT } from '../../../src/engine/config'

const routes = createCmsRoutes({
  contentDir: join(ROOT, 'content'),
  publicDir: join(ROOT, 'public'),
})

const request = (overrides: Partial<Parameters<typeof routes.handle>[0]>) =>
  routes.handle({
    method: 'GET',
    pathname: '/admin/',
    host: 'localhost:5173',
    requestOrigin: undefined,
    body: async () => '',
    ...overrides,
  })

describe('CMS routes of the dev server', () => {
  it('serves the editor with its configuration and the Decap bundle', async () => {
    const page = await request({})
    expect(page?.status).toBe(200)
    const html = String(page?.body)
    expect(html).toContain('<meta name="robots" content="noindex">')
    expect(html).toContain('<script src="/admin/decap-cms.js"></script>')
    expect(html).toContain('"proxy_url":"http://localhost:5173/admin/api/v1"')
    // The preview's module starts the CMS once it has registered the previews.
    expect(html).toContain(
      '<script type="module" src="/src/publishing/editor/browser/preview.tsx"></script>',
    )
    const bundle = await request({ pathname: '/admin/decap-cms.js' })
    expect(bundle?.type).toMatch(/javascript/)
    expect(await request({ pathname: '/admin/../package.json' })).toBeUndefined()
  })

  it('answers the backend protocol for the editor on this server', async () => {
    const answer = await request({
      method: 'POST',
      pathname: '/admin/api/v1',
      requestOrigin: 'http://localhost:5173',
      body: async () => JSON.stringify({ action: 'info', params: {} }),
    })
    expect(answer?.status).toBe(200)
    expect(JSON.parse(String(answer?.body))).toMatchObject({ type: 'local_fs' })
  })

  it('refuses other sites, other host names and malformed requests', async () => {
    const info = async () => JSON.stringify({ action: 'info' })
    const fromElsewhere = await request({
      method: 'POST',
      pathname: '/admin/api/v1',
      requestOrigin: 'https://attacker.example',
      body: info,
    })
    expect(fromElsewhere?.status).toBe(403)
    // A name of another site pointed at this machine (DNS rebinding) gets nothing either.
    const rebound = await request({
      method: 'POST',
      pathname: '/admin/api/v1',
      host: 'attacker.example:5173',
      requestOrigin: 'http://attacker.example:5173',
      body: info,
    })
    expect(rebound?.status).toBe(403)
    expect((await request({ pathname: '/admin/api/v1' }))?.status).toBe(405)
    const garbled = await request({
      method: 'POST',
      pathname: '/admin/api/v1',
      body: async () => '{',
    })
    expect(garbled).toMatchObject({ status: 400 })
  })
})
