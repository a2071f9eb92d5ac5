/**
 * The publishing service's editor code: `browser/entry.tsx` (the backend, the site's preview
 * beside each entry) bundled by Vite with the site's own configuration, once per version
 * of the code, into `DATA_DIR/publishing/editor/<code version>/`, in a process of its own
 * (`bundle-worker.ts`). The service starts bundling when it starts; the editor's page waits for
 * it the first time.
 */
import { access, readFile, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { compiledWorker, inChild, type WorkerScript } from '../../engine/child/process'
import type { BuildConfig } from '../../engine/config'

export const EDITOR_ENTRY = 'src/publishing/editor/browser/entry.tsx'
/** Where the service serves the bundle's files, each version under its own folder. */
export const EDITOR_BASE = '/_publishing/editor/'

export interface EditorBundle {
  /** Where its files are. */
  dir: string
  /** Its version (the code's hash), part of its files' addresses. */
  version: string
  /** The entry's file and the site's stylesheet, relative to `dir`. */
  script: string
  styles: string[]
}

const MANIFEST = 'manifest.json'

export async function editorBundle(
  config: BuildConfig,
  dir: string,
  /** Where Vite runs: a process of its own (see bundle-worker.ts); this one without it. */
  worker: WorkerScript | undefined = compiledWorker('editor-worker'),
): Promise<EditorBundle> {
  const { codeHash } = await import('../../engine/assets/bundle')
  const version = await codeHash(config.root)
  const out = join(dir, version)
  const read = async (): Promise<EditorBundle> => {
    const manifest = JSON.parse(await readFile(join(out, MANIFEST), 'utf8')) as Record<
      string,
      { file: string; isEntry?: boolean; css?: string[] }
    >
    const entry = manifest[EDITOR_ENTRY]
    if (!entry) throw new Error(`the editor's bundle has no ${EDITOR_ENTRY}`)
    const styles = [
      ...new Set(
        Object.values(manifest).flatMap((chunk) => [
          ...(chunk.css ?? []),
          ...(chunk.file.endsWith('.css') ? [chunk.file] : []),
        ]),
      ),
    ]
    return { dir: out, version, script: entry.file, styles }
  }
  if (
    await access(join(out, MANIFEST)).then(
      () => true,
      () => false,
    )
  )
    return read()
  const job: EditorJob = { config, version, out }
  if (worker) await inChild<EditorJob, null>(worker, job)
  else await bundleEditor(job)
  return read()
}

/** What the editor's bundling is given: the site's settings, the code's version, its folder. */
export interface EditorJob {
  config: BuildConfig
  version: string
  out: string
}

/**
 * Bundles the editor's code with Vite into `out`, written beside it first and then renamed
 * into place. Vite and Rolldown (with its threads and their allocator) took the service 140 MB
 * that it kept when it bundled in its own process: the compiled service has a process do it
 * (bundle-worker.ts).
 */
export async function bundleEditor({ config, version, out }: EditorJob): Promise<null> {
  const [{ build }, { baseViteConfig }] = await Promise.all([
    import('vite'),
    import('../../engine/assets/vite-config'),
  ])
  const staging = `${out}.${process.pid}`
  await rm(staging, { recursive: true, force: true })
  await build({
    ...baseViteConfig(config),
    // The service serves the files there: chunks and fonts are loaded from that address.
    base: `${EDITOR_BASE}${version}/`,
    publicDir: false,
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      outDir: staging,
      emptyOutDir: true,
      manifest: MANIFEST,
      target: 'es2022',
      cssCodeSplit: false,
      reportCompressedSize: false,
      modulePreload: { polyfill: false },
      rolldownOptions: { input: { editor: join(config.root, EDITOR_ENTRY) } },
    },
  })
  // Vite writes its manifest under .vite/: kept beside the files instead.
  await rename(join(staging, '.vite', MANIFEST), join(staging, MANIFEST)).catch(() => {})
  await rename(staging, out).catch(async () => {
    // another process bundled the same version first
    await rm(staging, { recursive: true, force: true })
  })
  return null
}

/**
 * The editor's code as the service serves it: bundled once per process (at once when
 * `bundleNow`, else when first asked for); the page waits for it. A failure is not kept: the
 * next request tries again.
 */
export function editorCode(
  config: BuildConfig,
  dir: string,
  bundleNow = false,
): () => Promise<EditorBundle> {
  let bundling: Promise<EditorBundle> | undefined
  const code = () => {
    bundling ??= editorBundle(config, dir)
    bundling.catch(() => {
      bundling = undefined
    })
    return bundling
  }
  if (bundleNow) code().catch(() => {})
  return code
}
