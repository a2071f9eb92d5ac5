/**
 * Loads a currency's rates by day (`RateHistory`) when the page needs them: one request per
 * file however many parts of the page ask (in flight or done), a failed one may be asked again,
 * and prefetching on a visitor's intent with the runtime's guards (never with data saver or on
 * 2g). The service worker keeps the files (cache first), so a currency seen once works offline.
 */
import { type PointerEvent, useCallback, useEffect, useRef, useState } from 'react'
import { connectionAllowsPrefetch, currentConnection } from '../../../shared/connection'
import { PREFETCH_HOVER_DELAY_MS } from '../../../shared/constants'
import type { RateHistory } from '../../../shared/rates/types'

/** Why a file did not load: `outdated` when it is gone (a deploy since the page was opened). */
export class HistoryLoadError extends Error {
  constructor(
    readonly url: string,
    readonly outdated: boolean,
    reason: string,
  ) {
    super(`Could not load ${url}: ${reason}`)
  }
}

const requests = new Map<string, Promise<RateHistory>>()
/** Files already loaded: a part of the page asking for one again draws it at once. */
const loaded = new Map<string, RateHistory>()
/** Parts of the page to tell when a file arrives: one that had failed shows it at once. */
const listeners = new Set<() => void>()

const isRateHistory = (data: unknown): data is RateHistory =>
  typeof (data as RateHistory | null)?.currency === 'string' &&
  Array.isArray((data as RateHistory).days)

async function request(url: string): Promise<RateHistory> {
  let response: Response
  try {
    response = await fetch(url, { headers: { accept: 'application/json' } })
  } catch (error) {
    throw new HistoryLoadError(url, false, error instanceof Error ? error.message : String(error))
  }
  if (!response.ok)
    throw new HistoryLoadError(url, response.status === 404, `HTTP ${response.status}`)
  const data: unknown = await response.json().catch(() => undefined)
  if (!isRateHistory(data)) throw new HistoryLoadError(url, false, 'no rates in the answer')
  loaded.set(url, data)
  for (const listener of listeners) listener()
  return data
}

/** The file at `url`; callers at the same time share one request, a failure can be retried. */
export function loadHistory(url: string): Promise<RateHistory> {
  let pending = requests.get(url)
  if (!pending) {
    pending = request(url)
    requests.set(url, pending)
    const settled = pending
    settled.catch(() => {
      if (requests.get(url) === settled) requests.delete(url)
    })
  }
  return pending
}

/** Loads `url` ahead of need, unless the visitor's connection asks to save data. */
export function prefetchHistory(url: string): void {
  if (loaded.has(url) || !connectionAllowsPrefetch(currentConnection())) return
  loadHistory(url).catch(() => {})
}

export type HistoryState =
  | { status: 'idle' }
  /** `retrying`: after a failure, at the visitor's request (the retry button stays in place). */
  | { status: 'loading'; retrying: boolean }
  | { status: 'loaded'; history: RateHistory }
  | { status: 'failed'; outdated: boolean }

const IDLE: HistoryState = { status: 'idle' }

/**
 * The rates by day at `url` while a part of the page needs them (undefined: it does not). The
 * result of an address the visitor has left (another currency chosen meanwhile) is dropped.
 */
export function useRateHistory(url: string | undefined): {
  state: HistoryState
  retry(): void
} {
  const [attempt, setAttempt] = useState(0)
  /** The next load is the visitor's retry (only that one keeps the retry button in place). */
  const retried = useRef(false)
  const [result, setResult] = useState<{ url: string; state: HistoryState }>()
  const [, setArrivals] = useState(0)
  useEffect(() => {
    const listener = () => setArrivals((count) => count + 1)
    listeners.add(listener)
    return () => {
      listeners.delete(listener)
    }
  }, [])
  useEffect(() => {
    if (!url || loaded.has(url)) return
    let current = true
    const retrying = retried.current && attempt > 0
    retried.current = false
    setResult({ url, state: { status: 'loading', retrying } })
    loadHistory(url).then(
      (history) => {
        if (current) setResult({ url, state: { status: 'loaded', history } })
      },
      (error: unknown) => {
        const outdated = error instanceof HistoryLoadError && error.outdated
        if (current) setResult({ url, state: { status: 'failed', outdated } })
      },
    )
    return () => {
      current = false
    }
  }, [url, attempt])
  const retry = useCallback(() => {
    retried.current = true
    setAttempt((count) => count + 1)
  }, [])
  if (!url) return { state: IDLE, retry }
  const history = loaded.get(url)
  if (history) return { state: { status: 'loaded', history }, retry }
  if (result?.url === url) return { state: result.state, retry }
  return { state: { status: 'loading', retrying: false }, retry }
}

/**
 * Handlers for the control that will need the file at `url`: hovering it (after the runtime's
 * hover delay), focusing it or pressing it starts loading, as the runtime prefetches a link.
 */
export function useIntentPrefetch(url: string) {
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])
  const now = () => {
    clearTimeout(timer.current)
    prefetchHistory(url)
  }
  return {
    onPointerEnter: (event: PointerEvent) => {
      // A touch presses at once (pointerdown follows); only a hovering mouse or pen waits.
      if (event.pointerType === 'touch') return
      clearTimeout(timer.current)
      timer.current = setTimeout(() => prefetchHistory(url), PREFETCH_HOVER_DELAY_MS)
    },
    onPointerLeave: () => clearTimeout(timer.current),
    onFocus: now,
    onPointerDown: now,
  }
}
