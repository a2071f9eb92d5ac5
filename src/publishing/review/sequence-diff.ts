/**
 * What changed between two sequences (the words of a sentence, the paragraphs of a text, the
 * items of a list): the longest common subsequence, after the common start and end are taken
 * off, so the usual edit (a sentence added, a word replaced) costs only its own length. A middle
 * too long to compare cell by cell is reported as replaced whole: a reviewer still sees both.
 */

export type Step<T> =
  | { kind: 'same'; before: T; after: T }
  | { kind: 'removed'; before: T }
  | { kind: 'added'; after: T }

/** Above this many cells (middle before × middle after) the middle is replaced whole. */
const MAX_CELLS = 4_000_000

export function diffSequences<T>(
  before: readonly T[],
  after: readonly T[],
  equal: (a: T, b: T) => boolean = Object.is,
): Step<T>[] {
  let start = 0
  while (
    start < before.length &&
    start < after.length &&
    equal(before[start] as T, after[start] as T)
  ) {
    start++
  }
  let endBefore = before.length
  let endAfter = after.length
  while (
    endBefore > start &&
    endAfter > start &&
    equal(before[endBefore - 1] as T, after[endAfter - 1] as T)
  ) {
    endBefore--
    endAfter--
  }
  const same = (from: number, to: number, offset: number): Step<T>[] =>
    before.slice(from, to).map((item, index) => ({
      kind: 'same',
      before: item,
      after: after[from + offset + index] as T,
    }))
  return [
    ...same(0, start, 0),
    ...middle(before.slice(start, endBefore), after.slice(start, endAfter), equal),
    ...same(endBefore, before.length, endAfter - endBefore),
  ]
}

/** The common subsequence of two middles, by a table of lengths read back from the start. */
function middle<T>(before: readonly T[], after: readonly T[], equal: (a: T, b: T) => boolean) {
  const rows = before.length
  const columns = after.length
  const steps: Step<T>[] = []
  if (rows * columns > MAX_CELLS || rows === 0 || columns === 0) {
    for (const item of before) steps.push({ kind: 'removed', before: item })
    for (const item of after) steps.push({ kind: 'added', after: item })
    return steps
  }
  // lengths[i][j]: the longest common subsequence of before[i..] and after[j..].
  const width = columns + 1
  const lengths = new Uint32Array((rows + 1) * width)
  for (let i = rows - 1; i >= 0; i--) {
    for (let j = columns - 1; j >= 0; j--) {
      lengths[i * width + j] = equal(before[i] as T, after[j] as T)
        ? (lengths[(i + 1) * width + j + 1] ?? 0) + 1
        : Math.max(lengths[(i + 1) * width + j] ?? 0, lengths[i * width + j + 1] ?? 0)
    }
  }
  let i = 0
  let j = 0
  while (i < rows && j < columns) {
    if (equal(before[i] as T, after[j] as T)) {
      steps.push({ kind: 'same', before: before[i] as T, after: after[j] as T })
      i++
      j++
    } else if ((lengths[(i + 1) * width + j] ?? 0) >= (lengths[i * width + j + 1] ?? 0)) {
      steps.push({ kind: 'removed', before: before[i] as T })
      i++
    } else {
      steps.push({ kind: 'added', after: after[j] as T })
      j++
    }
  }
  for (; i < rows; i++) steps.push({ kind: 'removed', before: before[i] as T })
  for (; j < columns; j++) steps.push({ kind: 'added', after: after[j] as T })
  return steps
}

/** A run of text as a reviewer sees it: kept, or removed from the old, or added in the new. */
export interface Segment {
  kind: 'same' | 'removed' | 'added'
  text: string
}

/** Words, spaces and single marks: the units a change of text is shown in. */
const tokens = (text: string) => text.match(/\s+|[\p{L}\p{N}_'’-]+|[^\s\p{L}\p{N}]/gu) ?? []

/**
 * The old and the new text, each as runs of kept and changed words: the old with what was
 * removed marked, the new with what was added marked. Neighbouring runs of one kind are joined.
 */
export function diffWords(before: string, after: string): { before: Segment[]; after: Segment[] } {
  const old: Segment[] = []
  const now: Segment[] = []
  const push = (into: Segment[], kind: Segment['kind'], text: string) => {
    const last = into.at(-1)
    if (last?.kind === kind) last.text += text
    else into.push({ kind, text })
  }
  for (const step of diffSequences(tokens(before), tokens(after))) {
    if (step.kind === 'same') {
      push(old, 'same', step.before)
      push(now, 'same', step.after)
    } else if (step.kind === 'removed') push(old, 'removed', step.before)
    else push(now, 'added', step.after)
  }
  // A space between two changed words belongs to the change, not to what was kept.
  return { before: tidy(old), after: tidy(now) }
}

/** Joins a lone space kept between two changes into them, so a change reads as one phrase. */
function tidy(segments: Segment[]): Segment[] {
  const out: Segment[] = []
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index] as Segment
    const previous = out.at(-1)
    const next = segments[index + 1]
    if (
      segment.kind === 'same' &&
      /^\s+$/.test(segment.text) &&
      previous &&
      previous.kind !== 'same' &&
      next &&
      next.kind === previous.kind
    ) {
      previous.text += segment.text + next.text
      index++
      continue
    }
    if (previous && previous.kind === segment.kind) previous.text += segment.text
    else out.push({ ...segment })
  }
  return out
}
