import { createHash } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readBuildConfig } from '../../../../src/engine/config'
import {
  precacheManifest,
  writeServiceWorker,
} from '../../../../src/engine/site-files/service-worker'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

let out: string
const md5 = (text: string) => createHash('md5').update(text).digest('hex')

beforeAll(async () => {
  out = await temporaryFolder('sw-')
  await mkdir(join(out, 'assets/fonts'), { recursive: true })
  await mkdir(join(out, 'en/about'), { recursive: true })
  await mkdir(join(out, 'rates/mastercard/0123456789'), { recursive: true })
  const files: Record<string, string> = {
    'assets/entry-abc.js': 'console.log(1)',
    'assets/entry-abc.js.br': 'compressed',
    'assets/entry-abc.css': 'body{}',
    'assets/fonts/inter-x.woff2': 'font',
    'assets/photo-x.png': 'png',
    'manifest-en.webmanifest': '{"name":"en"}',
    'icon.svg': '<svg/>',
    'en/about/index.html': '<html></html>',
    'app.js': 'not an asset',
    // Loaded when a visitor looks at the currency (and then cached), never all ahead.
    'rates/mastercard/0123456789/USD.json': '{"currency":"USD","days":[]}',
  }
  for (const [file, text] of Object.entries(files)) await writeFile(join(out, file), text)
})

afterAll(async () => {
  await removeFolder(out)
})

describe('service worker precache', () => {
  it('holds the app shell: hashed bundles without revision, the rest with a content hash', async () => {
    expect(await precacheManifest(out)).toEqual([
      { url: 'assets/entry-abc.css', revision: null },
      { url: 'assets/entry-abc.js', revision: null },
      { url: 'assets/fonts/inter-x.woff2', revision: null },
      { url: 'icon.svg', revision: md5('<svg/>') },
      { url: 'manifest-en.webmanifest', revision: md5('{"name":"en"}') },
    ])
  })

  it('writes the manifest into the worker in place of self.__WB_MANIFEST', async () => {
    const source = join(out, 'source.js')
    await writeFile(source, 'precacheAndRoute(self.__WB_MANIFEST);')
    const config = { ...readBuildConfig(), outDir: out, serviceWorker: true }
    expect(await writeServiceWorker(config, source)).toBe(5)
    const worker = await readFile(join(out, 'sw.js'), 'utf8')
    expect(worker).toMatch(/^precacheAndRoute\(\[\{"url":"assets\/entry-abc.css","revision":null\}/)
    await writeFile(source, 'precacheAndRoute([]);')
    await expect(writeServiceWorker(config, source)).rejects.toThrow(
      /expected self.__WB_MANIFEST once/,
    )
  })
})
