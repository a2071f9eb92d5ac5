/**
 * Bundles the browser runtime, the server renderer and the service worker with Vite.
 * The three builds are independent, so they run side by side.
 *
 * The bundles depend on the code only, never on content. Like the programs, they are made once
 * per version of the code (a hash of `src/`, `public/` and the lockfile) and kept beside the
 * compiled programs: every build of that code, from an empty build cache too, links them and
 * never loads Vite. The first build after a change to the code makes them.
 */
import { createHash, randomUUID } from 'node:crypto'
import { constants } from 'node:fs'
import {
  access,
  mkdir,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises'
import { dirname, isAbsolute, join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { InlineConfig, Manifest } from 'vite'
import type { BootData, BuildResources } from '../../shared/types'
import { placeTree } from '../cache/place-file'
import { filesUnder, hashFiles } from '../cache/stamp'
import type { BuildConfig } from '../config'
import { contentHash } from '../content-hash'
import {
  BOOT_ENTRY,
  CLIENT_ENTRY,
  SERVER_ENTRY,
  SERVICE_WORKER_ENTRY,
  templateSource,
} from '../entries'
import { type Timeline, untimed } from '../timeline'

/** What the server bundle exports (src/site/server.tsx). */
/** The files a page needs from the client bundle. */
export interface PageAssets {
  entry: string
  /**
   * The script the page names (`src/runtime/boot.ts`): it loads `entry` and `preload` after the
   * first paint. Without it (the dev server) the page names the entry itself.
   */
  boot?: string
  /** JavaScript to preload: the entry's imports and the template's chunk with its imports. */
  preload: string[]
  styles: string[]
  /** Fonts every page uses at once, fetched before the stylesheet asks for them. */
  fonts: string[]
}

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
  /** True when this code's bundles were made before, by an earlier build. */
  cached: boolean
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
 * The renderer (`server.js`) imports React and the rest from `node_modules` by Node's search up
 * its folders: bundles kept outside the project (`BUILD_CACHE_DIR` elsewhere) are given a link
 * to the project's, beside them, unless a folder above them has the same `node_modules` already
 * (the compiled programs' bundles, used by the publishing service's workspaces, whose
 * `node_modules` links to the service's).
 */
async function linkModules(root: string, home: string): Promise<void> {
  const path = relative(root, home)
  if (!path.startsWith('..') && !isAbsolute(path)) return
  const wanted = await realpath(join(root, 'node_modules')).catch(() => undefined)
  for (let dir = home; wanted && dir !== dirname(dir); dir = dirname(dir)) {
    const found = await realpath(join(dir, 'node_modules')).catch(() => undefined)
    if (found === wanted) return
    if (found) break
  }
  await mkdir(home, { recursive: true })
  await symlink(join(root, 'node_modules'), join(home, 'node_modules'), 'dir').catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error
    },
  )
}

/**
 * Where the bundles of `codeVersion` are: beside the compiled programs (`config.bundlesDir`)
 * when they are there or can be made there, else in the build cache: a read-only installation
 * (the container image) ships the bundles of its own code, and a workspace whose code differs
 * (the bank's repository moved on) makes its own where it may write.
 */
async function versionsDirOf(config: BuildConfig, codeVersion: string): Promise<string> {
  const own = join(config.cacheDir, 'bundles')
  if (!config.bundlesDir) return own
  if (await exists(join(config.bundlesDir, codeVersion, COMPLETE))) return config.bundlesDir
  try {
    await mkdir(config.bundlesDir, { recursive: true })
    await access(config.bundlesDir, constants.W_OK)
    return config.bundlesDir
  } catch {
    return own
  }
}

/**
 * The bundles of one version of the code, kept in `config.bundlesDir`: beside the compiled
 * programs when `scripts/run.mjs` runs the build, so every build of that code (any output, any
 * build cache, the publishing service's workspaces) links them and none loads Vite. Made once,
 * in a folder of its own renamed into place: builds running at once never see half of them.
 * The client files are linked into the site; their compressed twins come after the build, with
 * every other file's (`twins.ts`).
 */
export async function bundle(
  config: BuildConfig,
  { measure }: Pick<Timeline, 'measure'> = untimed,
): Promise<Bundle> {
  const codeVersion = await measure('bundle: code version', () => codeHash(config.root))
  const versionsDir = await versionsDirOf(config, codeVersion)
  await linkModules(config.root, dirname(versionsDir))
  const version = join(versionsDir, codeVersion)
  const cached = await exists(join(version, COMPLETE))
  if (!cached) await compile(config, version, measure)
  await measure('bundle: place files', () => placeTree(join(version, 'client'), config.outDir))
  const manifestJson = await readFile(join(version, 'manifest.json'), 'utf8')
  return finish(manifestJson, cached)

  async function finish(manifestJson: string, cached: boolean): Promise<Bundle> {
    const manifest = JSON.parse(manifestJson) as Manifest
    const renderer = await measure('bundle: load renderer', async () => {
      // The plain address, no query to bust a cache: the renderer's chunks import the entry
      // back by it (`server.js`, a folder up), and a second instance would have contexts of its own. The
      // folder names the code's version, so one address is always the same code.
      const loaded = (await import(
        pathToFileURL(join(version, 'server', 'server.js')).href
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
      serviceWorkerSource: join(version, 'sw', 'sw.js'),
      cached,
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

/**
 * Bundles the client (with the public files), the server
 * renderer and the service worker into `version`, by way of a folder of its own: a build that
 * made the same version meanwhile wins, and this one's work is dropped.
 */
async function compile(
  config: BuildConfig,
  version: string,
  measure: Timeline['measure'],
): Promise<void> {
  const staging = `${version}.${process.pid}-${randomUUID()}`
  const clientOut = join(staging, 'client')
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
        name: 'site:chunk-report',
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
      },
    ],
    publicDir: join(config.root, 'public'),
    build: {
      outDir: clientOut,
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
      outDir: join(staging, 'server'),
      emptyOutDir: true,
      target: 'node20',
      reportCompressedSize: false,
      rolldownOptions: { output: { entryFileNames: 'server.js' } },
    },
  }
  // The service worker is one script with no styles, assets or React: Rolldown alone, without
  // Vite's configuration and plugins around it, bundles it in two thirds of the time.
  const worker = async () => {
    const { build: bundleWorker } = await import('rolldown')
    await bundleWorker({
      cwd: config.root,
      input: join(config.root, SERVICE_WORKER_ENTRY),
      platform: 'browser',
      logLevel: 'warn',
      transform: {
        target: 'es2022',
        define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      },
      output: {
        file: join(staging, 'sw', 'sw.js'),
        format: 'iife',
        name: 'serviceWorker',
        minify: true,
      },
    })
  }
  try {
    await Promise.all([
      measure('bundle: client', () => build(client)),
      measure('bundle: server renderer', () => build(server)),
      measure('bundle: service worker', worker),
    ])
    await rename(join(clientOut, MANIFEST_FILE), join(staging, 'manifest.json'))
    await rm(join(clientOut, '.vite'), { recursive: true, force: true })
    await writeFile(join(staging, CHUNK_REPORT), JSON.stringify(chunks))
    await writeFile(join(staging, COMPLETE), new Date().toISOString())
    await rename(staging, version).catch(async (error: NodeJS.ErrnoException) => {
      // Another build of the same code finished first: its bundles are the same.
      if (await exists(join(version, COMPLETE))) return
      // Something else stands there (a build stopped by an older version of this step).
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error
      await rm(version, { recursive: true, force: true })
      await rename(staging, version)
    })
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
  await pruneCache(dirname(version))
}
