/**
 * An image uploaded in the media library on its own (inside an entry, it goes with the entry's
 * draft): a draft that adds it, sent to review, and uploaded as far as the person is concerned
 * (their media library lists their drafts' images). Checked by content as in the entry; a name
 * the live site has is refused.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { CmsRequestError } from '../../cms/backend'
import type { Person } from '../people/roles'
import { mediaDraftId } from '../workflow/drafts'
import { type EditorContext, isRecord, type Params, refuseTakenDraft, writes } from './context'
import { MEDIA_ROOT, MEDIA_TYPES, repositoryPathOf } from './paths'
import { mediaAt } from './reads'
import { TEXTS } from './texts'
import { requireAccepted, withWorkingTree } from './working-tree'

async function uploadAsDraft(context: EditorContext, person: Person, params: Params) {
  const t = TEXTS[person.language]
  const asset = isRecord(params.asset) ? params.asset : {}
  const path = repositoryPathOf(asset.path, 'asset.path', person.language)
  if (!path.startsWith(`${MEDIA_ROOT}/`) || !MEDIA_TYPES.test(path)) {
    throw new CmsRequestError(t.notAnImage(path), 400)
  }
  const id = mediaDraftId(path)
  await refuseTakenDraft(context, person, id)
  const tip = await context.mainTip()
  if (await context.repo.readBlob(tip, path)) {
    throw new CmsRequestError(t.liveNameTaken(path), 409)
  }
  // Checked on an empty tree: the image alone, by its content.
  const content = await withWorkingTree(context.repo, null, 'upload', async (tree) => {
    await requireAccepted(tree, 'persistMedia', { asset }, t.refused, person.language)
    return readFile(join(tree.dir, path))
  })
  const saved = await context.drafts.save(
    person,
    id,
    [{ path, content }],
    `Add image ${path}`,
    null,
  )
  await context.drafts.setStatus(person, id, 'pending_review')
  // Uploaded, as a draft: Decap lists the image as Decap's own backend answers it, and the
  // editor shows the notice (browser/versions.ts) saying it is in review.
  return { ...(await mediaAt(context, saved.head, path)), notice: t.uploadWaits(path) }
}

export const UPLOAD_ACTIONS = { persistMedia: writes(uploadAsDraft) }
