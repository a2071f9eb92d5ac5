/**
 * "Delete published entry" (or an image in the media library): not done at once but saved as a
 * draft that deletes the files, sent to review with a comment saying so, published like any
 * change (or at a set time: that is scheduled unpublishing). A deletion the content refuses
 * (another entry links to it) is refused here already, naming file and field.
 */
import { CmsRequestError } from '../../cms/backend'
import { segmentsOf } from '../../cms/paths'
import type { Person } from '../people/roles'
import { checkDraftId, mediaDraftId } from '../workflow/drafts'
import { type EditorContext, type Params, refuseTakenDraft, writes } from './context'
import { belongsToEntry, MEDIA_ROOT, repositoryPathOf, SETTINGS_FILES } from './paths'
import { TEXTS } from './texts'
import { requireAccepted, withWorkingTree } from './working-tree'

/** The draft a deletion of the editor's `named` paths (`paths` in the repository) makes. */
function deletionDraftId(person: Person, named: unknown[], paths: string[]): string {
  const t = TEXTS[person.language]
  const images = paths.filter((path) => path.startsWith(`${MEDIA_ROOT}/`))
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
    return checkDraftId(`${collection}/${slug}`)
  }
  if (images.length === paths.length && images.length === 1) return mediaDraftId(images[0] ?? '')
  throw new CmsRequestError(t.oneEntry, 400)
}

async function deletionAsDraft(context: EditorContext, person: Person, params: Params) {
  const t = TEXTS[person.language]
  const named = Array.isArray(params.paths) ? params.paths : [params.path]
  if (named.length === 0 || named.length > 20) throw new CmsRequestError(t.whichFiles)
  const paths = [...new Set(named.map((path) => repositoryPathOf(path)))]
  const id = deletionDraftId(person, named, paths)
  await refuseTakenDraft(context, person, id)
  const tip = await context.mainTip()
  for (const path of paths) {
    if (!(await context.repo.readBlob(tip, path))) throw new CmsRequestError(t.notLive(path), 404)
  }
  // The store without the entry or image, checked as the build would check it.
  await withWorkingTree(context.repo, tip, 'delete', (tree) =>
    requireAccepted(tree, 'deleteFiles', { paths: named }, t.refused, person.language),
  )
  const { drafts } = context
  await drafts.save(
    person,
    id,
    paths.map((path) => ({ path, content: null })),
    `Delete ${id}`,
    null,
  )
  await drafts.comment(person, id, t.deletionComment(paths))
  await drafts.setStatus(person, id, 'pending_review')
  // Decap takes a success for "deleted" and leaves the entry; it is not deleted yet, and the
  // editor says so beside it (the notice, browser/versions.ts).
  return { message: `deletion of ${id} saved as a draft`, draft: id, notice: t.deletionWaits(id) }
}

export const DELETION_ACTIONS = {
  deleteFile: writes(deletionAsDraft),
  deleteFiles: writes(deletionAsDraft),
}
