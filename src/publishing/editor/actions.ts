/**
 * Every action of Decap's proxy protocol the service answers, by the name Decap sends: one
 * handler each, grouped by what they touch. An action not named here is refused (422).
 */
import type { Action } from './context'
import { DELETION_ACTIONS } from './deletion'
import { DRAFT_ACTIONS } from './draft-actions'
import { NOTE_ACTIONS } from './notes'
import { READS } from './reads'
import { SAVE_ACTIONS } from './save'
import { UPLOAD_ACTIONS } from './upload'

export const ACTIONS: ReadonlyMap<string, Action> = new Map(
  Object.entries({
    ...READS,
    ...DRAFT_ACTIONS,
    ...SAVE_ACTIONS,
    ...UPLOAD_ACTIONS,
    ...DELETION_ACTIONS,
    ...NOTE_ACTIONS,
  }),
)
