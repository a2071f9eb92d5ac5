/**
 * The exchange-rate sections: the ECB's reference rates as a sortable table with each
 * currency's course as a small chart (its path drawn at build time), and a card network's
 * rates with the mark-up over the ECB rate, a converter and the rates by day.
 */
import { type ChangeEvent, type ReactNode, useEffect, useId, useMemo, useState } from 'react'
import type { Language } from '../../../shared/languages'
import {
  type Decimal,
  markupPercent,
  parseDecimal,
  toEuroCents,
} from '../../../shared/rates/decimal'
import { type CardRatesData, ECB_RATES_PAGE, type EcbRatesData } from '../../../shared/rates/types'
import { fill, formatDate } from '../../format'
import type { CardRatesSection, EcbRatesSection } from '../sections/rates-slot'
import { Section } from '../ui'
import { formatAmount, formatEuros, formatPercent, formatRate, parseAmount } from './format'
import styles from './styles.module.css'

type SortKey = 'code' | 'rate' | 'change'
type Row = EcbRatesData['rows'][number]

const compare: Record<SortKey, (a: Row, b: Row) => number> = {
  code: (a, b) => a.code.localeCompare(b.code),
  rate: (a, b) => Number(a.rate) - Number(b.rate),
  change: (a, b) => a.change - b.change,
}

/** The sentence under a rates table: the day, the source and, for the snapshot, its age. */
function Source({ data, date }: { data: EcbRatesData | CardRatesData; date: string }) {
  const { texts, language } = data
  return (
    <div className={styles.source}>
      <p>
        <strong>{fill(texts.ratesOf, { date: formatDate(date, language) })}</strong> {texts.source}{' '}
        <a href={ECB_RATES_PAGE} hrefLang="en">
          {texts.sourceLink}
        </a>
      </p>
    </div>
  )
}

/** A wide table in its scrolling box (reachable by keyboard, named like the table). */
function Table({
  caption,
  head,
  children,
}: {
  caption: string
  head: ReactNode
  children: ReactNode
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
    <section className={styles.scroll} aria-label={caption} tabIndex={0}>
      <table className={styles.table}>
        <caption>{caption}</caption>
        <thead>
          <tr>{head}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </section>
  )
}

/** The three columns both card tables share: card rate, ECB rate, mark-up. */
function RateColumns({ texts, network }: { texts: CardRatesData['texts']; network: string }) {
  return (
    <>
      <th scope="col" className={styles.number}>
        {fill(texts.cardRate, { network })}
      </th>
      <th scope="col" className={styles.number}>
        {texts.ecbRate}
      </th>
      <th scope="col" className={styles.number}>
        {texts.markup}
      </th>
    </>
  )
}

/** The ECB's reference rates of the latest day, sortable by currency, rate and change. */
export function EcbRates({ section }: { section: EcbRatesSection }) {
  const data = section.data
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({
    key: 'code',
    descending: false,
  })
  const [announcement, setAnnouncement] = useState('')
  const rows = useMemo(() => {
    if (!data) return []
    const sorted = [...data.rows].sort(compare[sort.key])
    return sort.descending ? sorted.reverse() : sorted
  }, [data, sort])
  if (!data) return null
  const { texts, language } = data
  const date = (iso: string) => formatDate(iso, language)
  const columns: { key: SortKey; label: string }[] = [
    { key: 'code', label: texts.currency },
    { key: 'rate', label: texts.perEuro },
    { key: 'change', label: fill(texts.change, { date: date(data.firstDate) }) },
  ]
  const sortBy = (key: SortKey, label: string) => {
    const descending = sort.key === key ? !sort.descending : false
    setSort({ key, descending })
    setAnnouncement(
      fill(texts.sorted, {
        column: label,
        direction: descending ? texts.descending : texts.ascending,
      }),
    )
  }
  const header = (key: SortKey, label: string) => (
    <th
      key={key}
      scope="col"
      className={key === 'code' ? undefined : styles.number}
      aria-sort={sort.key === key ? (sort.descending ? 'descending' : 'ascending') : undefined}
    >
      <button type="button" className={styles.sort} onClick={() => sortBy(key, label)}>
        {label}
        <span className={styles.arrow} aria-hidden="true">
          {sort.key === key ? (sort.descending ? '▼' : '▲') : '↕'}
        </span>
      </button>
    </th>
  )
  return (
    <Section heading={section.heading} intro={section.intro}>
      <Source data={data} date={data.date} />
      {data.fromSnapshot && (
        <p className={styles.note}>{fill(texts.snapshot, { date: date(data.date) })}</p>
      )}
      <Table
        caption={fill(texts.ecbCaption, { date: date(data.date) })}
        head={
          <>
            {columns.map(({ key, label }) => header(key, label))}
            <th scope="col">{texts.trend}</th>
          </>
        }
      >
        {rows.map((row) => (
          <tr key={row.code}>
            <th scope="row">
              <span className={styles.code}>{row.code}</span>{' '}
              <span className={styles.name}>{row.name}</span>
            </th>
            <td className={styles.number}>{formatRate(row.rate, language)}</td>
            <td className={styles.number}>{formatPercent(row.change, language, true)}</td>
            <td>
              <svg
                className={styles.sparkline}
                viewBox="0 0 100 24"
                width="100"
                height="24"
                preserveAspectRatio="none"
                role="img"
                aria-label={fill(texts.trendLabel, {
                  currency: row.name,
                  first: formatRate(row.first, language),
                  firstDate: date(data.firstDate),
                  last: formatRate(row.rate, language),
                  lastDate: date(data.date),
                  low: formatRate(row.low, language),
                  high: formatRate(row.high, language),
                })}
              >
                <path d={row.path} />
              </svg>
            </td>
          </tr>
        ))}
      </Table>
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      <p className={styles.note}>{texts.informationOnly}</p>
    </Section>
  )
}

/** A card network's rates: today's table, the converter and the rates by day. */
export function CardRates({ section }: { section: CardRatesSection }) {
  const data = section.data
  const [currency, setCurrency] = useState(() =>
    data?.currencies.some((entry) => entry.code === 'USD')
      ? 'USD'
      : (data?.currencies[0]?.code ?? ''),
  )
  if (!data) return null
  const latest = data.days[0]
  if (!latest) return null
  const { texts, language, network } = data
  const date = (iso: string) => formatDate(iso, language)
  const index = Math.max(
    0,
    data.currencies.findIndex((entry) => entry.code === currency),
  )
  const name = data.currencies[index]?.name ?? currency
  return (
    <Section heading={section.heading} intro={section.intro}>
      <Source data={data} date={latest.date} />
      <p className={styles.note}>{fill(texts.cardSource, { network })}</p>
      <Table
        caption={fill(texts.cardCaption, { network, date: date(latest.date) })}
        head={
          <>
            <th scope="col">{texts.currency}</th>
            <RateColumns texts={texts} network={network} />
            <th scope="col">{texts.date}</th>
          </>
        }
      >
        {data.currencies.map((entry, column) => (
          <tr key={entry.code}>
            <th scope="row">
              <span className={styles.code}>{entry.code}</span>{' '}
              <span className={styles.name}>{entry.name}</span>
            </th>
            <td className={styles.number}>{formatRate(latest.card[column] ?? '', language)}</td>
            <td className={styles.number}>{formatRate(latest.ecb[column] ?? '', language)}</td>
            <td className={styles.number}>{formatMarkup(latest, column, language)}</td>
            <td>
              {date(latest.date)}
              {latest.ecbDate !== latest.date && (
                <span className={styles.ecbDate}>
                  {fill(texts.ecbOf, { date: date(latest.ecbDate) })}
                </span>
              )}
            </td>
          </tr>
        ))}
      </Table>
      <Converter data={data} currency={currency} onCurrency={setCurrency} />
      <h3 className={styles.subheading}>{texts.history}</h3>
      <Table
        caption={fill(texts.historyCaption, { currency: name, network })}
        head={
          <>
            <th scope="col">{texts.date}</th>
            <RateColumns texts={texts} network={network} />
          </>
        }
      >
        {data.days.map((day) => (
          <tr key={day.date}>
            <th scope="row">{date(day.date)}</th>
            <td className={styles.number}>{formatRate(day.card[index] ?? '', language)}</td>
            <td className={styles.number}>
              {formatRate(day.ecb[index] ?? '', language)}
              {day.ecbDate !== day.date && (
                <span className={styles.ecbDate}>
                  {fill(texts.ecbOf, { date: date(day.ecbDate) })}
                </span>
              )}
            </td>
            <td className={styles.number}>{formatMarkup(day, index, language)}</td>
          </tr>
        ))}
      </Table>
    </Section>
  )
}

/** A day's mark-up of one currency, computed from the two rates (not shipped beside them). */
function formatMarkup(day: CardRatesData['days'][number], index: number, language: Language) {
  const markup = markupPercent(day.ecb[index] ?? '', day.card[index] ?? '')
  return markup === undefined ? '' : formatPercent(markup, language)
}

/** How long typing pauses before the result is read out. */
const ANNOUNCE_AFTER_MS = 600

/** Amount, currency and day in; the amount in euros at both rates and the mark-up out. */
function Converter({
  data,
  currency,
  onCurrency,
}: {
  data: CardRatesData
  currency: string
  onCurrency(code: string): void
}) {
  const { texts, language, network } = data
  const ids = useId()
  const example = language === 'de' ? '100,00' : '100.00'
  const [amountText, setAmountText] = useState(example)
  const [day, setDay] = useState(data.days[0]?.date ?? '')
  const amount = parseAmount(amountText, language)
  const index = Math.max(
    0,
    data.currencies.findIndex((entry) => entry.code === currency),
  )
  const rates = data.days.find((entry) => entry.date === day) ?? data.days[0]
  const result = amount && rates ? outcome(amount, rates, index) : undefined
  const date = (iso: string) => formatDate(iso, language)
  const lines =
    result && rates
      ? [
          fill(texts.result, {
            amount: formatAmount(amount as Decimal, currency, language),
            euros: formatEuros(result.card, language),
            network,
            rate: formatRate(rates.card[index] ?? '', language),
            date: date(rates.date),
          }),
          fill(texts.resultEcb, {
            euros: formatEuros(result.ecb, language),
            rate: formatRate(rates.ecb[index] ?? '', language),
            date: date(rates.ecbDate),
          }),
          fill(texts.resultMarkup, { markup: formatMarkup(rates, index, language) }),
        ]
      : []
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
            {data.currencies.map((entry) => (
              <option key={entry.code} value={entry.code}>
                {entry.code} – {entry.name}
              </option>
            ))}
          </select>
        </div>
        <div className={styles.field}>
          <label htmlFor={`${ids}-date`}>{texts.date}</label>
          <select id={`${ids}-date`} name="date" value={day} onChange={change(setDay)}>
            {data.days.map((entry) => (
              <option key={entry.date} value={entry.date}>
                {date(entry.date)}
              </option>
            ))}
          </select>
        </div>
      </form>
      <div className={styles.result} data-converter-result="">
        {lines.map((line) => (
          <p key={line}>{line}</p>
        ))}
      </div>
      <p className="visually-hidden" role="status" data-converter-announcement="">
        {announced}
      </p>
    </div>
  )
}

/** The amount in euro cents at the card rate and at the ECB rate of a day. */
function outcome(amount: Decimal, rates: CardRatesData['days'][number], index: number) {
  const card = parseDecimal(rates.card[index] ?? '')
  const ecb = parseDecimal(rates.ecb[index] ?? '')
  if (!card || !ecb) return undefined
  return { card: toEuroCents(amount, card), ecb: toEuroCents(amount, ecb) }
}
