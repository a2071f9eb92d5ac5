/**
 * A currency's rates by day: behind a button, loaded from its history file when opened
 * (fetched ahead when the visitor reaches for the button). Without script, the build's table of
 * the first currency shown stands in its place, as before the files were split.
 */
import { type Ref, useContext, useId, useRef, useState } from 'react'
import { historyUrl } from '../../../shared/rates/history'
import type { CardRatesData, RateHistory } from '../../../shared/rates/types'
import { BuildResourcesContext } from '../../build-resources'
import { fill, formatDate } from '../../format'
import { formatMarkup, formatRate } from './format'
import { useIntentPrefetch, useRateHistory } from './history-loader'
import { HistoryStatus, useFocusAfterRetry } from './history-status'
import { RateColumns, Table } from './parts'
import styles from './styles.module.css'

interface HistoryProps {
  data: CardRatesData
  currency: { code: string; name: string }
}

/** The table of one currency's days. */
function HistoryTable({
  data,
  currency,
  history,
  className,
  boxRef,
}: HistoryProps & {
  history: RateHistory
  className?: string
  boxRef?: Ref<HTMLElement>
}) {
  const { texts, language, network } = data
  const date = (iso: string) => formatDate(iso, language)
  return (
    <Table
      boxRef={boxRef}
      className={className}
      caption={fill(texts.historyCaption, { currency: currency.name, network })}
      head={
        <>
          <th scope="col">{texts.date}</th>
          <RateColumns texts={texts} network={network} />
        </>
      }
    >
      {history.days.map((day) => (
        <tr key={day.date}>
          <th scope="row">{date(day.date)}</th>
          <td className={styles.number}>{formatRate(day.card, language)}</td>
          <td className={styles.number}>
            {formatRate(day.ecb, language)}
            {day.ecbDate !== day.date && (
              <span className={styles.ecbDate}>
                {fill(texts.ecbOf, { date: date(day.ecbDate) })}
              </span>
            )}
          </td>
          <td className={styles.number}>{formatMarkup(day.ecb, day.card, language)}</td>
        </tr>
      ))}
    </Table>
  )
}

/** The heading, the button that opens the chosen currency's days, and the days. */
export function History({ data, currency }: HistoryProps) {
  const { texts } = data
  const id = useId()
  const [open, setOpen] = useState(false)
  const url = historyUrl(data.history, currency.code)
  const { state, retry } = useRateHistory(open ? url : undefined)
  const intent = useIntentPrefetch(url)
  const prerendered = useContext(BuildResourcesContext)?.(url) as RateHistory | undefined
  const table = useRef<HTMLElement>(null)
  useFocusAfterRetry(state, table)
  return (
    <>
      <h3 className={styles.subheading}>{texts.history}</h3>
      <button
        type="button"
        className={styles.disclosure}
        aria-expanded={open}
        aria-controls={id}
        data-needs-script=""
        onClick={() => setOpen(!open)}
        {...intent}
      >
        <span className={styles.disclosureArrow} aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        {fill(texts.historyShow, { currency: currency.name })}
      </button>
      <div id={id} className={styles.historyBox} hidden={!open}>
        {state.status === 'loaded' ? (
          <HistoryTable
            boxRef={table}
            data={data}
            currency={currency}
            history={state.history}
            className={styles.historyScroll}
          />
        ) : (
          open && (
            <HistoryStatus state={state} texts={texts} currency={currency.name} onRetry={retry} />
          )
        )}
      </div>
      <noscript>
        {prerendered && <HistoryTable data={data} currency={currency} history={prerendered} />}
      </noscript>
    </>
  )
}
