/**
 * A save (`persistEntry`): the changes checked by the editor's backend on a working tree of
 * the draft (or of main, for a new draft), then committed to the draft as the person. A draft
 * holds its entry's files (its languages) and the new images it adds, nothing else; the images
 * sent are the draft's whole set, so one the draft added and no longer sends is taken out again.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { CmsRequestError } from '../../cms/backend'
import { CMS_CONTENT_ROOT } from '../../cms/paths'
import { parseContentFile } from '../../content/file-store'
import type { FileChange, GitRepository } from '../git/repository'
import type { Person } from '../people/roles'
import { checkDraftId, type DraftView, MEDIA_DRAFTS } from '../workflow/drafts'
import { type EditorContext, isRecord, type Params, writes } from './context'
import { belongsToEntry, MEDIA_ROOT, repositoryPathOf } from './paths'
import { type EditorTexts, TEXTS } from './texts'
import { requireAccepted, withWorkingTree } from './working-tree'

/**
 * The draft's version a save was made on, as the editor sends it: a commit, or `null` for the
 * entry as it is live (no draft when it was opened). Sent as nothing, it is the live entry too.
 */
function versionSent(params: Params): string | null {
  const version = params.version
  if (version === undefined || version === null) return null
  if (typeof version !== 'string' || !/^[0-9a-f]{40,64}$/.test(version)) {
    throw new CmsRequestError(`not a version: ${JSON.stringify(version).slice(0, 80)}`, 400)
  }
  return version
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

/** What a save sends: its entry's files and images, and the draft they are for. */
interface SaveRequest {
  id: string
  options: Params
  dataFiles: Params[]
  assets: Params[]
}

/** The save's request, refused (in the person's words) unless it is a draft of one entry's own files. */
function saveRequest(params: Params, t: EditorTexts): SaveRequest {
  const options = isRecord(params.options) ? params.options : {}
  if (options.useWorkflow !== true) throw new CmsRequestError(t.workflowOnly, 403)
  const dataFiles = Array.isArray(params.dataFiles) ? params.dataFiles.filter(isRecord) : []
  const assets = Array.isArray(params.assets) ? params.assets.filter(isRecord) : []
  const [first] = dataFiles
  if (!first) throw new CmsRequestError(t.entryFiles)
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
        throw new CmsRequestError(t.notOwnFile(String(path), id), 400)
      }
    }
  }
  return { id, options, dataFiles, assets }
}

/** Refuses an image sent with the entry under a name the live site has (and the draft not). */
async function refuseLiveNames(
  context: EditorContext,
  person: Person,
  draft: DraftView | null,
  assets: Params[],
): Promise<void> {
  const tip = await context.mainTip()
  for (const [index, asset] of assets.entries()) {
    const path = repositoryPathOf(asset.path, `assets[${index}].path`, person.language)
    if (draft?.files.includes(path)) continue
    if ((await context.repo.listFiles(tip, path)).length > 0) {
      throw new CmsRequestError(TEXTS[person.language].liveNameTaken(path), 409)
    }
  }
}

/** The changes the checked working tree in `dir` holds against `base`, of the files saved. */
async function changesOf(
  context: EditorContext,
  { dataFiles, assets }: SaveRequest,
  draft: DraftView | null,
  dir: string,
  base: string,
): Promise<FileChange[] | null> {
  const paths = new Set<string>()
  for (const file of dataFiles) {
    paths.add(repositoryPathOf(file.path))
    if (typeof file.newPath === 'string') paths.add(repositoryPathOf(file.newPath))
  }
  const sentImages = new Set(assets.map((asset) => repositoryPathOf(asset.path)))
  for (const image of sentImages) paths.add(image)
  const changes: FileChange[] = []
  for (const path of paths) {
    const content = await readFile(join(dir, path)).catch(() => null)
    // An entry's other language comes along whole, reformatted: it is a change only when
    // its data changed.
    if (content && (await sameData(context.repo, base, path, content))) continue
    changes.push({ path, content })
  }
  // Saved again unchanged, a draft that no longer merges restarts on main (as its
  // refusal to publish asks); otherwise there is nothing to save.
  if (changes.length === 0 && !(draft && !(await context.drafts.mergesWithMain(draft.head)))) {
    return null
  }
  if (draft) {
    for (const file of draft.files) {
      if (!file.startsWith(`${MEDIA_ROOT}/`) || sentImages.has(file)) continue
      changes.push({ path: file, content: await context.repo.readFile(draft.base, file) })
    }
  }
  return changes
}

async function persistEntry(context: EditorContext, person: Person, params: Params) {
  const t = TEXTS[person.language]
  const request = saveRequest(params, t)
  const { id, options } = request
  const draft = await context.drafts.get(id)
  await refuseLiveNames(context, person, draft, request.assets)
  return withWorkingTree(
    context.repo,
    draft?.head ?? (await context.mainTip()),
    'save',
    async (tree) => {
      const { dataFiles, assets } = request
      await requireAccepted(
        tree,
        'persistEntry',
        { dataFiles, assets, options },
        t.refused,
        person.language,
      )
      const base = draft?.head ?? (await context.mainTip())
      const changes = await changesOf(context, request, draft, tree.dir, base)
      if (!changes) return { message: 'nothing changed' }
      const message =
        typeof options.commitMessage === 'string' && options.commitMessage.trim()
          ? options.commitMessage.trim().slice(0, 500)
          : `Update ${id}`
      const saved = await context.drafts.save(person, id, changes, message, versionSent(params))
      return {
        message: 'entry saved as a draft',
        version: saved.head,
        status: saved.status,
        ...(draft && draft.status !== saved.status ? { returnedFrom: draft.status } : {}),
      }
    },
  )
}

export const SAVE_ACTIONS = { persistEntry: writes(persistEntry) }
