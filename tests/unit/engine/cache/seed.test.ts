/**
 * A build cache started from another (a publication's workspace from the site's own build):
 * what is written once is linked, what a build rewrites is copied, the other site's own record
 * stays behind, and the first build with it makes no bundle or PDF again.
 */
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { generateContent } from '../../../../bench/generate-content'
import { buildSite } from '../../../../src/engine/build'
import { seedCache } from '../../../../src/engine/cache/seed'
import { readBuildConfig } from '../../../../src/engine/config'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

let dir: string

beforeAll(async () => {
  dir = await temporaryFolder('seed-')
  await generateContent(join(dir, 'content'), 40)
})

afterAll(async () => {
  await removeFolder(dir)
})

const configFor = (name: string) =>
  readBuildConfig({
    CONTENT_DIR: join(dir, 'content'),
    OUT_DIR: join(dir, name),
    BUILD_CACHE_DIR: join(dir, `cache-${name}`),
    SITE_URL: 'https://bank.example',
  })

it('starts a cache from another: the first build with it bundles nothing and writes no PDF again, and renders every page', async () => {
  const site = configFor('site')
  await buildSite(site)
  const workspace = configFor('workspace')
  await seedCache(site.cacheDir, workspace.cacheDir)

  const entries = await readdir(workspace.cacheDir)
  expect(entries).toEqual(expect.arrayContaining(['bundles', 'documents']))
  // The other output's freshness stamp stays with it.
  expect(entries).not.toContain('stamp')
  const pdfs = await readdir(join(workspace.cacheDir, 'documents'))
  expect(pdfs.length).toBeGreaterThan(0)
  const pdf = pdfs[0] ?? ''
  const inode = async (config: typeof site, ...path: string[]) =>
    (await stat(join(config.cacheDir, ...path))).ino
  // Written once: the same file in both caches.
  expect(await inode(workspace, 'documents', pdf)).toBe(await inode(site, 'documents', pdf))
  // Rewritten by builds: a copy of its own, so nothing is written through into the other.
  const markdown = entries.find((name) => name.startsWith('markdown-')) ?? ''
  expect(markdown).not.toBe('')
  expect(await inode(workspace, markdown)).not.toBe(await inode(site, markdown))

  const report = await buildSite(workspace)
  expect(report.bundlesReused).toBe(true)
  // Its page record names the other site: no page of a new folder is taken as reused.
  expect(report.pagesReused).toBe(0)
  // Its PDFs are the site's cached ones, not made again.
  const built = await readdir(join(workspace.outDir), { recursive: true })
  const builtPdf = built.find((path) => path.endsWith('.pdf')) ?? ''
  expect((await stat(join(workspace.outDir, builtPdf))).nlink).toBeGreaterThan(2)
  // And the other cache is as it was.
  await writeFile(join(workspace.cacheDir, markdown), '{}')
  expect(await readFile(join(site.cacheDir, markdown), 'utf8')).not.toBe('{}')
})

it('links the pages of the site it came from when told that site is the last one, as a first release does', async () => {
  const site = configFor('site')
  await buildSite(site)
  const release = configFor('release')
  await seedCache(site.cacheDir, release.cacheDir)
  const report = await buildSite({ ...release, previousSite: site.outDir })
  expect(report.pagesReused).toBe(report.pages - 2)
  const about = 'en/about/index.html'
  const [a, b] = await Promise.all([
    stat(join(site.outDir, about)),
    stat(join(release.outDir, about)),
  ])
  expect(b.ino).toBe(a.ino)
})

it('starts an empty cache when the other has none yet', async () => {
  const to = join(dir, 'cache-empty')
  expect(await seedCache(join(dir, 'cache-none'), to)).toBe(true)
  expect(await readdir(to)).toEqual([])
})

it('is whole or not there: a cache that appeared meanwhile is left as it is, and nothing half-made stays beside it', async () => {
  const site = configFor('site')
  const to = join(dir, 'cache-raced')
  await mkdir(to)
  await writeFile(join(to, 'theirs'), 'another build seeded first')
  expect(await seedCache(site.cacheDir, to)).toBe(false)
  expect(await readdir(to)).toEqual(['theirs'])
  expect((await readdir(dir)).filter((name) => name.includes('.seeding-'))).toEqual([])
})
