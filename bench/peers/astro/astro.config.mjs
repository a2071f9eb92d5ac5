// @ts-check
import react from '@astrojs/react'
import { defineConfig } from 'astro/config'

export default defineConfig({
  integrations: [react()],
  i18n: {
    locales: ['en', 'de'],
    defaultLocale: 'en',
    routing: { prefixDefaultLocale: true, redirectToDefaultLocale: false },
  },
  // <ClientRouter /> turns prefetch on for every link (on hover) by default; said here outright.
  prefetch: { prefetchAll: true, defaultStrategy: 'hover' },
})
