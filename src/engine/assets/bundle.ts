/**
 * Bundles the browser runtime, the server renderer and the service worker with Vite.
 * The three builds are independent, so they run side by side.
 *
 * The bundles depend on the code only, never on content: they are kept in the build cache under
 * a hash of the code, and a build whose code is unchanged (an editor's content change) reuses
 * them without loading Vite at all.
 */
import { createHash } from 'node:crypto'
import { access, mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { dirname, isAbsolute, join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { InlineConfig, Manifest } from 'vite'
import type { BootData, BuildResources } from '../../shared/types'
import { placeFile, placeTree } from '../cache/place-file'
import { filesUnder, hashFiles } from '../cache/stamp'
import type { BuildConfig } from '../config'
import {
  BOOT_ENTRY,
  CLIENT_ENTRY,
  SERVER_ENTRY,
  SERVICE_WORKER_ENTRY,
  templateSource,
} from '../entries'
import type { PageAssets } from '../pages/html-document'
import { contentHash } from '../pages/page-data'
import { type Timeline, untimed } from '../timeline'

/** What the server bundle exports (src/site/server.tsx). */
export interface ServerRenderer {
  prepare(): Promise<void>
  renderPage(boot: Pick<BootData, 'page' | 'staticQueries'>, resources?: BuildResources): string
}

export interface Bundle {
  /** Hash of the client bundle: `webpackCompilationHash` of app-data.json. */
  buildHash: string
  /** Hash of the code the bundles and the build are made of (`src/`, `public/`, the lockfile). */
  codeVersion: string
  renderer: ServerRenderer
  assetsFor(template: string): PageAssets
  /** Path of the bundled service worker, before its precache manifest is injected. */
  serviceWorkerSource: string
  /** True when the code was unchanged and the bundles came from the cache. */
  cached: boolean
  /** Keeps the client files, with their compressed twins, for the next build of the same code. */
  keep(): Promise<void>
}

/**
 * How the client code is cut into files. Left to itself, the bundler makes a file of every
 * module that two templates share: a content page loaded 12 files, and one client navigation
 * fetched four chunks of 0.3 KB that each carried 0.5 KB of response headers. So:
 * - React is a file of its own, which stays cached from one deploy to the next;
 * - the small components and helpers the templates share are one file, loaded with the first
 *   page, so a navigation fetches the target's template and its data only. The heavy ones
 *   (forms, exchange rates, the consent banner, search, the blog's lists) keep their own
 *   chunks, loaded where used.
 */
const CHUNK_GROUPS = [
  { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 2 },
  {
    name: 'components',
    test: /[\\/]src[\\/](site[\\/](format\.ts|templates[\\/]\w+\.module\.css|components[\\/](?!form[\\/]|rates[\\/]|consent-banner[\\/]|search[\\/]|blog-list[\\/]))|shared[\\/](intl-formats|connection)\.ts)/,
    priority: 1,
    minShareCount: 2,
  },
]

const MANIFEST_FILE = '.vite/manifest.json'
/** Beside the cached bundles: what each client chunk is made of, for `npm run bench`. */
export const CHUNK_REPORT = 'chunks.json'
/** Chunk file → module path (relative to the project) → its characters before minifying. */
export type ChunkReport = Record<string, Record<string, number>>
const COMPLETE = 'complete'
/** Bundles of this many code versions stay in the cache (switching branches back and forth). */
const KEPT_VERSIONS = 3
/** The manifest's key of the one stylesheet of the site (`cssCodeSplit: false`). */
const SITE_STYLESHEET = 'style.css'
/**
 * The font files preloaded by every page: Inter's Latin subset (src/site/styles/fonts.css), which
 * all English and German text needs. Other subsets load only where a page uses their letters.
 */
const PRELOADED_FONT = /\/inter-latin-wght-normal-[\w-]+\.woff2$/

/** A hash of everything the bundles are made of: code, public files, locked dependencies. */
export async function codeHash(root: string): Promise<string> {
  const hash = createHash('sha256')
  const files = [
    ...(await filesUnder(join(root, 'src'))),
    ...(await filesUnder(join(root, 'public'))),
    join(root, 'package-lock.json'),
  ]
  await hashFiles(hash, files, (file) => relative(root, file))
  // React's production and development builds differ (a bundle made under NODE_ENV=test
  // imports jsxDEV, which the production runtime has not).
  hash.update(`NODE_ENV=${process.env.NODE_ENV ?? ''}\n`)
  return hash.digest('hex').slice(0, 24)
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  )

async function pruneCache(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [])
  const versions = await Promise.all(
    names.map(async (name) => ({
      name,
      time: (await stat(join(dir, name, COMPLETE)).catch(() => undefined))?.mtimeMs ?? 0,
    })),
  )
  versions.sort((a, b) => b.time - a.time)
  await Promise.all(
    versions
      .slice(KEPT_VERSIONS)
      .map(({ name }) => rm(join(dir, name), { recursive: true, force: true })),
  )
}

/**
 * The renderer (server.js, in the cache) imports React and the rest from `node_modules` by
 * Node's search up its folders: a cache outside the project (`BUILD_CACHE_DIR`) is given a link
 * to the project's, beside the bundles.
 */
async function linkModules(config: BuildConfig): Promise<void> {
  const path = relative(config.root, config.cacheDir)
  if (!path.startsWith('..') && !isAbsolute(path)) return
  await mkdir(config.cacheDir, { recursive: true })
  await symlink(
    join(config.root, 'node_modules'),
    join(config.cacheDir, 'node_modules'),
    'dir',
  ).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error
  })
}

/** `onClientWritten` receives the client bundle's files as soon as they are on disk. */
export async function bundle(
  config: BuildConfig,
  onClientWritten: (files: string[]) => void = () => {},
  { measure }: Pick<Timeline, 'measure'> = untimed,
): Promise<Bundle> {
  const versionsDir = join(config.cacheDir, 'bundles')
  await linkModules(config)
  const codeVersion = await codeHash(config.root)
  const version = join(versionsDir, codeVersion)
  const serverOut = join(version, 'server')
  const workerOut = join(version, 'sw')
  const clientCache = join(version, 'client')
  const manifestCache = join(version, 'manifest.json')

  if (await exists(join(version, COMPLETE))) {
    await placeTree(clientCache, config.outDir)
    const manifestJson = await readFile(manifestCache, 'utf8')
    return finish(manifestJson, true, async () => {})
  }

  await rm(version, { recursive: true, force: true })
  let bundleFiles: string[] = []
  /** Per client chunk, each module's share in characters before minifying (the bench's report). */
  const chunks: ChunkReport = {}
  const { build } = await measure('bundle: load Vite', () => import('vite'))
  const { baseViteConfig } = await import('./vite-config')
  const base = baseViteConfig(config)
  const client: InlineConfig = {
    ...base,
    plugins: [
      ...(base.plugins ?? []),
      {
        name: 'site:client-written',
        generateBundle(_options, output) {
          for (const chunk of Object.values(output)) {
            if (chunk.type !== 'chunk') continue
            chunks[chunk.fileName] = Object.fromEntries(
              Object.entries(chunk.modules).map(([id, module]) => [
                relative(config.root, id),
                module.renderedLength,
              ]),
            )
          }
        },
        writeBundle(_options, output) {
          bundleFiles = Object.keys(output).map((file) => join(config.outDir, file))
          onClientWritten(bundleFiles)
        },
      },
    ],
    publicDir: join(config.root, 'public'),
    build: {
      outDir: config.outDir,
      emptyOutDir: false,
      manifest: MANIFEST_FILE,
      target: 'es2022',
      modulePreload: {
        polyfill: false,
        // A chunk loaded later needs the entry, which is always there before it (the boot
        // script imports it first): preloading it again added a <link rel=modulepreload> for a
        // module already run, which Firefox answers with an error event.
        resolveDependencies: (_file, dependencies) =>
          dependencies.filter((dependency) => !/(^|\/)entry-[\w-]+\.js$/.test(dependency)),
      },
      // One stylesheet for the whole site (about 5 KB compressed): a page waits for one file
      // instead of one per template and component, and client navigation loads no CSS.
      cssCodeSplit: false,
      reportCompressedSize: false,
      rolldownOptions: {
        input: { entry: join(config.root, CLIENT_ENTRY), boot: join(config.root, BOOT_ENTRY) },
        output: { codeSplitting: { groups: CHUNK_GROUPS } },
      },
    },
  }
  const server: InlineConfig = {
    ...base,
    publicDir: false,
    build: {
      ssr: join(config.root, SERVER_ENTRY),
      outDir: serverOut,
      emptyOutDir: true,
      target: 'node20',
      reportCompressedSize: false,
      rolldownOptions: { output: { entryFileNames: 'server.js' } },
    },
  }
  const worker: InlineConfig = {
    ...base,
    plugins: [],
    publicDir: false,
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      outDir: workerOut,
      emptyOutDir: true,
      target: 'es2022',
      reportCompressedSize: false,
      lib: {
        entry: join(config.root, SERVICE_WORKER_ENTRY),
        formats: ['iife'],
        name: 'serviceWorker',
        fileName: () => 'sw.js',
      },
    },
  }
  await Promise.all([
    measure('bundle: client', () => build(client)),
    measure('bundle: server renderer', () => build(server)),
    measure('bundle: service worker', () => build(worker)),
  ])

  const manifestPath = join(config.outDir, MANIFEST_FILE)
  const manifestJson = await readFile(manifestPath, 'utf8')
  await rm(join(config.outDir, '.vite'), { recursive: true, force: true })
  // What the next build of this code copies instead of bundling: the client bundle and the
  // public files, not the images and documents other steps write beside them meanwhile.
  const publicDir = join(config.root, 'public')
  const publicFiles = (await filesUnder(publicDir)).map((file) =>
    join(config.outDir, relative(publicDir, file)),
  )
  const clientFiles = [...bundleFiles, ...publicFiles]
  return finish(manifestJson, false, async () => {
    for (const file of clientFiles) {
      for (const twin of [file, `${file}.br`, `${file}.gz`]) {
        if (!(await exists(twin))) continue
        const target = join(clientCache, relative(config.outDir, twin))
        // A link, not a copy: neither file is ever changed in place (a build writes new ones).
        await mkdir(dirname(target), { recursive: true })
        await placeFile(twin, target)
      }
    }
    await writeFile(manifestCache, manifestJson)
    await writeFile(join(version, CHUNK_REPORT), JSON.stringify(chunks))
    await writeFile(join(version, COMPLETE), new Date().toISOString())
    await pruneCache(versionsDir)
  })

  async function finish(
    manifestJson: string,
    cached: boolean,
    keep: () => Promise<void>,
  ): Promise<Bundle> {
    const manifest = JSON.parse(manifestJson) as Manifest
    const renderer = await measure('bundle: load renderer', async () => {
      // The plain address, no query to bust a cache: the renderer's chunks import the entry
      // back by it (`../server.js`), and a second instance would have contexts of its own. The
      // folder names the code's version, so one address is always the same code.
      const loaded = (await import(
        pathToFileURL(join(serverOut, 'server.js')).href
      )) as ServerRenderer
      await loaded.prepare()
      return loaded
    })

    const entry = manifest[CLIENT_ENTRY]
    if (!entry) throw new Error(`The client bundle has no entry for ${CLIENT_ENTRY}`)
    const boot = manifest[BOOT_ENTRY]
    if (!boot) throw new Error(`The client bundle has no entry for ${BOOT_ENTRY}`)
    const assetCache = new Map<string, PageAssets>()

    return {
      buildHash: contentHash(manifestJson, 20),
      codeVersion,
      renderer,
      serviceWorkerSource: join(workerOut, 'sw.js'),
      cached,
      keep,
      assetsFor(template) {
        const cached = assetCache.get(template)
        if (cached) return cached
        const key = templateSource(template)
        if (!manifest[key])
          throw new Error(`The client bundle has no chunk for template "${template}" (${key})`)
        const preload = new Set<string>()
        const stylesheet = manifest[SITE_STYLESHEET]?.file
        const styles = new Set<string>(stylesheet ? [`/${stylesheet}`] : [])
        const visit = (name: string, seen: Set<string>) => {
          if (seen.has(name)) return
          seen.add(name)
          const chunk = manifest[name]
          if (!chunk) return
          if (name !== CLIENT_ENTRY) preload.add(`/${chunk.file}`)
          for (const css of chunk.css ?? []) styles.add(`/${css}`)
          for (const imported of chunk.imports ?? []) visit(imported, seen)
        }
        const seen = new Set<string>()
        visit(CLIENT_ENTRY, seen)
        visit(key, seen)
        const fonts = (entry.assets ?? []).filter((file) => PRELOADED_FONT.test(file))
        const assets = {
          boot: `/${boot.file}`,
          entry: `/${entry.file}`,
          preload: [...preload],
          styles: [...styles],
          fonts: fonts.map((file) => `/${file}`),
        }
        assetCache.set(template, assets)
        return assets
      },
    }
  }
}
