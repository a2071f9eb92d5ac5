/**
 * The service's own scripts and stylesheet (`src/publishing/browser/`, and the editor's start
 * script from `src/publishing/editor/browser/`), made servable: each
 * script bundled by Rolldown into one minified classic script (the pages load them with
 * `defer`, and the editor's page its start script before Decap's, so none is a module), the
 * stylesheet minified by Lightning CSS after the site's design tokens and Inter's faces
 * (`src/http/site-styles.ts`), so the screens look as the site does and change with it. Made in
 * memory, once per process, when first asked for (or at start, when the service bundles the
 * editor then): about a third of a second, and the service's start does not wait for it.
 */
import { join } from 'node:path'
import { siteStylesheet } from '../../http/site-styles'

/** Where the browser's code is, in the project. */
export const BROWSER_SOURCE = 'src/publishing/browser'
/** The scripts the pages load, by the name they are served under (`<name>.js`): their sources. */
const SCRIPTS: Record<string, string> = {
  'sign-in': `${BROWSER_SOURCE}/sign-in.ts`,
  manage: `${BROWSER_SOURCE}/manage.ts`,
  passkeys: `${BROWSER_SOURCE}/passkeys.ts`,
  'editor-start': 'src/publishing/editor/browser/start.ts',
}
/**
 * The stylesheets by the name they are served under: the screens', and the editor's (the bar
 * and the room Decap is given); each made of its files after the site's tokens and Inter.
 */
const STYLESHEETS: Record<string, readonly string[]> = {
  'service.css': ['bar.css', 'service.css'],
  'editor.css': ['bar.css', 'editor.css'],
}
/** Where the service serves Inter's files (assets.ts). */
export const FONT_PATH = '/_publishing/fonts/'
/** The names the service serves them under. */
export const SERVICE_FILE_NAMES: ReadonlySet<string> = new Set([
  ...Object.keys(SCRIPTS).map((name) => `${name}.js`),
  ...Object.keys(STYLESHEETS),
])

export interface ServiceFile {
  body: string
  type: string
}

const made = new Map<string, Promise<ReadonlyMap<string, ServiceFile>>>()

/** The service's files by the name they are served under, from the project at `root`. */
export function serviceFiles(root: string): Promise<ReadonlyMap<string, ServiceFile>> {
  let files = made.get(root)
  if (!files) {
    files = makeServiceFiles(root)
    made.set(root, files)
    // A failure is not kept: the next request tries again.
    files.catch(() => made.delete(root))
  }
  return files
}

async function makeServiceFiles(root: string): Promise<ReadonlyMap<string, ServiceFile>> {
  const { build } = await import('rolldown')
  const scripts = await Promise.all(
    Object.entries(SCRIPTS).map(async ([name, source]): Promise<[string, ServiceFile]> => {
      const { output } = await build({
        input: join(root, source),
        platform: 'browser',
        write: false,
        logLevel: 'warn',
        output: { format: 'iife', minify: true },
      })
      const [chunk] = output
      if (chunk?.type !== 'chunk') throw new Error(`${source} made no script`)
      return [`${name}.js`, { body: chunk.code, type: 'text/javascript; charset=utf-8' }]
    }),
  )
  const stylesheets = await Promise.all(
    Object.entries(STYLESHEETS).map(async ([name, files]): Promise<[string, ServiceFile]> => {
      const own = files.map((file) => `${BROWSER_SOURCE}/${file}`)
      const css = await siteStylesheet(root, own, FONT_PATH)
      return [name, { body: css, type: 'text/css; charset=utf-8' }]
    }),
  )
  return new Map([...scripts, ...stylesheets])
}
