/** The Vite configuration shared by the production build and the dev server. */
import react from '@vitejs/plugin-react'
import type { InlineConfig } from 'vite'
import type { BuildConfig } from './config'

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
