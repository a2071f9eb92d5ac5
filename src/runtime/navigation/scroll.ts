/**
 * Scroll positions per history entry, kept in sessionStorage so they survive reloads and
 * full loads. Restoration order: saved position, then the address's hash target, then top.
 * Every storage call is guarded: storage may be disabled, full or throw on access.
 */
import { SCROLL_STORAGE_KEY } from '../../shared/constants'

export interface ScrollPosition {
  x: number
  y: number
}

/** At most this many entries are kept; the oldest go first. */
const MAX_ENTRIES = 100

export interface ScrollStore {
  save(key: string, position: ScrollPosition): void
  get(key: string): ScrollPosition | undefined
}

export function createScrollStore(storage: () => Storage | undefined): ScrollStore {
  const read = (): Record<string, ScrollPosition> => {
    try {
      const raw = storage()?.getItem(SCROLL_STORAGE_KEY)
      const parsed: unknown = raw ? JSON.parse(raw) : {}
      return typeof parsed === 'object' && parsed !== null
        ? (parsed as Record<string, ScrollPosition>)
        : {}
    } catch {
      return {}
    }
  }
  return {
    save(key, position) {
      const positions = read()
      delete positions[key]
      positions[key] = { x: Math.round(position.x), y: Math.round(position.y) }
      const keys = Object.keys(positions)
      for (const old of keys.slice(0, Math.max(0, keys.length - MAX_ENTRIES))) delete positions[old]
      try {
        storage()?.setItem(SCROLL_STORAGE_KEY, JSON.stringify(positions))
      } catch {
        // Quota exceeded or storage forbidden: restoration is a nicety, not a duty.
      }
    },
    get(key) {
      const position = read()[key]
      return position && Number.isFinite(position.x) && Number.isFinite(position.y)
        ? position
        : undefined
    },
  }
}

/** The element a hash points at: by id, then by `name` (old-style anchors). */
export function hashTarget(hash: string, doc: Document = document): HTMLElement | null {
  if (!hash || hash === '#') return null
  let id: string
  try {
    id = decodeURIComponent(hash.slice(1))
  } catch {
    id = hash.slice(1)
  }
  return doc.getElementById(id) ?? (doc.getElementsByName(id)[0] as HTMLElement | undefined) ?? null
}

/** Scrolls to and focuses the hash's target; false when there is none. */
export function scrollToHash(hash: string, doc: Document = document): boolean {
  const target = hashTarget(hash, doc)
  if (!target) return false
  // An FAQ answer (or anything inside a folded part) opens to be seen.
  for (
    let folded = target.closest('details');
    folded;
    folded = folded.parentElement?.closest('details') ?? null
  ) {
    folded.open = true
  }
  target.scrollIntoView()
  if (!target.matches('a[href], button, input, select, textarea, [tabindex]')) {
    target.setAttribute('tabindex', '-1')
  }
  target.focus({ preventScroll: true })
  return true
}
