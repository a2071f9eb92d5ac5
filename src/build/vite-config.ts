/** The Vite configuration shared by the production build and the dev server. */
import react from '@vitejs/plugin-react'
import type { InlineConfig } from 'vite'
import type { BuildConfig } from './config'

export const CLIENT_ENTRY = 'src/runtime/entry.tsx'
export const SERVER_ENTRY = 'src/site/server.tsx'
export const SERVICE_WORKER_ENTRY = 'src/sw/sw.ts'

/** Source module of a template; its chunk is found in the client manifest under this key. */
export function templateSource(name: string): string {
  return `src/site/templates/${name}.tsx`
}

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
