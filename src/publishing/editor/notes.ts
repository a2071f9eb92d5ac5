/**
 * Decap's notes are the draft's comments: a reviewer's word to the authors, kept on record.
 * They are read and added; none is changed, resolved or deleted.
 */
import { CmsRequestError } from '../../cms/backend'
import { type Action, idOf, isRecord, reads, writes } from './context'
import { TEXTS } from './texts'

const kept = writes(async (_context, person) => {
  throw new CmsRequestError(TEXTS[person.language].commentsKept, 403)
})

export const NOTE_ACTIONS: Record<string, Action> = {
  getNotes: reads(async ({ drafts }, _person, params) => {
    const draft = await drafts.get(idOf(params))
    const slug = String(params.slug)
    return {
      notes: (draft?.comments ?? []).map((comment, index) => ({
        id: String(index + 1),
        content: comment.body,
        timestamp: comment.at,
        author: comment.name,
        entrySlug: slug,
        resolved: false,
      })),
    }
  }),
  addNote: writes(async ({ drafts }, person, params) => {
    const note = isRecord(params.note) ? params.note : {}
    const draft = await drafts.comment(person, idOf(params), String(note.content ?? ''))
    const comment = draft.comments.at(-1)
    return {
      note: {
        id: String(draft.comments.length),
        content: comment?.body,
        timestamp: comment?.at,
        author: comment?.name,
        entrySlug: String(params.slug),
        resolved: false,
      },
    }
  }),
  updateNote: kept,
  deleteNote: kept,
  toggleNoteResolution: kept,
}
