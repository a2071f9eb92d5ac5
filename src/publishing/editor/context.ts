/**
 * What every action of the editor's protocol works with: the service's repository, drafts and
 * publisher, and main's tip; and the shape of an action, so that the table of them
 * (actions.ts) says of each whether it changes anything.
 */
import { CmsRequestError } from '../../cms/backend'
import type { GitRepository } from '../git/repository'
import type { Person } from '../people/roles'
import type { Publisher } from '../publication/publisher'
import { checkDraftId, type Drafts, MAIN, NoDraftError } from '../workflow/drafts'
import { TEXTS } from './texts'

export interface EditorOptions {
  repo: GitRepository
  drafts: Drafts
  publisher: Publisher
  /** The address of a draft's preview as a whole site (the editor links to it). */
  previewUrl?: (id: string) => string
}

export interface EditorContext extends EditorOptions {
  /** Main's tip now: what is live. */
  mainTip(): Promise<string>
}

/** A request's parameters, as the editor sends them. */
export type Params = Record<string, unknown>

/** One action of the protocol. */
export interface Action {
  /** It changes something: a refusal of it is in the trail. */
  writes: boolean
  run(context: EditorContext, person: Person, params: Params): Promise<unknown>
}

/** An action that reads only. */
export const reads = (run: Action['run']): Action => ({ writes: false, run })
/** An action that changes something (a draft, a status, a release, a comment). */
export const writes = (run: Action['run']): Action => ({ writes: true, run })

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The context of the actions, on the service's parts. */
export function editorContext(options: EditorOptions): EditorContext {
  return {
    ...options,
    async mainTip() {
      const tip = await options.repo.resolve(MAIN)
      if (!tip) throw new Error('the repository has no main branch')
      return tip
    },
  }
}

/** The draft a call names by collection and slug (`id`, where sent, is a file's). */
export const idOf = (params: Params) =>
  checkDraftId(`${String(params.collection)}/${String(params.slug)}`)

/** The draft `id`, or a `NoDraftError` (404, said in the person's words). */
export async function requireDraft(context: EditorContext, id: string) {
  const draft = await context.drafts.get(id)
  if (!draft) throw new NoDraftError(id)
  return draft
}

/** A draft must be the first of its entry or image: one change at a time goes to review. */
export async function refuseTakenDraft(context: EditorContext, person: Person, id: string) {
  if (await context.drafts.get(id)) {
    throw new CmsRequestError(TEXTS[person.language].draftExists(id), 409)
  }
}
