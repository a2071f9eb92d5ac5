/**
 * The paths of the editor's protocol and of the repository, each way: the editor names entries
 * by the collections' folders (`content/pages/en/about.yaml`, the language below the collection) and images by their
 * place in `public/images/`; the repository keeps the store's own layout. Anything else is
 * refused here, before a file is read or written.
 */
import { refuseGeneratedPath } from '../../cms/backend'
import { SHARED_FILES } from '../../cms/config'
import { CMS_CONTENT_ROOT, CmsPathError, cmsPathOf, segmentsOf, storeFileOf } from '../../cms/paths'
import { isLanguage } from '../../shared/languages'
import type { EditorLanguage } from '../people/roles'

/** Where the site's images are, in the repository and in the editor's paths alike. */
export const MEDIA_ROOT = 'public/images'
/** The images the site takes. */
export const MEDIA_TYPES = /\.(svg|png|jpe?g|webp|avif)$/i

/** The settings collection's entries, each one file of the store. */
export const SETTINGS_FILES: Record<string, string> = {
  site: `${CMS_CONTENT_ROOT}/${SHARED_FILES.site}`,
  'blog-archive': `${CMS_CONTENT_ROOT}/${SHARED_FILES.blogArchive}`,
  'rates-texts': `${CMS_CONTENT_ROOT}/${SHARED_FILES.ratesTexts}`,
}

/**
 * The repository path of a path the editor names (an entry, or an image); `field` names where
 * the request carried it, for a refusal; an image's folder the build writes is refused in
 * `language`.
 */
export function repositoryPathOf(
  cmsPath: unknown,
  field?: string,
  language: EditorLanguage = 'en',
): string {
  const segments = segmentsOf(cmsPath, field)
  const path = segments.join('/')
  if (segments[0] === CMS_CONTENT_ROOT) return `${CMS_CONTENT_ROOT}/${storeFileOf(path)}`
  if (path.startsWith(`${MEDIA_ROOT}/`) && segments.length > 2) {
    refuseGeneratedPath(path, language)
    return path
  }
  throw new CmsPathError(`not a path of the content or its images: ${path}`)
}

/** The path the editor knows a repository file by, or `undefined` when it shows none. */
export function editorPathOf(repositoryPath: string): string | undefined {
  if (repositoryPath.startsWith(`${CMS_CONTENT_ROOT}/`)) {
    return cmsPathOf(repositoryPath.slice(CMS_CONTENT_ROOT.length + 1))
  }
  if (repositoryPath.startsWith(`${MEDIA_ROOT}/`)) return repositoryPath
  return undefined
}

/** Whether the editor's `path` is a file of the entry `slug` of `collection` (a language of it). */
export function belongsToEntry(collection: string, slug: string, path: unknown): boolean {
  if (collection === 'settings')
    return Object.hasOwn(SETTINGS_FILES, slug) && SETTINGS_FILES[slug] === path
  let segments: string[]
  try {
    segments = segmentsOf(path)
  } catch {
    return false
  }
  const [root, folder, ...rest] = segments
  const file = rest.pop() ?? ''
  return (
    root === CMS_CONTENT_ROOT &&
    folder === collection &&
    file.replace(/\.(ya?ml|md)$/, '') === slug &&
    rest.length <= 1 &&
    rest.every((part) => isLanguage(part))
  )
}
