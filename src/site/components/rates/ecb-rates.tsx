/**
 * The ECB's reference rates of the latest day as a table sortable by currency, rate and change,
 * each currency's course as a small chart whose path the build drew.
 */
import { useMemo, useState } from 'react'
import { currencyName } from '../../../shared/display-names'
import type { EcbRatesData } from '../../../shared/rates/types'
import { fill, formatDate } from '../../format'
import type { EcbRatesSection } from '../sections/rates-slot'
import { Section } from '../ui'
import { formatPercent, formatRate } from './format'
import { Source, Table } from './parts'
import styles from './styles.module.css'

type SortKey = 'code' | 'rate' | 'change'
type Row = EcbRatesData['rows'][number]

const compare: Record<SortKey, (a: Row, b: Row) => number> = {
  code: (a, b) => a.code.localeCompare(b.code),
  rate: (a, b) => Number(a.rate) - Number(b.rate),
  change: (a, b) => a.change - b.change,
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
      <Source texts={texts} language={language} date={data.date} />
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
        {rows.map((row) => {
          const name = currencyName(row.code, language)
          return (
            <tr key={row.code}>
              <th scope="row">
                <span className={styles.code}>{row.code}</span>{' '}
                <span className={styles.name}>{name}</span>
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
                    currency: name,
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
          )
        })}
      </Table>
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      <p className={styles.note}>{texts.informationOnly}</p>
    </Section>
  )
}
