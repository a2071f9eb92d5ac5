/** The Vite configuration shared by the production build and the dev server. */
import { join, resolve, sep } from 'node:path'
import react from '@vitejs/plugin-react'
import type { InlineConfig } from 'vite'
import type { BuildConfig } from '../config'

export function baseViteConfig(config: BuildConfig): InlineConfig {
  return {
    configFile: false,
    root: config.root,
    base: '/',
    logLevel: 'warn',
    clearScreen: false,
    plugins: [react()],
    // Lightning CSS (native, already Vite's dependency) scopes the CSS Modules: the PostCSS
    // pipeline was the build's slowest plugin, and the class names come out shorter.
    css: {
      transformer: 'lightningcss',
      lightningcss: { cssModules: { pattern: '[local]_[hash]' } },
    },
  }
}

/**
 * What Vite's watcher leaves alone: everything but the code (`src/`) and the public files. Left
 * to itself it walks the whole project (builds, caches, releases, the publishing service's
 * repositories: some 10,000 files), which cost the dev server about 30 s of CPU at every start
 * and a file event for every file a build writes. The dev server watches content on its own.
 */
export function outsideTheCode(root: string): (path: string) => boolean {
  const watched = ['src', 'public'].map((folder) => join(root, folder))
  return (path) => {
    const full = resolve(root, path)
    if (full === root) return false
    return !watched.some((folder) => full === folder || full.startsWith(`${folder}${sep}`))
  }
}
