/**
 * Bundles the browser runtime, the server renderer and the service worker with Vite.
 * The three builds are independent, so they run side by side.
 */
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build, type InlineConfig, type Manifest } from 'vite'
import type { BootData } from '../shared/types'
import type { BuildConfig } from './config'
import type { PageAssets } from './document'
import { contentHash } from './page-data'
import {
  baseViteConfig,
  CLIENT_ENTRY,
  SERVER_ENTRY,
  SERVICE_WORKER_ENTRY,
  templateSource,
} from './vite-config'

/** What the server bundle exports (src/site/server.tsx). */
export interface ServerRenderer {
  prepare(): Promise<void>
  renderPage(boot: Pick<BootData, 'page' | 'staticQueries'>): string
}

export interface Bundle {
  /** Hash of the client bundle: `webpackCompilationHash` of app-data.json. */
  buildHash: string
  renderer: ServerRenderer
  assetsFor(template: string): PageAssets
  /** Path of the bundled service worker, before its precache manifest is injected. */
  serviceWorkerSource: string
}

const MANIFEST_FILE = '.vite/manifest.json'

/** `onClientWritten` receives the client bundle's files as soon as they are on disk. */
export async function bundle(
  config: BuildConfig,
  onClientWritten: (files: string[]) => void = () => {},
): Promise<Bundle> {
  const base = baseViteConfig(config)
  const serverOut = join(config.cacheDir, 'server')
  const workerOut = join(config.cacheDir, 'sw')
  const client: InlineConfig = {
    ...base,
    plugins: [
      ...(base.plugins ?? []),
      {
        name: 'site:client-written',
        writeBundle(_options, output) {
          onClientWritten(Object.keys(output).map((file) => join(config.outDir, file)))
        },
      },
    ],
    publicDir: join(config.root, 'public'),
    build: {
      outDir: config.outDir,
      emptyOutDir: false,
      manifest: MANIFEST_FILE,
      target: 'es2022',
      modulePreload: { polyfill: false },
      reportCompressedSize: false,
      rolldownOptions: { input: { entry: join(config.root, CLIENT_ENTRY) } },
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
  await Promise.all([build(client), build(server), build(worker)])

  const manifestPath = join(config.outDir, MANIFEST_FILE)
  const manifestJson = await readFile(manifestPath, 'utf8')
  await rm(join(config.outDir, '.vite'), { recursive: true, force: true })
  const manifest = JSON.parse(manifestJson) as Manifest
  const renderer = (await import(
    `${pathToFileURL(join(serverOut, 'server.js')).href}?t=${Date.now()}`
  )) as ServerRenderer
  await renderer.prepare()

  const entry = manifest[CLIENT_ENTRY]
  if (!entry) throw new Error(`The client bundle has no entry for ${CLIENT_ENTRY}`)
  const assetCache = new Map<string, PageAssets>()

  return {
    buildHash: contentHash(manifestJson, 20),
    renderer,
    serviceWorkerSource: join(workerOut, 'sw.js'),
    assetsFor(template) {
      const cached = assetCache.get(template)
      if (cached) return cached
      const key = templateSource(template)
      if (!manifest[key])
        throw new Error(`The client bundle has no chunk for template "${template}" (${key})`)
      const preload = new Set<string>()
      const styles = new Set<string>()
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
      const assets = { entry: `/${entry.file}`, preload: [...preload], styles: [...styles] }
      assetCache.set(template, assets)
      return assets
    },
  }
}
