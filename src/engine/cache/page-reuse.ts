/**
 * Pages whose inputs did not change since the last build are linked from the last site instead
 * of rendered and written again: after an editor changes one page of 10,000, the
 * build renders that page (and the listings that show it) and links the others' files.
 *
 * A page's key is a hash of everything its two files (HTML and page data) are made of: the code
 * (which also names the bundles), the settings the page embeds, its page data and its
 * structured data. The keys of the last build are kept in the build cache together with an id
 * that the same build wrote into its site (`.pages`, a dot file, so never served): a site from
 * any other build (one stopped between its swap and its record, or a copy put in place by hand)
 * has another id, and then every page is rendered.
 */
import { createHash, randomUUID } from 'node:crypto'
import { link, mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'

/** In the site: the id of the build that wrote it. */
export const SITE_ID_FILE = '.pages'
const RECORD_FILE = 'pages.json'

interface Record {
  id: string
  /** Site path of each page → its key. */
  pages: { [path: string]: string }
}

export interface PageReuse {
  /** The key of a page's inputs. */
  key(...parts: string[]): string
  /** Whether the last site holds `path` made from the same inputs. */
  unchanged(path: string, key: string): boolean
  /** Notes the page's key for the next build (reused or written). */
  record(path: string, key: string): void
  /**
   * Links a file of an unchanged page from the last site (`from`, the same path by default) to
   * the new one (`relative`). False when the file is gone.
   */
  link(relative: string, from?: string): Promise<boolean>
  /**
   * Links a file of the last site when it holds exactly `data` at the same path (a feed, the
   * sitemap), or at the path `from` (a file of a versioned folder, such as the search index's,
   * that the change left as it was). False when it differs or is not there:
   * then the caller writes it.
   */
  linkIfSame(relative: string, data: string, from?: string): Promise<boolean>
  /** Writes the new site's id into it, before it is swapped in. */
  markSite(stage: string): Promise<void>
  /** Keeps the keys, once the new site is in place. */
  save(): Promise<void>
}

/**
 * `salt` holds what every page is made with (code version, build hash, settings): a change
 * there makes every key new.
 */
export async function openPageReuse(
  siteDir: string,
  stage: string,
  cacheDir: string,
  salt: string,
): Promise<PageReuse> {
  const recordFile = join(cacheDir, RECORD_FILE)
  const last = await readRecord(recordFile)
  const siteId = await readFile(join(siteDir, SITE_ID_FILE), 'utf8').catch(() => undefined)
  const trusted = last !== undefined && siteId === last.id
  const previous = trusted ? last.pages : {}
  const next: Record = { id: randomUUID(), pages: {} }
  const createdDirs = new Set<string>()

  const reuse: PageReuse = {
    key(...parts) {
      const hash = createHash('sha256').update(salt)
      for (const part of parts) hash.update('\0').update(part)
      return hash.digest('base64url').slice(0, 32)
    },
    unchanged: (path, key) => previous[path] === key,
    record(path, key) {
      next.pages[path] = key
    },
    async link(relative, from = relative) {
      const target = join(stage, relative)
      const dir = dirname(target)
      if (!createdDirs.has(dir)) {
        await mkdir(dir, { recursive: true })
        createdDirs.add(dir)
      }
      // A link is never written through, which would change the last site's file, still
      // being served.
      return link(join(siteDir, from), target).then(
        () => true,
        () => false,
      )
    },
    async linkIfSame(relative, data, from = relative) {
      // Only a site this build's record knows (its files are then what the record says).
      if (!trusted) return false
      const old = await readFile(join(siteDir, from), 'utf8').catch(() => undefined)
      return old === data && reuse.link(relative, from)
    },
    markSite: (dir) => writeFile(join(dir, SITE_ID_FILE), next.id),
    async save() {
      await writeFile(recordFile, JSON.stringify(next))
    },
  }
  return reuse
}

async function readRecord(file: string): Promise<Record | undefined> {
  try {
    const record = JSON.parse(await readFile(file, 'utf8')) as Partial<Record>
    return typeof record.id === 'string' && record.pages ? (record as Record) : undefined
  } catch {
    return undefined
  }
}
