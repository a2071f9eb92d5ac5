/**
 * The CMS's local backend: Decap CMS's proxy protocol (`POST { action, params }`), answered
 * from the content store on disk, so editors work without any cloud account.
 *
 * Two things set it apart from a plain file proxy:
 * - Paths are translated. The CMS expects a language folder just above each file
 *   (`content/service/en/cards.yaml`); the store keeps one folder per language at the top
 *   (`content/en/pages/services/cards.yaml`).
 * - Nothing invalid is written. Every save and delete is validated against the whole store
 *   first; a change that adds problems is refused with each problem's file, field and what was
 *   expected, and the files on disk stay as they were.
 */
import { createHash } from 'node:crypto'
import { readdir, readFile, rename } from 'node:fs/promises'
import { join } from 'node:path'
import { type ContentProblem, ContentValidationError, formatProblem } from '../content/errors'
import { formatContentFile } from '../content/file-format'
import { createFileStore, listContentFiles, parseContentFile } from '../content/file-store'
import { rewriteKeepingFormat } from '../content/keep-format'
import { loadContent } from '../content/load'
import type { SiteContent } from '../content/site-content'
import type { ContentSource } from '../content/source'
import { generatedImageDirOf } from '../shared/images'
import type { LabelLanguage } from './field-labels'
import { OutsideFolderError, removeInside, writeInside } from './inside-folder'
import { addressPlaceOf, keepAddress } from './keep-address'
import { CMS_TEXTS, megabytes, problemsIn } from './messages'
import { CMS_CONTENT_ROOT, CmsPathError, cmsPathOf, segmentsOf, storeFileOf } from './paths'
import { drawingProblem } from './svg'

export interface CmsBackendOptions {
  /** The content store (`CONTENT_DIR`). */
  contentDir: string
  /** The site's `public/` folder; media go to its `images/`. */
  publicDir: string
  /** The language of its refusals: the editor's (English unless said otherwise). */
  language?: LabelLanguage
}

/** An entry before it is saved: the content with it, or the problems it would add. */
export interface Preview {
  content?: SiteContent
  /** The store files the entry is made of. */
  files: string[]
  problems: string[]
}

export interface CmsResponse {
  status: number
  body: unknown
}

/** A request the backend refuses, with the reason the editor sees. */
export class CmsRequestError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message)
  }
}

const CONTENT = CMS_CONTENT_ROOT

const MEDIA = 'public/images'
const MEDIA_TYPES = /\.(svg|png|jpe?g|webp|avif)$/i

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex')

/** An uploaded file as the CMS sends it. */
interface MediaAsset {
  path: string
  content: string
  encoding: string
}

/** The largest image an editor may upload: the build makes the sizes pages need from it. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024
/** Drawings are text: a larger one is no drawing a page should carry. */
export const MAX_DRAWING_BYTES = 1024 * 1024
/** What sharp calls each format the image pipeline takes, by file extension. */
const RASTER_FORMATS: Record<string, readonly string[]> = {
  png: ['png'],
  jpg: ['jpeg'],
  jpeg: ['jpeg'],
  webp: ['webp'],
  avif: ['heif', 'avif'],
}

/**
 * The bytes of an uploaded image, or a refusal the editor reads (in `language`): not an image
 * (by what the file holds, not its name), of another format than its name says, too large, or
 * a drawing that holds script or anything else a drawing may not (see `./svg`).
 */
export async function checkedImage(
  asset: MediaAsset,
  language: LabelLanguage = 'en',
): Promise<Buffer> {
  const t = CMS_TEXTS[language]
  const size = (bytes: number) => megabytes(bytes, language)
  const name = asset.path.split('/').at(-1) ?? asset.path
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? ''
  if (!MEDIA_TYPES.test(name)) throw new CmsRequestError(t.notAnImage(name))
  // The editor sends images as base64; anything else is a caller's mistake to name, not a
  // fault of the service (Buffer.from throws on an unknown encoding).
  if (asset.encoding !== 'base64')
    throw new CmsRequestError(t.encoding(name, JSON.stringify(String(asset.encoding).slice(0, 40))))
  if (typeof asset.content !== 'string') throw new CmsRequestError(t.noContent(name))
  const data = Buffer.from(asset.content, 'base64')
  if (extension === 'svg') {
    if (data.length > MAX_DRAWING_BYTES)
      throw new CmsRequestError(t.drawingTooLarge(name, size(data.length), size(MAX_DRAWING_BYTES)))
    const problem = await drawingProblem(data)
    if (problem) throw new CmsRequestError(t.badDrawing(name, problem))
    return data
  }
  if (data.length > MAX_IMAGE_BYTES)
    throw new CmsRequestError(t.imageTooLarge(name, size(data.length), size(MAX_IMAGE_BYTES)))
  const { default: sharp } = await import('sharp')
  const format = await sharp(data)
    .metadata()
    .then(
      (metadata) => metadata.format as string | undefined,
      () => undefined,
    )
  if (!format) throw new CmsRequestError(t.unreadable(name))
  if (!RASTER_FORMATS[extension]?.includes(format))
    throw new CmsRequestError(t.wrongFormat(name, format, format === 'jpeg' ? 'jpg' : format))
  return data
}

/**
 * Refuses an image path in a folder the build writes (`public/images/cards/…`, say): uploaded
 * there, it would replace a generated file on the site.
 */
export function refuseGeneratedPath(repositoryPath: string, language: LabelLanguage = 'en'): void {
  if (!repositoryPath.startsWith('public/')) return
  const dir = generatedImageDirOf(repositoryPath.slice('public'.length))
  if (dir) throw new CmsRequestError(CMS_TEXTS[language].generatedFolder(repositoryPath, dir))
}

/** Empty texts, lists and groups mean "not given": the CMS leaves them behind when cleared. */
export function withoutEmptyFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (isRecord(item) ? prune(item) : item))
  return isRecord(value) ? prune(value) : value
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)

function prune(record: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = {}
  for (const [key, raw] of Object.entries(record)) {
    const value = withoutEmptyFields(raw)
    if (value === null || value === undefined) continue
    if (typeof value === 'string' && value.trim() === '') continue
    if (Array.isArray(value) && value.length === 0) continue
    if (isRecord(value) && Object.keys(value).length === 0) continue
    result[key] = value
  }
  return result
}

interface DataFile {
  path: string
  raw: string
  newPath?: string
}

export function createCmsBackend({ contentDir, publicDir, language = 'en' }: CmsBackendOptions) {
  const t = CMS_TEXTS[language]
  const mediaDir = join(publicDir, 'images')
  /** Saves run one after another: each is validated against the store the previous one left. */
  let queue: Promise<unknown> = Promise.resolve()
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task)
    queue = run.catch(() => undefined)
    return run
  }

  function mediaFileOf(cmsPath: string): string {
    const segments = segmentsOf(cmsPath)
    if (segments.slice(0, 2).join('/') !== MEDIA || segments.length < 3)
      throw new CmsRequestError(`not a media path (expected ${MEDIA}/…): ${cmsPath}`)
    refuseGeneratedPath(segments.join('/'), language)
    return join(mediaDir, ...segments.slice(2))
  }

  async function entry(cmsPath: string) {
    try {
      const content = await readFile(join(contentDir, storeFileOf(cmsPath)))
      return { data: content.toString('utf8'), file: { path: cmsPath, id: sha256(content) } }
    } catch (error) {
      if (error instanceof CmsPathError) throw error
      return { data: null, file: { path: cmsPath, id: null } }
    }
  }

  async function mediaFile(cmsPath: string) {
    const content = await readFile(mediaFileOf(cmsPath))
    return {
      id: sha256(content),
      content: content.toString('base64'),
      encoding: 'base64',
      path: cmsPath,
      name: cmsPath.split('/').at(-1),
    }
  }

  /** The store as it would be with the changes (store file → new text, or null to delete). */
  function changedStore(changes: Map<string, string | null>): ContentSource {
    const store = createFileStore(contentDir)
    return {
      label: contentDir,
      async read() {
        const { documents, problems } = await store.read()
        const result = {
          documents: documents.filter((document) => !changes.has(document.file)),
          problems: problems.filter((problem) => !changes.has(problem.file)),
        }
        for (const [file, text] of changes) {
          if (text === null) continue
          const parsed = parseContentFile(file, text)
          if ('problem' in parsed) result.problems.push(parsed.problem)
          else result.documents.push(parsed.document)
        }
        return result
      },
    }
  }

  /** The store's content with the changes, or the problems they would add to it. */
  async function loadChanged(
    changes: Map<string, string | null>,
  ): Promise<{ content: SiteContent; problems: [] } | { problems: ContentProblem[] }> {
    const problemsOf = (source: ContentSource) =>
      loadContent(source, { publicDir }).then(
        (content) => ({ content, problems: [] as [] }),
        (error: unknown) => {
          if (error instanceof ContentValidationError) return { problems: [...error.problems] }
          throw error
        },
      )
    const [before, after] = await Promise.all([
      problemsOf(createFileStore(contentDir)),
      problemsOf(changedStore(changes)),
    ])
    if ('content' in after) return after
    const known = new Set(before.problems.map((problem) => formatProblem(problem)))
    return { problems: after.problems.filter((problem) => !known.has(formatProblem(problem))) }
  }

  /** Problems the changes would add to the store (store file → new text, or null to delete). */
  async function problemsAdded(changes: Map<string, string | null>): Promise<ContentProblem[]> {
    return (await loadChanged(changes)).problems
  }

  async function applyChanges(
    changes: Map<string, string | null>,
    refusal: (problems: string) => string,
  ): Promise<void> {
    const added = await problemsAdded(changes)
    if (added.length > 0) throw new CmsRequestError(refusal(problemsIn(added, t)), 422)
    for (const [file, text] of changes) {
      const path = join(contentDir, file)
      if (text === null) await removeInside(contentDir, path)
      else {
        // Write beside, then rename: a reader never sees half a file.
        await writeInside(contentDir, `${path}.cms-tmp`, text)
        await rename(`${path}.cms-tmp`, path)
      }
    }
  }

  /**
   * The store's text for a file the CMS sends: empty fields dropped, in the store's format; for
   * a file the store has, only the fields that changed are written, the rest kept byte for byte
   * (the editor sends the whole entry in a form of its own, and a save must not rewrite fields
   * nobody touched: reviewers would read them as changed).
   */
  async function normalise(file: string, raw: string): Promise<string> {
    const parsed = parseContentFile(file, raw)
    if ('problem' in parsed) return raw
    const pruned = withoutEmptyFields(parsed.document.data)
    if (!isRecord(pruned)) return raw
    const original = await readFile(join(contentDir, file), 'utf8').catch(() => null)
    const data = addressFields(file, pruned, original)
    const formatted = formatContentFile(file, data)
    return original === null ? formatted : rewriteKeepingFormat(file, original, formatted)
  }

  /** An entry's fields with its address kept, or moved with a redirect (see ./keep-address). */
  function addressFields(file: string, sent: Record<string, unknown>, original: string | null) {
    const place = addressPlaceOf(file)
    if (!place) return sent
    const stored = original === null ? null : parseContentFile(file, original)
    const storedData =
      stored && !('problem' in stored) && isRecord(stored.document.data)
        ? stored.document.data
        : null
    return keepAddress(sent, storedData, place)
  }

  /**
   * An entry as the editor holds it, before it is saved: the content with it, or the problems
   * it would add (each with file, field and what was expected, as a save or the build says).
   */
  async function preview(files: readonly { path: string; data: unknown }[]): Promise<Preview> {
    const changes = new Map<string, string | null>()
    for (const { path, data } of files) {
      const file = storeFileOf(path)
      const pruned = withoutEmptyFields(data)
      if (!isRecord(pruned)) throw new CmsRequestError(`expected the fields of ${path}`)
      const original = await readFile(join(contentDir, file), 'utf8').catch(() => null)
      const fields = addressFields(file, pruned, original)
      changes.set(file, formatContentFile(file, fields))
    }
    const loaded = await loadChanged(changes)
    const storeFiles = [...changes.keys()]
    if ('content' in loaded) return { content: loaded.content, files: storeFiles, problems: [] }
    return {
      files: storeFiles,
      problems: loaded.problems.map((problem) => t.problem(problem)),
    }
  }

  async function persistEntry(params: Record<string, unknown>) {
    const files = (params.dataFiles ?? [params.entry]) as DataFile[]
    if (!Array.isArray(files) || files.length === 0) throw new CmsRequestError('expected files')
    const changes = new Map<string, string | null>()
    for (const dataFile of files) {
      // A file the store does not know is refused by validation, like any other problem.
      const file = storeFileOf(dataFile.path)
      const target = dataFile.newPath ? storeFileOf(dataFile.newPath) : file
      if (target !== file) changes.set(file, null)
      changes.set(target, await normalise(target, String(dataFile.raw ?? '')))
    }
    const assets = (params.assets ?? []) as MediaAsset[]
    const images = await Promise.all(
      assets.map(async (asset) => ({
        path: mediaFileOf(asset.path),
        data: await checkedImage(asset, language),
      })),
    )
    // The images the entry names are written first, since the check of the entry looks for
    // them in public/images/; a refusal takes them back, and any file they replaced returns.
    const replaced = await Promise.all(
      images.map(({ path }) => readFile(path).catch(() => undefined)),
    )
    for (const { path, data } of images) await writeInside(publicDir, path, data)
    try {
      await applyChanges(changes, t.changeBreaks)
    } catch (error) {
      await Promise.all(
        images.map(({ path }, index) => {
          const before = replaced[index]
          return before ? writeInside(publicDir, path, before) : removeInside(publicDir, path)
        }),
      )
      throw error
    }
    return { message: 'entry persisted' }
  }

  async function writeMedia(asset: MediaAsset) {
    const path = mediaFileOf(asset.path)
    const data = await checkedImage(asset, language)
    await writeInside(publicDir, path, data)
  }

  async function deletePaths(paths: string[]) {
    const content = paths.filter((path) => path.startsWith(`${CONTENT}/`))
    const media = paths.filter((path) => !path.startsWith(`${CONTENT}/`))
    for (const path of media) mediaFileOf(path)
    if (content.length > 0) {
      await applyChanges(
        new Map(content.map((path) => [storeFileOf(path), null])),
        t.deletionBreaks,
      )
    }
    if (media.length === 0) return
    // An image an entry shows may not go: the store is checked without it, and it comes back
    // if that adds a problem.
    const problemsNow = () =>
      loadContent(createFileStore(contentDir), { publicDir }).then(
        () => [] as ContentProblem[],
        (error: unknown) => {
          if (error instanceof ContentValidationError) return [...error.problems]
          throw error
        },
      )
    const known = new Set((await problemsNow()).map((problem) => formatProblem(problem)))
    const kept = await Promise.all(
      media.map(async (path) => ({
        file: mediaFileOf(path),
        data: await readFile(mediaFileOf(path)).catch(() => undefined),
      })),
    )
    for (const { file } of kept) await removeInside(publicDir, file)
    const added = (await problemsNow()).filter((problem) => !known.has(formatProblem(problem)))
    if (added.length > 0) {
      await Promise.all(
        kept.map(({ file, data }) => (data ? writeInside(publicDir, file, data) : undefined)),
      )
      throw new CmsRequestError(t.imageDeletionBreaks(problemsIn(added, t)), 422)
    }
  }

  async function entriesByFolder(params: Record<string, unknown>) {
    const folder = `${segmentsOf(params.folder).join('/')}/`
    const files = await listContentFiles(contentDir).catch(() => [])
    const paths = files
      .map(cmsPathOf)
      .filter((path): path is string => path?.startsWith(folder) === true)
    return Promise.all(paths.map(entry))
  }

  async function getMedia(params: Record<string, unknown>) {
    const folder = segmentsOf(params.mediaFolder).join('/')
    const dir = folder === MEDIA ? mediaDir : mediaFileOf(folder)
    const names = await readdir(dir, { withFileTypes: true }).catch(() => [])
    return Promise.all(
      names
        .filter((name) => name.isFile() && MEDIA_TYPES.test(name.name))
        .map((name) => mediaFile(`${folder}/${name.name}`)),
    )
  }

  async function dispatch(action: string, params: Record<string, unknown>): Promise<unknown> {
    switch (action) {
      case 'info':
        return { repo: 'content', publish_modes: ['simple'], type: 'local_fs' }
      case 'entriesByFolder':
        return entriesByFolder(params)
      case 'entriesByFiles':
        return Promise.all(
          ((params.files ?? []) as { path: string }[]).map((file) => entry(file.path)),
        )
      case 'getEntry':
        return entry(String(params.path))
      case 'persistEntry':
        return serial(() => persistEntry(params))
      case 'getMedia':
        return getMedia(params)
      case 'getMediaFile':
        return mediaFile(String(params.path))
      case 'persistMedia': {
        const asset = params.asset as MediaAsset
        await serial(() => writeMedia(asset))
        return mediaFile(asset.path)
      }
      case 'deleteFile':
        await serial(() => deletePaths([String(params.path)]))
        return { message: `deleted ${String(params.path)}` }
      case 'deleteFiles': {
        const paths = ((params.paths ?? []) as unknown[]).map(String)
        await serial(() => deletePaths(paths))
        return { message: `deleted ${paths.join(', ')}` }
      }
      case 'getDeployPreview':
        return null
      default:
        throw new CmsRequestError(`unknown action "${action}"`, 422)
    }
  }

  return {
    preview,
    /** Answers one request body of the proxy protocol. */
    async handle(body: unknown): Promise<CmsResponse> {
      const request = isRecord(body) ? body : {}
      const params = isRecord(request.params) ? request.params : {}
      try {
        return { status: 200, body: await dispatch(String(request.action), params) }
      } catch (error) {
        if (error instanceof CmsRequestError)
          return { status: error.status, body: { error: error.message } }
        if (error instanceof CmsPathError) return { status: 400, body: { error: error.message } }
        if (error instanceof OutsideFolderError)
          return { status: 422, body: { error: t.outsideFolder(error.message) } }
        // The reason names files by where they are on the server: the editor gets its code only.
        const code = (error as NodeJS.ErrnoException | undefined)?.code
        return {
          status: 500,
          body: { error: t.storeFailed(typeof code === 'string' ? code.slice(0, 40) : undefined) },
        }
      }
    },
  }
}
