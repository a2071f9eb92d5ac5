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
    css: { modules: { localsConvention: 'camelCaseOnly' } },
  }
}
