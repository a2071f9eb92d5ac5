/**
 * The converter: amount, currency and day in; the amount in euros at the card network's rate
 * and at the ECB's, and the mark-up, out. The latest day converts at once from the page data;
 * another day needs the currency's history file, fetched ahead when the visitor reaches for the
 * day's list.
 */
import { type ChangeEvent, useEffect, useId, useMemo, useRef, useState } from 'react'
import { expandDays } from '../../../shared/rates/days'
import { type Decimal, parseDecimal, toEuroCents } from '../../../shared/rates/decimal'
import { historyUrl } from '../../../shared/rates/history'
import type { CardDay, CardRatesData } from '../../../shared/rates/types'
import { fill, formatDate } from '../../format'
import { formatAmount, formatEuros, formatMarkup, formatRate, parseAmount } from './format'
import { useIntentPrefetch, useRateHistory } from './history-loader'
import { HistoryStatus, useFocusAfterRetry } from './history-status'
import styles from './styles.module.css'

/** How long typing pauses before the result is read out. */
const ANNOUNCE_AFTER_MS = 600

/** The amount in euro cents at the card rate and at the ECB rate of a day. */
function outcome(amount: Decimal, rates: CardDay<string>) {
  const card = parseDecimal(rates.card)
  const ecb = parseDecimal(rates.ecb)
  if (!card || !ecb) return undefined
  return { card: toEuroCents(amount, card), ecb: toEuroCents(amount, ecb) }
}

export function Converter({
  data,
  currencies,
  currency,
  onCurrency,
}: {
  data: CardRatesData
  /** The currencies with their names in the page's language, in the order of `data`. */
  currencies: { code: string; name: string }[]
  currency: string
  onCurrency(code: string): void
}) {
  const { texts, language, network, latest } = data
  const ids = useId()
  const example = language === 'de' ? '100,00' : '100.00'
  const [amountText, setAmountText] = useState(example)
  const [day, setDay] = useState(latest.date)
  const days = useMemo(() => expandDays(data.days), [data.days])
  const amount = parseAmount(amountText, language)
  const index = Math.max(0, data.currencies.indexOf(currency))
  const name = currencies[index]?.name ?? currency
  const url = historyUrl(data.history, currency)
  const needsHistory = day !== latest.date
  const { state, retry } = useRateHistory(needsHistory ? url : undefined)
  const resultBox = useRef<HTMLDivElement>(null)
  useFocusAfterRetry(state, resultBox)
  const intent = useIntentPrefetch(url)
  const rates: CardDay<string> | undefined = !needsHistory
    ? {
        date: latest.date,
        ecbDate: latest.ecbDate,
        card: latest.card[index] ?? '',
        ecb: latest.ecb[index] ?? '',
      }
    : state.status === 'loaded'
      ? state.history.days.find((entry) => entry.date === day)
      : undefined
  const result = amount && rates ? outcome(amount, rates) : undefined
  const date = (iso: string) => formatDate(iso, language)
  const lines =
    result && rates
      ? [
          fill(texts.result, {
            amount: formatAmount(amount as Decimal, currency, language),
            euros: formatEuros(result.card, language),
            network,
            rate: formatRate(rates.card, language),
            date: date(rates.date),
          }),
          fill(texts.resultEcb, {
            euros: formatEuros(result.ecb, language),
            rate: formatRate(rates.ecb, language),
            date: date(rates.ecbDate),
          }),
          fill(texts.resultMarkup, { markup: formatMarkup(rates.ecb, rates.card, language) }),
        ]
      : []
  // While another day's rates load (or could not), the last result keeps its place, hidden, so
  // the box keeps its height and the status line stands over it: nothing below moves.
  const shown = useRef<string[]>(lines)
  const waiting = Boolean(amount) && needsHistory && state.status !== 'loaded'
  if (!waiting) shown.current = lines
  const visibleLines = waiting ? shown.current : lines
  // The result is read out once typing pauses, not at every key.
  const spoken = lines.join(' ')
  const [announced, setAnnounced] = useState('')
  const [touched, setTouched] = useState(false)
  useEffect(() => {
    if (!touched) return
    const timer = setTimeout(() => setAnnounced(spoken), ANNOUNCE_AFTER_MS)
    return () => clearTimeout(timer)
  }, [spoken, touched])
  const invalid = amount === undefined
  const change =
    (set: (value: string) => void) =>
    (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
      setTouched(true)
      set(event.currentTarget.value)
    }
  return (
    <div className={styles.converter}>
      <h3 className={styles.subheading} id={`${ids}-title`}>
        {texts.converter}
      </h3>
      <p>{fill(texts.converterIntro, { network })}</p>
      <form
        className={styles.fields}
        aria-labelledby={`${ids}-title`}
        onSubmit={(event) => event.preventDefault()}
      >
        <div className={styles.field}>
          <label htmlFor={`${ids}-amount`}>{texts.amount}</label>
          <input
            id={`${ids}-amount`}
            name="amount"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            value={amountText}
            aria-invalid={invalid}
            aria-describedby={`${ids}-amount-hint`}
            onChange={change(setAmountText)}
          />
          <span id={`${ids}-amount-hint`} className={invalid ? styles.error : styles.hint}>
            {fill(invalid ? texts.amountError : texts.amountHint, { example })}
          </span>
        </div>
        <div className={styles.field}>
          <label htmlFor={`${ids}-currency`}>{texts.currency}</label>
          <select
            id={`${ids}-currency`}
            name="currency"
            value={currency}
            onChange={change(onCurrency)}
          >
            {currencies.map((entry) => (
              <option key={entry.code} value={entry.code}>
                {entry.code} – {entry.name}
              </option>
            ))}
          </select>
        </div>
        <div className={styles.field}>
          <label htmlFor={`${ids}-date`}>{texts.date}</label>
          <select id={`${ids}-date`} name="date" value={day} onChange={change(setDay)} {...intent}>
            {days.map((entry) => (
              <option key={entry} value={entry}>
                {date(entry)}
              </option>
            ))}
          </select>
        </div>
      </form>
      <div
        ref={resultBox}
        className={styles.result}
        data-converter-result=""
        aria-busy={waiting || undefined}
        tabIndex={-1}
      >
        <div className={waiting ? styles.stale : undefined} aria-hidden={waiting || undefined}>
          {visibleLines.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
        {waiting && (
          <HistoryStatus
            state={state}
            texts={texts}
            currency={name}
            onRetry={retry}
            className={styles.over}
          />
        )}
      </div>
      <p className="visually-hidden" role="status" data-converter-announcement="">
        {announced}
      </p>
    </div>
  )
}
