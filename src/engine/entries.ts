/** Where the three bundles start, and where each template's chunk comes from. */
export const CLIENT_ENTRY = 'src/runtime/entry.tsx'
/** The one script a page names; it starts the client entry after the first paint. */
export const BOOT_ENTRY = 'src/runtime/boot.ts'
export const SERVER_ENTRY = 'src/site/server.tsx'
export const SERVICE_WORKER_ENTRY = 'src/sw/sw.ts'

/** Source module of a template; its chunk is found in the client manifest under this key. */
export function templateSource(name: string): string {
  return `src/site/templates/${name}.tsx`
}
