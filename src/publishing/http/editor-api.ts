/**
 * Decap CMS's proxy protocol with the editorial workflow, answered from the service's git
 * repository for a signed-in person: entries and images are read from main (what is live);
 * every save is a draft on a branch of its own (drafts.ts), checked first by the same backend as
 * the editor of `npm run dev` (paths translated, empty fields dropped, images checked by
 * content, the whole store validated so that a change adding a problem is refused naming file
 * and field) on a copy of the draft's tree; statuses, approval and publication go through the
 * four-eyes rules. A refusal is `{ error }` with a status, which the editor shows.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { CmsRequestError, createCmsBackend, refuseGeneratedPath } from '../../cms/backend'
import { SHARED_FILES } from '../../cms/config'
import { CMS_CONTENT_ROOT, CmsPathError, cmsPathOf, segmentsOf, storeFileOf } from '../../cms/paths'
import { ContentValidationError } from '../../content/errors'
import { parseContentFile } from '../../content/file-store'
import { previewPages } from '../../engine/pages/preview-pages'
import { isLanguage } from '../../shared/languages'
import { settleRequestRecord } from '../audit/refusal-record'
import { findUnstorable, unstorableMessage } from '../audit/storable'
import {
  type FileChange,
  type GitRepository,
  RefMovedError,
  SpecialEntryError,
  UnsafePathError,
} from '../git/repository'
import type { Person } from '../people/roles'
import {
  checkDraftId,
  DRAFT_STATUSES,
  DraftConflictError,
  type DraftStatus,
  type Drafts,
  MAIN,
  MEDIA_DRAFTS,
  mediaDraftId,
  NoDraftError,
  RefusedError,
} from '../workflow/drafts'
import { PublishBusyError, type Publisher, UpstreamConflictError } from '../workflow/publisher'
import { BuildFailedError } from '../workflow/releases'

/**
 * Not an error but what the editor must not take for done: a deletion or an upload that is now
 * a draft, in review. Decap shows the message; it is no refusal, so not one in the trail.
 */
class WaitsForReview extends CmsRequestError {
  constructor(message: string) {
    super(message, 409)
  }
}

/** The editor's actions that change something: a refusal of one is in the trail. */
const WRITES = new Set([
  'persistEntry',
  'persistMedia',
  'deleteFile',
  'deleteFiles',
  'updateUnpublishedEntryStatus',
  'publishUnpublishedEntry',
  'deleteUnpublishedEntry',
  'addNote',
  'updateNote',
  'deleteNote',
  'toggleNoteResolution',
])

export interface CmsAnswer {
  status: number
  body: unknown
}

const MEDIA_ROOT = 'public/images'

/** What the editor says about drafts made for a deletion or an upload, in the person's language. */
const TEXTS = {
  en: {
    whichFiles: 'Which files? Expected the paths of one entry or one image.',
    oneEntry: 'One entry or one image at a time, please: each deletion is a draft of its own.',
    settingsStay: 'The settings are not deleted: change them instead.',
    refused: 'the change was refused',
    notLive: (path: string) => `${path} is not on the live site, so there is nothing to delete.`,
    notAnImage: (path: string) =>
      `${path} is no image the site takes (SVG, PNG, JPEG, WebP or AVIF in public/images).`,
    draftExists: (id: string) =>
      `There is a draft of ${id} already: publish or discard it first (Workflow, or the page of changes).`,
    deletionComment: (paths: string[]) =>
      `Asks for deletion: this draft removes ${paths.join(', ')} from the site.`,
    deletionWaits: (id: string) =>
      `Not deleted yet: every change goes through review. The deletion of ${id} is a draft now, in review on the Workflow board; it goes live when a reviewer has approved it and a publisher publishes it (at once or at a set time).`,
    uploadWaits: (path: string) =>
      `Not in the library yet: every change goes through review. ${path} is a draft now, in review on the page of changes (/changes); it joins the library when a reviewer has approved it and a publisher publishes it.`,
  },
  de: {
    whichFiles: 'Welche Dateien? Erwartet: die Pfade eines Eintrags oder eines Bildes.',
    oneEntry:
      'Bitte einen Eintrag oder ein Bild nach dem anderen: Jede Löschung ist ein eigener Entwurf.',
    settingsStay: 'Die Einstellungen werden nicht gelöscht: Ändern Sie sie stattdessen.',
    refused: 'die Änderung wurde abgelehnt',
    notLive: (path: string) =>
      `${path} ist nicht auf der veröffentlichten Website, es gibt nichts zu löschen.`,
    notAnImage: (path: string) =>
      `${path} ist kein Bild, das die Website nimmt (SVG, PNG, JPEG, WebP oder AVIF in public/images).`,
    draftExists: (id: string) =>
      `Es gibt schon einen Entwurf von ${id}: Veröffentlichen oder verwerfen Sie ihn zuerst (Arbeitsablauf oder Seite der Änderungen).`,
    deletionComment: (paths: string[]) =>
      `Bittet um Löschung: Dieser Entwurf entfernt ${paths.join(', ')} von der Website.`,
    deletionWaits: (id: string) =>
      `Noch nicht gelöscht: Jede Änderung wird geprüft. Die Löschung von ${id} ist jetzt ein Entwurf, zur Prüfung im Arbeitsablauf; sie wird wirksam, wenn sie geprüft, freigegeben und veröffentlicht ist (sofort oder zu einem festen Zeitpunkt).`,
    uploadWaits: (path: string) =>
      `Noch nicht in der Mediathek: Jede Änderung wird geprüft. ${path} ist jetzt ein Entwurf, zur Prüfung auf der Seite der Änderungen (/changes); es kommt in die Mediathek, wenn es freigegeben und veröffentlicht ist.`,
  },
} as const
const MEDIA_TYPES = /\.(svg|png|jpe?g|webp|avif)$/i

/**
 * The draft's version a save was made on, as the editor sends it: a commit, or `null` for the
 * entry as it is live (no draft when it was opened). Sent as nothing, it is the live entry too.
 */
function versionSent(params: Record<string, unknown>): string | null {
  const version = params.version
  if (version === undefined || version === null) return null
  if (typeof version !== 'string' || !/^[0-9a-f]{40,64}$/.test(version)) {
    throw new CmsRequestError(`not a version: ${JSON.stringify(version).slice(0, 80)}`, 400)
  }
  return version
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The repository path of a path the editor names (an entry, or an image); `field` names where
 * the request carried it, for a refusal.
 */
export function repositoryPathOf(cmsPath: unknown, field?: string): string {
  const segments = segmentsOf(cmsPath, field)
  const path = segments.join('/')
  if (segments[0] === CMS_CONTENT_ROOT) return `${CMS_CONTENT_ROOT}/${storeFileOf(path)}`
  if (path.startsWith(`${MEDIA_ROOT}/`) && segments.length > 2) {
    refuseGeneratedPath(path)
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

/** The settings collection's entries, each one file of the store. */
const SETTINGS_FILES: Record<string, string> = {
  site: `${CMS_CONTENT_ROOT}/${SHARED_FILES.site}`,
  'blog-archive': `${CMS_CONTENT_ROOT}/${SHARED_FILES.blogArchive}`,
  'rates-texts': `${CMS_CONTENT_ROOT}/${SHARED_FILES.ratesTexts}`,
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

/** Whether a content file's new text holds the same data as at `commit`. */
async function sameData(
  repo: GitRepository,
  commit: string,
  path: string,
  content: Buffer,
): Promise<boolean> {
  if (!path.startsWith(`${CMS_CONTENT_ROOT}/`)) return false
  const before = await repo.readFile(commit, path)
  if (!before) return false
  if (before.equals(content)) return true
  const file = path.slice(CMS_CONTENT_ROOT.length + 1)
  const old = parseContentFile(file, before.toString('utf8'))
  const next = parseContentFile(file, content.toString('utf8'))
  return (
    'document' in old &&
    'document' in next &&
    isDeepStrictEqual(old.document.data, next.document.data)
  )
}

/**
 * Writes the content and images of `commit` into `dir` (git archive, unpacked by tar). A tree
 * with a symbolic link or a submodule is refused before anything is written: unpacked, a link
 * would take the check's writes (an image saved under its path) wherever it points.
 */
export async function exportTree(repo: GitRepository, commit: string, dir: string): Promise<void> {
  await repo.requireRegularFiles(
    commit,
    `the version ${commit.slice(0, 12)}`,
    'nothing can be saved on it until that is removed',
  )
  const archive = await repo.git(['archive', '--format=tar', commit, CMS_CONTENT_ROOT, 'public'])
  await new Promise<void>((resolve, reject) => {
    const tar = execFile('tar', ['-x', '-C', dir], (error) => (error ? reject(error) : resolve()))
    tar.stdin?.end(archive)
  })
}

export interface CmsApiOptions {
  repo: GitRepository
  drafts: Drafts
  publisher: Publisher
  /** The address of a draft's preview as a whole site (the editor links to it). */
  previewUrl?: (id: string) => string
}

export function createCmsApi({ repo, drafts, publisher, previewUrl }: CmsApiOptions) {
  const mainTip = async () => {
    const tip = await repo.resolve(MAIN)
    if (!tip) throw new Error('the repository has no main branch')
    return tip
  }

  async function entryAt(commit: string, cmsPath: string) {
    const blob = await repo.readBlob(commit, repositoryPathOf(cmsPath))
    if (!blob) return { data: null, file: { path: cmsPath, id: null } }
    return { data: blob.data.toString('utf8'), file: { path: cmsPath, id: blob.id } }
  }

  async function mediaAt(commit: string, cmsPath: string) {
    const path = repositoryPathOf(cmsPath)
    const blob = await repo.readBlob(commit, path)
    if (!blob) throw new CmsRequestError(`there is no image ${cmsPath}`, 404)
    return {
      id: blob.id,
      name: path.split('/').at(-1),
      path: cmsPath,
      content: blob.data.toString('base64'),
      encoding: 'base64',
    }
  }

  /** The draft a call names by collection and slug (`id`, where sent, is a file's). */
  const idOf = (params: Record<string, unknown>) =>
    checkDraftId(`${String(params.collection)}/${String(params.slug)}`)

  async function requireDraft(id: string) {
    const draft = await drafts.get(id)
    if (!draft) throw new CmsRequestError(`there is no draft ${id}`, 404)
    return draft
  }

  /** Decap's view of a draft: its files as the editor names them, and whether each is new. */
  async function unpublishedEntry(params: Record<string, unknown>) {
    // The board names a draft by the id it listed, the editor by collection and slug.
    const id = typeof params.id === 'string' ? checkDraftId(params.id) : idOf(params)
    const draft = await drafts.get(id)
    if (!draft) throw new CmsRequestError('content is not under editorial workflow', 404)
    const [collection = '', slug = ''] = [
      id.slice(0, id.indexOf('/')),
      id.slice(id.indexOf('/') + 1),
    ]
    const diffs = []
    for (const file of draft.files) {
      const path = editorPathOf(file)
      if (!path) continue
      // The file's id names the version too: the editor reads the file as it is in the version
      // it was told of, not a newer one saved in between.
      diffs.push({ path, id: `${draft.head}:${file}`, newFile: draft.adds.includes(file) })
    }
    return {
      collection,
      slug,
      status: draft.status,
      updatedAt: draft.updatedAt,
      pullRequestAuthor: draft.createdBy,
      diffs,
      // The version the editor shows and sends back with a save, a status or a publication.
      version: draft.head,
      savedBy: draft.saved.by,
      savedAt: draft.saved.at,
    }
  }

  /**
   * A save: the changes checked by the editor's backend on a copy of the draft's tree (or
   * main's, for a new draft), then committed to the draft as the person. The images sent are
   * the draft's whole set: one the draft added and no longer sends is taken out again.
   */
  async function persistEntry(person: Person, params: Record<string, unknown>) {
    const options = isRecord(params.options) ? params.options : {}
    if (options.useWorkflow !== true) {
      throw new CmsRequestError(
        'Every change goes through review here: save it as a draft (the editorial workflow).',
        403,
      )
    }
    const dataFiles = Array.isArray(params.dataFiles) ? params.dataFiles.filter(isRecord) : []
    const assets = Array.isArray(params.assets) ? params.assets.filter(isRecord) : []
    const [first] = dataFiles
    if (!first) throw new CmsRequestError('expected the entry’s files')
    const collection = String(options.collectionName)
    const slug = String(first.slug)
    // `media/…` names the drafts of images on their own: no entry may pass for one.
    if (collection === MEDIA_DRAFTS) throw new CmsRequestError(`no collection ${collection}`)
    const id = checkDraftId(`${collection}/${slug}`)
    // A draft holds its entry's files (its languages) and new images, nothing else: what the
    // reviewer sees in the editor is all it changes.
    for (const file of dataFiles) {
      for (const path of [file.path, ...(typeof file.newPath === 'string' ? [file.newPath] : [])]) {
        if (!belongsToEntry(collection, slug, path)) {
          throw new CmsRequestError(
            `${String(path)} is not a file of ${id}: a draft changes its own entry only`,
            400,
          )
        }
      }
    }
    const draft = await drafts.get(id)
    const tip = await mainTip()
    for (const [index, asset] of assets.entries()) {
      const path = repositoryPathOf(asset.path, `assets[${index}].path`)
      if (draft?.files.includes(path)) continue
      if ((await repo.listFiles(tip, path)).length > 0) {
        throw new CmsRequestError(
          `${path} exists on the live site already: give the new image a name of its own`,
          409,
        )
      }
    }
    const dir = await mkdtemp(join(tmpdir(), 'publishing-save-'))
    try {
      await exportTree(repo, draft?.head ?? (await mainTip()), dir)
      const backend = createCmsBackend({
        contentDir: join(dir, CMS_CONTENT_ROOT),
        publicDir: join(dir, 'public'),
      })
      const checked = await backend.handle({
        action: 'persistEntry',
        params: { dataFiles, assets, options },
      })
      if (checked.status !== 200) {
        const refused = checked.body as { error?: string }
        throw new CmsRequestError(String(refused.error ?? 'the change was refused'), checked.status)
      }
      const paths = new Set<string>()
      for (const file of dataFiles) {
        paths.add(repositoryPathOf(file.path))
        if (typeof file.newPath === 'string') paths.add(repositoryPathOf(file.newPath))
      }
      const sentImages = new Set(assets.map((asset) => repositoryPathOf(asset.path)))
      for (const image of sentImages) paths.add(image)
      const base = draft?.head ?? (await mainTip())
      const changes: FileChange[] = []
      for (const path of paths) {
        const content = await readFile(join(dir, path)).catch(() => null)
        // An entry's other language comes along whole, reformatted: it is a change only when
        // its data changed.
        if (content && (await sameData(repo, base, path, content))) continue
        changes.push({ path, content })
      }
      // Saved again unchanged, a draft that no longer merges restarts on main (as its
      // refusal to publish asks); otherwise there is nothing to save.
      if (changes.length === 0 && !(draft && !(await drafts.mergesWithMain(draft.head)))) {
        return { message: 'nothing changed' }
      }
      if (draft) {
        for (const file of draft.files) {
          if (!file.startsWith(`${MEDIA_ROOT}/`) || sentImages.has(file)) continue
          changes.push({ path: file, content: await repo.readFile(draft.base, file) })
        }
      }
      const message =
        typeof options.commitMessage === 'string' && options.commitMessage.trim()
          ? options.commitMessage.trim().slice(0, 500)
          : `Update ${id}`
      const saved = await drafts.save(person, id, changes, message, versionSent(params))
      return {
        message: 'entry saved as a draft',
        version: saved.head,
        status: saved.status,
        ...(draft && draft.status !== saved.status ? { returnedFrom: draft.status } : {}),
      }
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }

  /** A draft must be the first of its entry or image: one change at a time goes to review. */
  async function refuseTakenDraft(person: Person, id: string) {
    if (await drafts.get(id)) {
      throw new CmsRequestError(TEXTS[person.language].draftExists(id), 409)
    }
  }

  /**
   * "Delete published entry" (or an image in the media library): not done at once but saved as
   * a draft that deletes the files, sent to review with a comment saying so, published like any
   * change (or at a set time: that is scheduled unpublishing). A deletion the content refuses
   * (another entry links to it) is refused here already, naming file and field.
   */
  async function deletionAsDraft(person: Person, params: Record<string, unknown>) {
    const t = TEXTS[person.language]
    const named = Array.isArray(params.paths) ? params.paths : [params.path]
    if (named.length === 0 || named.length > 20) throw new CmsRequestError(t.whichFiles)
    const paths = [...new Set(named.map((path) => repositoryPathOf(path)))]
    const images = paths.filter((path) => path.startsWith(`${MEDIA_ROOT}/`))
    let id: string
    if (paths.some((path) => Object.values(SETTINGS_FILES).includes(path))) {
      throw new CmsRequestError(t.settingsStay, 403)
    }
    if (images.length === 0) {
      const [, collection = '', ...rest] = segmentsOf(named[0])
      const slug = (rest.at(-1) ?? '').replace(/\.(ya?ml|md)$/, '')
      if (collection === 'settings') throw new CmsRequestError(t.settingsStay, 403)
      if (!named.every((path) => belongsToEntry(collection, slug, path))) {
        throw new CmsRequestError(t.oneEntry, 400)
      }
      id = checkDraftId(`${collection}/${slug}`)
    } else if (images.length === paths.length && images.length === 1) {
      id = mediaDraftId(images[0] ?? '')
    } else {
      throw new CmsRequestError(t.oneEntry, 400)
    }
    await refuseTakenDraft(person, id)
    const tip = await mainTip()
    for (const path of paths) {
      if (!(await repo.readBlob(tip, path))) throw new CmsRequestError(t.notLive(path), 404)
    }
    {
      // The store without the entry or image, checked as the build would check it.
      const dir = await mkdtemp(join(tmpdir(), 'publishing-delete-'))
      try {
        await exportTree(repo, tip, dir)
        const checked = await createCmsBackend({
          contentDir: join(dir, CMS_CONTENT_ROOT),
          publicDir: join(dir, 'public'),
        }).handle({ action: 'deleteFiles', params: { paths: named } })
        if (checked.status !== 200) {
          const refused = checked.body as { error?: string }
          throw new CmsRequestError(String(refused.error ?? t.refused), checked.status)
        }
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    }
    await drafts.save(
      person,
      id,
      paths.map((path) => ({ path, content: null })),
      `Delete ${id}`,
      null,
    )
    await drafts.comment(person, id, t.deletionComment(paths))
    await drafts.setStatus(person, id, 'pending_review')
    // Decap takes a success for "deleted"; it is not, yet, and the editor says so.
    throw new WaitsForReview(t.deletionWaits(id))
  }

  /**
   * An image uploaded in the media library on its own (inside an entry, it goes with the
   * entry's draft): a draft that adds it, sent to review. Checked by content as in the entry;
   * a name the live site has is refused.
   */
  async function uploadAsDraft(person: Person, params: Record<string, unknown>) {
    const t = TEXTS[person.language]
    const asset = isRecord(params.asset) ? params.asset : {}
    const path = repositoryPathOf(asset.path, 'asset.path')
    if (!path.startsWith(`${MEDIA_ROOT}/`) || !MEDIA_TYPES.test(path)) {
      throw new CmsRequestError(t.notAnImage(path), 400)
    }
    const id = mediaDraftId(path)
    await refuseTakenDraft(person, id)
    const tip = await mainTip()
    if (await repo.readBlob(tip, path)) {
      throw new CmsRequestError(
        `${path} exists on the live site already: give the new image a name of its own`,
        409,
      )
    }
    const dir = await mkdtemp(join(tmpdir(), 'publishing-upload-'))
    let content: Buffer
    try {
      const checked = await createCmsBackend({
        contentDir: join(dir, CMS_CONTENT_ROOT),
        publicDir: join(dir, 'public'),
      }).handle({ action: 'persistMedia', params: { asset } })
      if (checked.status !== 200) {
        const refused = checked.body as { error?: string }
        throw new CmsRequestError(String(refused.error ?? t.refused), checked.status)
      }
      content = await readFile(join(dir, path))
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
    await drafts.save(person, id, [{ path, content }], `Add image ${path}`, null)
    await drafts.setStatus(person, id, 'pending_review')
    throw new WaitsForReview(t.uploadWaits(path))
  }

  async function getMedia(params: Record<string, unknown>) {
    const folder = segmentsOf(params.mediaFolder).join('/')
    if (folder !== MEDIA_ROOT && !folder.startsWith(`${MEDIA_ROOT}/`)) {
      throw new CmsRequestError(`not an image folder: ${folder}`)
    }
    const tip = await mainTip()
    const files = (await repo.listFiles(tip, folder)).filter(
      (file) => MEDIA_TYPES.test(file.path) && !file.path.slice(folder.length + 1).includes('/'),
    )
    return Promise.all(files.map((file) => mediaAt(tip, file.path)))
  }

  async function dispatch(person: Person, action: string, params: Record<string, unknown>) {
    switch (action) {
      case 'entriesByFolder': {
        const tip = await mainTip()
        const folder = `${segmentsOf(params.folder).join('/')}/`
        const files = await repo.listFiles(tip, CMS_CONTENT_ROOT)
        const paths = files
          .map((file) => editorPathOf(file.path))
          .filter((path): path is string => path?.startsWith(folder) === true)
        return Promise.all(paths.map((path) => entryAt(tip, path)))
      }
      case 'entriesByFiles': {
        const tip = await mainTip()
        const files = Array.isArray(params.files) ? params.files.filter(isRecord) : []
        return Promise.all(files.map((file) => entryAt(tip, String(file.path))))
      }
      case 'getEntry':
        return entryAt(await mainTip(), String(params.path))
      case 'getMedia':
        return getMedia(params)
      case 'getMediaFile':
        return mediaAt(await mainTip(), String(params.path))
      case 'unpublishedEntries':
        // Images uploaded or deleted on their own are no entries: their drafts are listed on
        // the service's page of changes instead (the board would skip them with a warning).
        return (await drafts.ids()).filter((id) => !id.startsWith(`${MEDIA_DRAFTS}/`))
      case 'unpublishedEntry':
        return unpublishedEntry(params)
      case 'unpublishedEntryDataFile': {
        const draft = await requireDraft(idOf(params))
        const path = repositoryPathOf(params.path)
        const version = /^([0-9a-f]{40,64}):/.exec(String(params.id ?? ''))?.[1]
        // The version the editor was told of, if it is one of this draft's.
        const shown =
          version && (version === draft.head || (await repo.isAncestor(version, draft.head)))
            ? version
            : draft.head
        // A file the draft deletes is shown as it is live (the comment says it is to go).
        const data = await repo.readFile(draft.deletes.includes(path) ? draft.base : shown, path)
        if (!data) throw new CmsRequestError(`the draft has no file ${String(params.path)}`, 404)
        return { data: data.toString('utf8') }
      }
      case 'unpublishedEntryMediaFile': {
        const draft = await requireDraft(idOf(params))
        return mediaAt(draft.head, String(params.path))
      }
      case 'persistEntry':
        return persistEntry(person, params)
      case 'updateUnpublishedEntryStatus': {
        const status = String(params.newStatus)
        if (!(DRAFT_STATUSES as readonly string[]).includes(status)) {
          throw new CmsRequestError(`not a draft status: ${JSON.stringify(status)}`, 422)
        }
        const version = typeof params.version === 'string' ? params.version : undefined
        await drafts.setStatus(person, idOf(params), status as DraftStatus, version)
        return { message: 'status updated' }
      }
      case 'publishUnpublishedEntry': {
        const version = typeof params.version === 'string' ? params.version : undefined
        await drafts.requireSeen(person, idOf(params), version)
        const release = await publisher.publish(person, idOf(params))
        return { message: `published as release ${release.folder}`, release: release.folder }
      }
      case 'deleteUnpublishedEntry':
        await drafts.discard(person, idOf(params))
        return { message: 'draft discarded' }
      case 'persistMedia':
        return uploadAsDraft(person, params)
      case 'deleteFile':
      case 'deleteFiles':
        return deletionAsDraft(person, params)
      case 'getNotes': {
        const draft = await drafts.get(idOf(params))
        const slug = String(params.slug)
        return {
          notes: (draft?.comments ?? []).map((comment, index) => ({
            id: String(index + 1),
            content: comment.body,
            timestamp: comment.at,
            author: comment.by,
            entrySlug: slug,
            resolved: false,
          })),
        }
      }
      case 'addNote': {
        const note = isRecord(params.note) ? params.note : {}
        const draft = await drafts.comment(person, idOf(params), String(note.content ?? ''))
        const comment = draft.comments.at(-1)
        return {
          note: {
            id: String(draft.comments.length),
            content: comment?.body,
            timestamp: comment?.at,
            author: comment?.by,
            entrySlug: String(params.slug),
            resolved: false,
          },
        }
      }
      case 'updateNote':
      case 'deleteNote':
      case 'toggleNoteResolution':
        throw new CmsRequestError(
          'Comments stay as they were written: they are part of the record. Add another.',
          403,
        )
      case 'getDeployPreview': {
        // The draft as a whole site, built when opened: a link as soon as there is a draft.
        const id = idOf(params)
        if (!previewUrl || !(await drafts.get(id))) return null
        return { url: previewUrl(id), status: 'SUCCESS' }
      }
      default:
        throw new CmsRequestError(`unknown action ${JSON.stringify(action)}`, 422)
    }
  }

  /** Main's content and images on disk, exported once per tip of main (the last one kept). */
  let mainTree: { commit: string; dir: Promise<string> } | undefined
  const mainTreeDir = async () => {
    const tip = await mainTip()
    if (mainTree?.commit !== tip) {
      const previous = mainTree
      mainTree = {
        commit: tip,
        dir: (async () => {
          const dir = await mkdtemp(join(tmpdir(), 'publishing-main-'))
          await exportTree(repo, tip, dir)
          return dir
        })(),
      }
      previous?.dir.then((dir) => rm(dir, { recursive: true, force: true })).catch(() => {})
    }
    return mainTree.dir
  }

  return {
    /**
     * The pages an entry as edited makes on main's content, or the problems it would bring
     * (file and field): the preview beside the editor.
     */
    async preview(files: readonly { path: string; data: unknown }[], siteUrl: string) {
      const dir = await mainTreeDir()
      const backend = createCmsBackend({
        contentDir: join(dir, CMS_CONTENT_ROOT),
        publicDir: join(dir, 'public'),
      })
      const preview = await backend.preview(files)
      return {
        pages: preview.content ? previewPages(preview.content, preview.files, siteUrl) : [],
        problems: preview.problems,
      }
    },

    /** Answers one request body of the proxy protocol for a signed-in person. */
    async handle(person: Person, body: unknown): Promise<CmsAnswer> {
      const request = isRecord(body) ? body : {}
      const params = isRecord(request.params) ? request.params : {}
      const action = String(request.action)
      // Text the database cannot store stops here, before any query (the HTTP layer refuses it
      // for every route; this is for whoever calls the protocol directly).
      const unstorable = findUnstorable(request)
      if (unstorable) {
        const reason = unstorableMessage(unstorable, person.language)
        await drafts.recordRefusal(person, action.slice(0, 100), {
          code: 'unstorable-text',
          action: action.slice(0, 100),
          reason,
        })
        return { status: 400, body: { error: reason } }
      }
      try {
        return { status: 200, body: await dispatch(person, action, params) }
      } catch (error) {
        // A draft made for review is no refusal: nothing for the trail beyond the draft's own.
        if (error instanceof WaitsForReview) settleRequestRecord()
        const answer = refusal(error)
        // The rules' refusals are in the trail already; a write refused as bad input joins them.
        if (WRITES.has(action) && !(error instanceof WaitsForReview) && unrecorded(error, answer)) {
          const subject =
            typeof params.collection === 'string' && typeof params.slug === 'string'
              ? `${params.collection}/${params.slug}`
              : typeof (params.options as { collectionName?: unknown })?.collectionName === 'string'
                ? String((params.options as { collectionName: string }).collectionName)
                : action
          await drafts.recordRefusal(person, subject, {
            code: 'request',
            action,
            reason: String((answer.body as { error?: unknown }).error ?? '').slice(0, 1000),
          })
        }
        return answer
      }
    },
  }
}

/**
 * Whether a refusal still has to be written to the trail: those of the rules, of a draft that
 * no longer merges or of a remote that conflicts, and a failed build, are in it already.
 */
export function unrecorded(error: unknown, answer: CmsAnswer): boolean {
  return (
    answer.status >= 400 &&
    answer.status < 500 &&
    !(error instanceof RefusedError) &&
    !(error instanceof DraftConflictError) &&
    !(error instanceof UpstreamConflictError) &&
    !(error instanceof BuildFailedError)
  )
}

/** What the editor shows for an error: its message, with the status that fits it. */
export function refusal(error: unknown): CmsAnswer {
  const message = error instanceof Error ? error.message : String(error)
  if (error instanceof CmsRequestError) return { status: error.status, body: { error: message } }
  if (error instanceof RefusedError) return { status: error.status, body: { error: message } }
  if (error instanceof DraftConflictError || error instanceof UpstreamConflictError) {
    return { status: 409, body: { error: message } }
  }
  if (error instanceof BuildFailedError || error instanceof ContentValidationError) {
    return {
      status: 422,
      body: { error: `The site did not build, so nothing was published. ${message}` },
    }
  }
  if (error instanceof SpecialEntryError) return { status: 422, body: { error: message } }
  if (error instanceof PublishBusyError) return { status: 503, body: { error: message } }
  if (error instanceof NoDraftError) return { status: 404, body: { error: message } }
  if (error instanceof RefMovedError) {
    return {
      status: 409,
      body: {
        error: 'Someone saved this entry meanwhile: reload it, then make your change again.',
      },
    }
  }
  if (error instanceof CmsPathError || error instanceof UnsafePathError) {
    return { status: 400, body: { error: message } }
  }
  if (/^not a draft (id|status)/.test(message)) return { status: 400, body: { error: message } }
  if (/^a comment of/.test(message)) return { status: 422, body: { error: message } }
  throw error
}
