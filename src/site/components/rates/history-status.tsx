/**
 * What stands where a currency's rates by day will be while they load or when they could not:
 * a line read out politely, and after a failure the way forward (try again; reload the page
 * when the files are gone since a deploy). Its box keeps its size, so nothing below moves.
 */
import { type RefObject, useEffect, useRef } from 'react'
import type { CardTexts } from '../../../shared/rates/types'
import { fill } from '../../format'
import { buttonClass } from '../button'
import type { HistoryState } from './history-loader'
import styles from './styles.module.css'

export function HistoryStatus({
  state,
  texts,
  currency,
  onRetry,
  className,
}: {
  state: HistoryState
  texts: CardTexts
  /** The currency's name in the page's language. */
  currency: string
  onRetry(): void
  className?: string
}) {
  const failed = state.status === 'failed'
  const retrying = state.status === 'loading' && state.retrying
  const message = failed
    ? state.outdated
      ? texts.historyOutdated
      : fill(texts.historyError, { currency })
    : state.status === 'loading'
      ? fill(texts.historyLoading, { currency })
      : ''
  const outdated = failed && state.outdated
  // The retry button stays while retrying, so the visitor's focus is not lost under it.
  const button = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (retrying && document.activeElement === document.body) button.current?.focus()
  }, [retrying])
  return (
    <div className={[styles.status, className].filter(Boolean).join(' ')} data-history-status="">
      <p role="status" className={failed ? styles.statusError : undefined}>
        {message}
      </p>
      {(failed || retrying) && (
        <button
          ref={button}
          type="button"
          className={buttonClass('secondary')}
          aria-disabled={retrying || undefined}
          onClick={() => {
            if (retrying) return
            if (outdated) window.location.reload()
            else onRetry()
          }}
        >
          {outdated ? texts.reload : texts.retry}
        </button>
      )}
    </div>
  )
}

/**
 * After a successful retry the retry button, which had the visitor's focus, gives way to what
 * loaded: focus follows to `target` (the table, the result) instead of falling to the page.
 */
export function useFocusAfterRetry(state: HistoryState, target: RefObject<HTMLElement | null>) {
  const retried = useRef(false)
  useEffect(() => {
    if (state.status === 'loading' && state.retrying) retried.current = true
    if (state.status !== 'loaded' || !retried.current) return
    retried.current = false
    if (document.activeElement === document.body) target.current?.focus()
  }, [state, target])
}
