/**
 * Decap CMS's proxy protocol with the editorial workflow, answered from the service's git
 * repository for a signed-in person: entries and images are read from main (what is live);
 * every save is a draft on a branch of its own (../workflow/drafts.ts), checked first by the
 * same backend as the editor of `npm run dev` on a working tree of the draft
 * (working-tree.ts); statuses, approval and publication go through the four-eyes rules. Each
 * action has its handler in the table of actions.ts. A refusal is `{ error }` with a status,
 * which the editor shows.
 */
import { CmsRequestError } from '../../cms/backend'
import { previewPages } from '../../engine/pages/preview-pages'
import { settleRequestRecord } from '../audit/refusal-record'
import { findUnstorable, unstorableMessage } from '../audit/storable'
import { unrecorded } from '../http/error-answers'
import type { EditorLanguage, Person } from '../people/roles'
import { ACTIONS } from './actions'
import { type CmsAnswer, refusal } from './answers'
import { type EditorOptions, editorContext, isRecord, type Params } from './context'
import { mainTrees } from './working-tree'

export type { CmsAnswer } from './answers'

/** The subject a refusal of `action` is recorded under: the entry it names, where it does. */
function subjectOf(action: string, params: Params): string {
  if (typeof params.collection === 'string' && typeof params.slug === 'string') {
    return `${params.collection}/${params.slug}`
  }
  const collection = (params.options as { collectionName?: unknown } | undefined)?.collectionName
  return typeof collection === 'string' ? collection : action
}

export function createCmsApi(options: EditorOptions) {
  const context = editorContext(options)
  const { drafts } = context
  const mainTree = mainTrees(context.repo, context.mainTip)

  async function dispatch(person: Person, action: string, params: Params) {
    const handler = ACTIONS.get(action)
    if (!handler) throw new CmsRequestError(`unknown action ${JSON.stringify(action)}`, 422)
    return handler.run(context, person, params)
  }

  return {
    /**
     * The pages an entry as edited makes on main's content, or the problems it would bring
     * (file and field, in the person's `language`): the preview beside the editor.
     */
    async preview(
      files: readonly { path: string; data: unknown }[],
      siteUrl: string,
      language: EditorLanguage = 'en',
    ) {
      const { backend } = await mainTree(language)
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
        const answer = refusal(error, person.language)
        const writes = ACTIONS.get(action)?.writes === true
        // Reading what is not there (an entry without a draft, above all: the editor asks for
        // its draft whenever an entry is opened) is an answer, not a refusal: nothing to record.
        if (!writes && answer.status === 404) settleRequestRecord()
        // The rules' refusals are in the trail already; a write refused as bad input joins them.
        if (writes && unrecorded(error, answer.status)) {
          await drafts.recordRefusal(person, subjectOf(action, params), {
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
