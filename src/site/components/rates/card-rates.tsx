/**
 * A card network's rates: the latest day's table with the mark-up over the ECB rate, the
 * converter and each currency's rates by day. The page data holds the latest day only; the other
 * days load per currency (`history-loader.ts`).
 */
import { useMemo, useState } from 'react'
import { currencyName } from '../../../shared/display-names'
import { fill, formatDate } from '../../format'
import type { CardRatesSection } from '../sections/rates-slot'
import { Section } from '../ui'
import { Converter } from './converter'
import { formatMarkup, formatRate } from './format'
import { History } from './history'
import { RateColumns, Source, Table } from './parts'
import styles from './styles.module.css'

/** The currency shown first: the US dollar where the network quotes it. */
const FIRST_CURRENCY = 'USD'

export function CardRates({ section }: { section: CardRatesSection }) {
  const data = section.data
  const [currency, setCurrency] = useState(() =>
    data?.currencies.includes(FIRST_CURRENCY) ? FIRST_CURRENCY : (data?.currencies[0] ?? ''),
  )
  const currencies = useMemo(
    () => data?.currencies.map((code) => ({ code, name: currencyName(code, data.language) })) ?? [],
    [data],
  )
  if (!data) return null
  const { texts, language, network, latest } = data
  const date = (iso: string) => formatDate(iso, language)
  const chosen = currencies.find((entry) => entry.code === currency) ?? currencies[0]
  return (
    <Section heading={section.heading} intro={section.intro}>
      <Source texts={texts} language={language} date={latest.date} />
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
        {currencies.map((entry, column) => (
          <tr key={entry.code}>
            <th scope="row">
              <span className={styles.code}>{entry.code}</span>{' '}
              <span className={styles.name}>{entry.name}</span>
            </th>
            <td className={styles.number}>{formatRate(latest.card[column] ?? '', language)}</td>
            <td className={styles.number}>{formatRate(latest.ecb[column] ?? '', language)}</td>
            <td className={styles.number}>
              {formatMarkup(latest.ecb[column] ?? '', latest.card[column] ?? '', language)}
            </td>
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
      <Converter data={data} currencies={currencies} currency={currency} onCurrency={setCurrency} />
      {chosen && <History data={data} currency={chosen} />}
    </Section>
  )
}
