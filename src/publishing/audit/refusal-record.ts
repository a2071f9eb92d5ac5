/**
 * Whether the request being answered has had its refusal written to the trail. Every refusal of
 * a signed-in person's write is in the trail: the rules record their own, and the HTTP layer
 * writes one for any other 4xx answer to a write whose request recorded none (a missing draft,
 * a time that is not one, a language the editor does not speak), so that no route can forget.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

interface RequestRecord {
  /** A refusal (or an outcome that is no refusal, like a draft made for review) is recorded. */
  settled: boolean
  /**
   * An entry that approves, publishes, rolls back or grants a role was written: the trail is
   * anchored (a checkpoint, ./anchors.ts) before the request is answered.
   */
  anchor?: boolean
}

const current = new AsyncLocalStorage<RequestRecord>()

/** Runs `next` (the rest of a request's handling) with a record of its own. */
export function withRequestRecord(next: () => void): void {
  current.run({ settled: false }, next)
}

/** Says that the current request's outcome is in the trail, or needs no entry there. */
export function settleRequestRecord(): void {
  const record = current.getStore()
  if (record) record.settled = true
}

/** Whether the current request's outcome is in the trail already (`true` outside a request). */
export function requestRecordSettled(): boolean {
  return current.getStore()?.settled ?? true
}

/** Says that the current request wrote an entry to anchor before its answer. */
export function wantAnchor(): void {
  const record = current.getStore()
  if (record) record.anchor = true
}

/** Whether the current request wrote an entry to anchor before its answer. */
export function anchorWanted(): boolean {
  return current.getStore()?.anchor ?? false
}
