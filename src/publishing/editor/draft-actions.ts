/**
 * The actions of Decap's editorial workflow on a draft: the board's list, one draft with its
 * files (each as it is in the version the editor was told of), its status, its publication,
 * discarding it, and the link to its preview as a whole site. Statuses, approval and
 * publication go through the four-eyes rules (../workflow/).
 */
import { CmsRequestError } from '../../cms/backend'
import { checkDraftId, DRAFT_STATUSES, type DraftStatus, MEDIA_DRAFTS } from '../workflow/drafts'
import { savedByName } from '../workflow/four-eyes'
import { type Action, idOf, reads, requireDraft, writes } from './context'
import { editorPathOf, repositoryPathOf } from './paths'
import { mediaAt } from './reads'

/** Decap's view of a draft: its files as the editor names them, and whether each is new. */
const unpublishedEntry = reads(async ({ drafts }, _person, params) => {
  // The board names a draft by the id it listed, the editor by collection and slug.
  const id = typeof params.id === 'string' ? checkDraftId(params.id) : idOf(params)
  const draft = await drafts.get(id)
  if (!draft) throw new CmsRequestError('content is not under editorial workflow', 404)
  const [collection = '', slug = ''] = [id.slice(0, id.indexOf('/')), id.slice(id.indexOf('/') + 1)]
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
    pullRequestAuthor: draft.createdByName,
    diffs,
    // The version the editor shows and sends back with a save, a status or a publication.
    version: draft.head,
    savedBy: savedByName(draft.saved),
    savedAt: draft.saved.at,
  }
})

const unpublishedEntryDataFile = reads(async (context, _person, params) => {
  const draft = await requireDraft(context, idOf(params))
  const path = repositoryPathOf(params.path)
  const version = /^([0-9a-f]{40,64}):/.exec(String(params.id ?? ''))?.[1]
  // The version the editor was told of, if it is one of this draft's.
  const shown =
    version && (version === draft.head || (await context.repo.isAncestor(version, draft.head)))
      ? version
      : draft.head
  // A file the draft deletes is shown as it is live (the comment says it is to go).
  const data = await context.repo.readFile(draft.deletes.includes(path) ? draft.base : shown, path)
  if (!data) throw new CmsRequestError(`the draft has no file ${String(params.path)}`, 404)
  return { data: data.toString('utf8') }
})

const updateUnpublishedEntryStatus = writes(async ({ drafts }, person, params) => {
  const status = String(params.newStatus)
  if (!(DRAFT_STATUSES as readonly string[]).includes(status)) {
    throw new CmsRequestError(`not a draft status: ${JSON.stringify(status)}`, 422)
  }
  const version = typeof params.version === 'string' ? params.version : undefined
  await drafts.setStatus(person, idOf(params), status as DraftStatus, version)
  return { message: 'status updated' }
})

const publishUnpublishedEntry = writes(async ({ drafts, publisher }, person, params) => {
  const version = typeof params.version === 'string' ? params.version : undefined
  await drafts.requireSeen(person, idOf(params), version)
  const release = await publisher.publish(person, idOf(params))
  return { message: `published as release ${release.folder}`, release: release.folder }
})

export const DRAFT_ACTIONS: Record<string, Action> = {
  unpublishedEntries: reads(async ({ drafts }) =>
    // Images uploaded or deleted on their own are no entries: their drafts are listed on the
    // service's page of changes instead (the board would skip them with a warning).
    (await drafts.ids()).filter((id) => !id.startsWith(`${MEDIA_DRAFTS}/`)),
  ),
  unpublishedEntry,
  unpublishedEntryDataFile,
  unpublishedEntryMediaFile: reads(async (context, _person, params) => {
    const draft = await requireDraft(context, idOf(params))
    return mediaAt(context, draft.head, String(params.path))
  }),
  updateUnpublishedEntryStatus,
  publishUnpublishedEntry,
  deleteUnpublishedEntry: writes(async ({ drafts }, person, params) => {
    await drafts.discard(person, idOf(params))
    return { message: 'draft discarded' }
  }),
  getDeployPreview: reads(async ({ drafts, previewUrl }, _person, params) => {
    // The draft as a whole site, built when opened: a link as soon as there is a draft.
    const id = idOf(params)
    if (!previewUrl || !(await drafts.get(id))) return null
    return { url: previewUrl(id), status: 'SUCCESS' }
  }),
}
