import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { link, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { join, sep } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse, stringify } from 'yaml'
import { generateContent } from '../../../bench/generate-content'
import { buildSite } from '../../../src/engine/build'
import { inputHash, isFresh } from '../../../src/engine/cache/stamp'
import { ROOT, readBuildConfig } from '../../../src/engine/config'
import { nginxConfig } from '../../../src/engine/site-files/nginx-block'
import { KILL_SWITCH_WORKER } from '../../../src/engine/site-files/service-worker'
import { readSitePolicy } from '../../../src/http/static-files'
import { createApp } from '../../../src/server/app'
import { HOST_HEADERS_FILE } from '../../../src/shared/http-headers'
import type { SearchIndex } from '../../../src/shared/search/format'
import { nginxHeaders, staticHostHeaders } from '../../support/host-config'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

const run = promisify(execFile)
let dir: string

beforeAll(async () => {
  dir = await temporaryFolder('build-')
  await generateContent(join(dir, 'content'), 120)
})

afterAll(async () => {
  await removeFolder(dir)
})

const configFor = (name: string, env: Record<string, string> = {}) =>
  readBuildConfig({
    CONTENT_DIR: join(dir, 'content'),
    OUT_DIR: join(dir, name),
    BUILD_CACHE_DIR: join(dir, 'cache'),
    SITE_URL: 'https://bank.example',
    ...env,
  })

describe('build', () => {
  it('with the kill switch ships a worker that removes itself, and tells the runtime', async () => {
    const config = configFor('dist-killed', { SERVICE_WORKER: 'off' })
    await buildSite(config)
    expect(await readFile(join(config.outDir, 'sw.js'), 'utf8')).toBe(KILL_SWITCH_WORKER)
    const html = await readFile(join(config.outDir, 'en', 'about', 'index.html'), 'utf8')
    expect(html).toContain('"serviceWorker":false')
    expect(html).toContain('<link rel="canonical" href="https://bank.example/en/about/">')
  })

  it('knows when dist/ is stale: a content edit changes the input hash', async () => {
    const config = configFor('dist-stamp')
    await buildSite(config)
    const before = await inputHash(config)
    expect(await isFresh(config, before)).toBe(true)
    const file = join(config.contentDir, 'en', 'pages', 'about.yaml')
    const original = await readFile(file, 'utf8')
    await writeFile(file, original.replace('title:', 'title: Changed'))
    const after = await inputHash(config)
    expect(after).not.toBe(before)
    expect(await isFresh(config, after)).toBe(false)
    await writeFile(file, original)
    expect(await inputHash(config)).toBe(before)
    await rm(config.outDir, { recursive: true })
    expect(await isFresh(config, before)).toBe(false)
  })

  it('with its cache saves deferred, returns with the site in place and the caches to come', async () => {
    const config = { ...configFor('dist-deferred'), deferCacheSaves: true }
    const first = await buildSite(config)
    expect(await readFile(join(config.outDir, 'en', 'about', 'index.html'), 'utf8')).toContain(
      '<html',
    )
    await first.cacheSaved
    // Written whole: the stamp names this site, and the next build links what it left alone.
    expect(await isFresh(config, await inputHash(config))).toBe(true)
    const second = await buildSite(config)
    await second.cacheSaved
    expect(second.pagesReused).toBeGreaterThan(first.pages - 10)
    // Not deferred, the caches are written when the build returns.
    const plain = configFor('dist-deferred')
    const third = await buildSite(plain)
    expect(await isFresh(plain, await inputHash(plain))).toBe(true)
    await expect(third.cacheSaved).resolves.toBeUndefined()
  })

  it('reuses the bundles, renderings and PDFs of unchanged code and texts, and renders changes', async () => {
    const config = configFor('dist-again')
    const page = () => readFile(join(config.outDir, 'en/services/cards/index.html'), 'utf8')
    const pdf = () =>
      readFile(
        join(
          config.outDir,
          'documents/customer-information/germany-de-iban-german-depositor-information-sheet-en.pdf',
        ),
      )
    const first = await buildSite(config)
    const [firstPage, firstPdf] = await Promise.all([page(), pdf()])
    expect(first.bundlesReused).toBe(false)

    // The bundle cache holds the bundle and the public files, not what other steps write.
    const cached = await readdir(join(config.cacheDir, 'bundles'), { recursive: true })
    expect(cached.some((name) => name.includes('assets'))).toBe(true)
    expect(
      cached.filter((name) => /(^|\/)(documents|images\/_|images\/cards)\//.test(name)),
    ).toEqual([])

    const second = await buildSite(config)
    expect(second.bundlesReused).toBe(true)
    expect(second.buildHash).toBe(first.buildHash)
    expect(await page()).toBe(firstPage)
    expect(Buffer.compare(await pdf(), firstPdf)).toBe(0)
    // The build writes no compressed twins, the bundles' neither: they come after it (twins.ts).
    const asset = / data-entry="([^"]+)"/.exec(firstPage)?.[1] ?? ''
    expect((await readFile(join(config.outDir, asset))).length).toBeGreaterThan(0)
    expect(existsSync(join(config.outDir, `${asset}.br`))).toBe(false)

    const file = join(config.contentDir, 'en/pages/services/cards.yaml')
    const original = await readFile(file, 'utf8')
    await writeFile(file, stringify({ ...parse(original), whatItIs: 'A **changed** text.' }))
    try {
      const third = await buildSite(config)
      expect(third.bundlesReused).toBe(true)
      expect(await page()).toContain('A <strong>changed</strong> text.')
    } finally {
      await writeFile(file, original)
    }
  })

  it('makes the bundles of a version of the code once, beside the programs, for every build of that code whatever its cache', async () => {
    // The programs of one version of the code, each in a folder of its own (scripts/run.mjs).
    const programs = join(dir, 'programs')
    const shared = (name: string) =>
      configFor(name, {
        SITE_PROGRAMS_DIR: join(programs, 'build'),
        BUILD_CACHE_DIR: join(dir, `cache-${name}`),
      })
    // Two builds of code never bundled, at once: each bundles into a folder of its own, one
    // is renamed into place, and both sites get a whole bundle.
    const [a, b] = [shared('dist-shared-a'), shared('dist-shared-b')]
    const [first, second] = await Promise.all([buildSite(a), buildSite(b)])
    expect(first.buildHash).toBe(second.buildHash)
    const versions = await readdir(join(programs, 'bundles'))
    expect(versions).toHaveLength(1)
    expect(await readdir(a.cacheDir)).not.toContain('bundles')

    // A build from an empty cache links them and bundles nothing.
    const c = shared('dist-shared-c')
    const third = await buildSite(c)
    expect(third.bundlesReused).toBe(true)
    expect(third.buildHash).toBe(first.buildHash)
    const page = await readFile(join(c.outDir, 'en/about/index.html'), 'utf8')
    const entry = / data-entry="([^"]+)"/.exec(page)?.[1] ?? ''
    const kept = join(programs, 'bundles', versions[0] ?? '', 'client', entry)
    const [linked, original] = await Promise.all([stat(join(c.outDir, entry)), stat(kept)])
    expect(linked.ino).toBe(original.ino)
  })

  it('links the pages an edit left as they were from the last site, renders the others, and never writes into the last site', async () => {
    const config = configFor('dist-reuse')
    const at = (path: string) => join(config.outDir, path)
    const cards = 'en/services/cards/index.html'
    const first = await buildSite(config)
    expect(first.pagesReused).toBe(0)
    const about = await stat(at('en/about/index.html'))

    // Held apart: the last site's file of the page about to change.
    const held = join(dir, 'held-cards.html')
    await link(at(cards), held)
    const before = await readFile(held, 'utf8')
    const file = join(config.contentDir, 'en/pages/services/cards.yaml')
    const original = await readFile(file, 'utf8')
    await writeFile(file, stringify({ ...parse(original), whatItIs: 'A **linked** text.' }))
    try {
      const second = await buildSite(config)
      expect(second.pagesReused).toBeGreaterThan(first.pages - 10)
      expect(second.pagesReused).toBeLessThan(first.pages)
      expect(await readFile(at(cards), 'utf8')).toContain('A <strong>linked</strong> text.')
      expect(await readFile(held, 'utf8')).toBe(before)
      // The same file as before; pages get no compressed twins (servers compress them).
      expect((await stat(at('en/about/index.html'))).ino).toBe(about.ino)
      expect(await readdir(at('en/about'))).toEqual(['index.html'])

      // Files of the last site gone: those pages are rendered again.
      await rm(at('page-data/en/about/page-data.json'))
      const third = await buildSite(config)
      expect(third.pagesReused).toBe(first.pages - 3)
      expect(JSON.parse(await readFile(at('page-data/en/about/page-data.json'), 'utf8')).path).toBe(
        '/en/about/',
      )

      // A site another build wrote: everything is rendered.
      await writeFile(at('.pages'), 'another build')
      expect((await buildSite(config)).pagesReused).toBe(0)
    } finally {
      await writeFile(file, original)
      await rm(held)
    }
    // A setting every page embeds: everything is rendered.
    const moved = readBuildConfig({
      CONTENT_DIR: config.contentDir,
      OUT_DIR: config.outDir,
      BUILD_CACHE_DIR: join(dir, 'cache'),
      SITE_URL: 'https://moved.example',
    })
    expect((await buildSite(moved)).pagesReused).toBe(0)
    expect(await readFile(at(cards), 'utf8')).toContain('https://moved.example/en/services/cards/')
  })

  it('after an edit, has every file the change left alone as the last site’s own (linked, not written again), the search index’s unchanged files too', async () => {
    const config = configFor('dist-links', { BUILD_CACHE_DIR: join(dir, 'cache-links') })
    /** Each file of the site: its inode and its bytes. */
    const files = async () => {
      const found = new Map<string, { ino: number; bytes: Buffer }>()
      for (const entry of await readdir(config.outDir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile()) continue
        const path = join(entry.parentPath, entry.name)
        found.set(path.slice(config.outDir.length + 1), {
          ino: (await stat(path)).ino,
          bytes: await readFile(path),
        })
      }
      return found
    }
    await buildSite(config)
    const last = await files()
    const versionOf = async (language: string) =>
      (
        JSON.parse(
          await readFile(join(config.outDir, `search/${language}/index.json`), 'utf8'),
        ) as SearchIndex
      ).version
    const lastVersion = await versionOf('en')
    // Written by the build itself: a PDF lives once, in the cache, linked into the site.
    const pdf = [...last.keys()].find((path) => path.endsWith('.pdf'))
    expect(pdf).toBeDefined()
    expect((await stat(join(config.outDir, pdf ?? ''))).nlink).toBeGreaterThan(1)

    const file = join(config.contentDir, 'en/pages/services/cards.yaml')
    const original = await readFile(file, 'utf8')
    await writeFile(file, stringify({ ...parse(original), whatItIs: 'A **linked** text.' }))
    try {
      await buildSite(config)
    } finally {
      await writeFile(file, original)
    }
    const next = await files()
    const newVersion = await versionOf('en')
    expect(newVersion).not.toBe(lastVersion)
    /** Where the last site had the file: the same path, or the search index's last version. */
    const lastOf = (path: string) =>
      last.get(path) ??
      last.get(path.replace(`search/en/${newVersion}/`, `search/en/${lastVersion}/`))
    // Made anew by every build: the worker with its precache list, the hosts'
    // headers and redirects, the site's id.
    const everyBuild = new Set([
      'sw.js',
      '_headers',
      '_headers.json',
      '_redirects',
      '_redirects.json',
      '.pages',
    ])
    const copied: string[] = []
    let linked = 0
    for (const [path, { ino, bytes }] of next) {
      const before = lastOf(path)
      if (!before?.bytes.equals(bytes) || everyBuild.has(path)) continue
      if (before.ino === ino) linked += 1
      else copied.push(path)
    }
    expect(copied).toEqual([])
    expect(linked).toBeGreaterThan(next.size * 0.9)
    // The search index of the edited language: a new version, most of its files the last one's.
    const searchLinked = [...next].filter(
      ([path, { ino }]) => path.startsWith(`search/en/${newVersion}/`) && lastOf(path)?.ino === ino,
    )
    expect(searchLinked.length).toBeGreaterThan(0)
  })

  it('writes the same search index after an edit as from scratch, taking linked pages’ text from the cache or their files', async () => {
    const config = configFor('dist-search', { BUILD_CACHE_DIR: join(dir, 'cache-search') })
    const index = async () =>
      JSON.parse(await readFile(join(config.outDir, 'search/en/index.json'), 'utf8')) as SearchIndex
    await buildSite(config)
    const file = join(config.contentDir, 'en/pages/services/cards.yaml')
    const original = await readFile(file, 'utf8')
    await writeFile(file, stringify({ ...parse(original), whatItIs: 'Zanzibar sandpipers.' }))
    try {
      const edited = await buildSite(config)
      expect(edited.pagesReused).toBeGreaterThan(edited.pages - 10)
      const incremental = await index()
      expect(incremental.terms).toContain('zanzibar')
      // Without the cache, the linked pages' text is read from their files.
      await rm(join(config.cacheDir, 'search'), { recursive: true })
      expect((await buildSite(config)).pagesReused).toBeGreaterThan(edited.pages - 10)
      expect(await index()).toEqual(incremental)
      // From scratch: the same index.
      await rm(join(dir, 'cache-search'), { recursive: true })
      await rm(config.outDir, { recursive: true })
      await buildSite(config)
      const scratch = await index()
      expect(scratch).toEqual(incremental)
      const [page] = scratch.urls.map((url, n) => ({ url, n }))
      expect(page).toBeDefined()
      const text = await readFile(
        join(config.outDir, `search/en/${scratch.version}/p${page?.n}.json`),
        'utf8',
      )
      expect(JSON.parse(text).url).toBe(page?.url)
    } finally {
      await writeFile(file, original)
    }
  })

  it('swaps the new site in whole and removes the last one after, as well as any a stopped build left', async () => {
    const config = configFor('dist-swap')
    const leftOver = `${config.outDir}.old-1-stopped`
    await mkdir(leftOver, { recursive: true })
    await writeFile(join(leftOver, 'index.html'), 'an old page')
    await buildSite(config)
    await buildSite(config)
    expect(await readFile(join(config.outDir, 'en/index.html'), 'utf8')).toContain('<h1')
    const oldSites = async () =>
      (await readdir(dir)).filter((name) => name.startsWith('dist-swap.old-'))
    await expect.poll(oldSites, { timeout: 10_000 }).toEqual([])
  })

  it('has every drawing it writes served in a sandbox, by npm start, _headers and nginx alike', async () => {
    // The site's own content: its posts' covers are drawings.
    const config = configFor('dist-drawings', { CONTENT_DIR: join(ROOT, 'content') })
    await buildSite(config)
    const drawings = (await readdir(config.outDir, { recursive: true }))
      .filter((file) => file.endsWith('.svg'))
      .map((file) => `/${file.split(sep).join('/')}`)
    // The icon, the editors' drawings as uploaded, and their hashed copies the pages show.
    expect(drawings).toContain('/icon.svg')
    expect(drawings.some((path) => path.startsWith('/images/blog/'))).toBe(true)
    expect(drawings.some((path) => path.startsWith('/images/_/'))).toBe(true)
    const headersFile = await readFile(join(config.outDir, HOST_HEADERS_FILE), 'utf8')
    const nginx = nginxConfig(await readSitePolicy(config.outDir, { required: true }), {
      root: config.outDir,
    })
    const app = await createApp({ root: config.outDir, logLevel: 'silent' })
    /** A policy that runs no script and loads nothing. */
    const sandboxes = (policy: string) =>
      /(^|;)\s*sandbox\s*(;|$)/.test(policy) && /(^|;)\s*default-src 'none'\s*(;|$)/.test(policy)
    const policies = (lines: string[]) =>
      lines.flatMap((line) => /^Content-Security-Policy: (.*)$/i.exec(line)?.[1] ?? [])
    try {
      for (const drawing of drawings) {
        const answer = await app.inject(drawing)
        expect(answer.statusCode, drawing).toBe(200)
        const served = {
          'npm start': [String(answer.headers['content-security-policy'])],
          _headers: policies(staticHostHeaders(headersFile, drawing)),
          nginx: policies(nginxHeaders(nginx, drawing)),
        }
        for (const [host, found] of Object.entries(served))
          expect(found.some(sandboxes), `${drawing} from ${host}: ${found.join(' | ')}`).toBe(true)
      }
    } finally {
      await app.close()
    }
  })

  it('stops on a content error, naming file and field, and writes nothing', async () => {
    const content = join(dir, 'broken')
    await generateContent(content, 120)
    await writeFile(join(content, 'de', 'pages', 'press.yaml'), 'title: 7\ndescription: Presse\n')
    const outDir = join(dir, 'dist-broken')
    const result = await run(process.execPath, ['scripts/run.mjs', 'build'], {
      cwd: ROOT,
      env: {
        ...process.env,
        CONTENT_DIR: content,
        OUT_DIR: outDir,
        BUILD_CACHE_DIR: join(dir, 'cache'),
      },
    }).catch((error: { code: number; stderr: string }) => error)
    expect('code' in result && result.code).toBe(1)
    expect(result.stderr).toContain(
      `${content}/de/pages/press.yaml › title: expected the page title as text`,
    )
    expect(result.stderr).toContain(
      `${content}/de/pages/press.yaml › intro: expected the introduction as text`,
    )
    await expect(readFile(join(outDir, 'index.html'))).rejects.toThrow()
  })
})
