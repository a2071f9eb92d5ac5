/** Build settings, each from the environment variable named beside it. */
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

export interface BuildConfig {
  /** Project root: where `src/`, `public/` and `package.json` live. */
  root: string
  /** `CONTENT_DIR`: the content store to build (default `content/`). */
  contentDir: string
  /** `OUT_DIR`: where the static site is written (default `dist/`). */
  outDir: string
  /** Scratch space for the server bundle and the build stamp. */
  cacheDir: string
  /** `SITE_URL`: the public origin, for canonical and alternate links. */
  siteUrl: string
  /** `SERVICE_WORKER=off`: the kill switch; ships a worker that removes itself. */
  serviceWorker: boolean
}

/** The folder of package.json above this module, compiled (`.cache/bin/…`) or not (`src/build`). */
function findRoot(dir: string): string {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, 'package.json'))) return current
    if (dirname(current) === current) throw new Error(`no package.json above ${dir}`)
  }
}

export const ROOT = findRoot(import.meta.dirname)

export function readBuildConfig(env: NodeJS.ProcessEnv = process.env): BuildConfig {
  const siteUrl = (env.SITE_URL ?? 'http://localhost:8080').replace(/\/+$/, '')
  try {
    new URL(siteUrl)
  } catch {
    throw new Error(
      `SITE_URL must be an absolute URL such as https://www.example.com; got "${siteUrl}"`,
    )
  }
  const outDir = resolve(ROOT, env.OUT_DIR ?? 'dist')
  return {
    root: ROOT,
    contentDir: resolve(ROOT, env.CONTENT_DIR ?? 'content'),
    outDir,
    cacheDir: resolve(ROOT, env.BUILD_CACHE_DIR ?? '.cache', slugOf(outDir)),
    siteUrl,
    serviceWorker: (env.SERVICE_WORKER ?? 'on') !== 'off',
  }
}

/** A folder name for per-output caches, so parallel builds to different outputs never collide. */
function slugOf(path: string): string {
  return path
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .slice(-60)
}
