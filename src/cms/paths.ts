/**
 * How the CMS's paths map onto the store. The CMS sees one folder per collection with a
 * language folder inside (`content/service/en/cards.yaml`); the store keeps one folder per
 * language at the top (`en/pages/services/cards.yaml`). Pages with fixed addresses may be
 * nested; the CMS sees them flat, the folders joined by dots (`support.faq` for `support/faq`).
 */
import { locate } from '../content/collections'
import { isLanguage } from '../shared/languages'
import { CMS_COLLECTIONS, type CmsCollection, SHARED_FILES } from './config'

/**
 * Data files the CMS leaves alone: the ECB rates' snapshot and the card networks' rate files
 * come from systems (the ECB, the bank's operations team), not from editors; the build
 * checks them like all content.
 */
export const isSystemDataFile = (storeFile: string) =>
  /^exchange-rates\/[^/]+\.(xml|csv|json)$/.test(storeFile)

/** A path the backend refuses, with the reason the editor sees. */
export class CmsPathError extends Error {}

export const CMS_CONTENT_ROOT = 'content'
const SHARED = new Set<string>(Object.values(SHARED_FILES))
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/**
 * The longest name a file or folder of the store or its images may have, in characters. File
 * systems take 255 bytes, which a name of non-Latin letters reaches sooner: that is refused too.
 */
export const MAX_NAME_LENGTH = 100
const MAX_NAME_BYTES = 255

/**
 * The path's segments; anything that could leave the folder it names is refused, and so is a
 * name longer than a file system takes, naming `field` (where the request carried the path).
 */
export function segmentsOf(path: unknown, field = 'path'): string[] {
  if (typeof path !== 'string' || path === '') throw new CmsPathError('expected a path')
  const segments = path.replace(/^\/+/, '').split('/')
  if (segments.some((part) => part === '' || part === '.' || part === '..' || part.includes('\\')))
    throw new CmsPathError(`not a path inside the content store: ${path.slice(0, 200)}`)
  const long = segments.find(
    (part) => part.length > MAX_NAME_LENGTH || Buffer.byteLength(part) > MAX_NAME_BYTES,
  )
  if (long !== undefined) {
    throw new CmsPathError(
      `${field}: the name ${JSON.stringify(`${long.slice(0, 40)}…`)} is ${long.length} characters long; a file’s or folder’s name may be ${MAX_NAME_LENGTH} characters at most: choose a shorter one`,
    )
  }
  return segments
}

const extensionOf = (collection: CmsCollection) => (collection.markdown ? '.md' : '.yaml')

/** `content/service/en/cards.yaml` → `en/pages/services/cards.yaml`. */
export function storeFileOf(cmsPath: string): string {
  const [root, first = '', ...rest] = segmentsOf(cmsPath)
  if (root !== CMS_CONTENT_ROOT) throw new CmsPathError(`not a content path: ${cmsPath}`)
  const shared = [first, ...rest].join('/')
  if (SHARED.has(shared)) return shared
  const collection = CMS_COLLECTIONS.find((candidate) => candidate.name === first)
  if (!collection) throw new CmsPathError(`no collection "${first}" in the content store`)
  let language: string | undefined
  if (collection.twin) {
    const index = rest.findIndex(isLanguage)
    if (index < 0) throw new CmsPathError(`expected a language folder in ${cmsPath}`)
    language = rest.splice(index, 1)[0]
  }
  const extension = extensionOf(collection)
  const [file] = rest
  if (rest.length !== 1 || !file?.endsWith(extension))
    throw new CmsPathError(`expected a ${extension} file directly in ${collection.name}/`)
  const key = file.slice(0, -extension.length)
  const parts = collection.fixed ? key.split('.') : [key]
  if (!parts.every((part) => NAME.test(part)))
    throw new CmsPathError(
      `the file name "${key}" may hold only lowercase letters, digits and single hyphens`,
    )
  if (collection.types === 'layout' && key !== 'layout')
    throw new CmsPathError('the siteTexts collection holds layout.yaml only')
  return [language, collection.root, ...parts].filter(Boolean).join('/') + extension
}

/** `en/pages/services/cards.yaml` → `content/service/en/cards.yaml`; undefined when no collection shows it. */
export function cmsPathOf(storeFile: string): string | undefined {
  if (SHARED.has(storeFile)) return `${CMS_CONTENT_ROOT}/${storeFile}`
  const parts = storeFile.split('/')
  const language = parts.length > 1 && isLanguage(parts[0]) ? parts.shift() : undefined
  const below = parts.join('/')
  for (const collection of CMS_COLLECTIONS) {
    const extension = extensionOf(collection)
    if (collection.twin !== (language !== undefined) || !below.endsWith(extension)) continue
    let name: string
    if (collection.types === 'layout') {
      if (below !== `layout${extension}`) continue
      name = 'layout'
    } else if (typeof collection.types === 'string') {
      if (!below.startsWith(`${collection.root}/`)) continue
      name = below.slice(collection.root.length + 1, -extension.length)
      if (!NAME.test(name)) continue
    } else {
      const types = collection.types
      if (!below.startsWith(`${collection.root}/`)) continue
      const located = locate(storeFile)
      if (!located || !types.includes(located.collection.name)) continue
      name = below.slice(collection.root.length + 1, -extension.length)
      if (!collection.fixed && name.includes('/')) continue
    }
    const folder = language ? `${collection.name}/${language}` : collection.name
    return `${CMS_CONTENT_ROOT}/${folder}/${name.replaceAll('/', '.')}${extension}`
  }
  return undefined
}
