/** What both rate sections draw alike: the sentence naming the source, a table in its box. */
import type { ReactNode, Ref } from 'react'
import type { Language } from '../../../shared/languages'
import { ECB_RATES_PAGE, type RatesTexts } from '../../../shared/rates/types'
import { fill, formatDate } from '../../format'
import styles from './styles.module.css'

/** The sentence under a rates table: the day and the source. */
export function Source({
  texts,
  language,
  date,
}: {
  texts: Pick<RatesTexts, 'ratesOf' | 'source' | 'sourceLink'>
  language: Language
  date: string
}) {
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
export function Table({
  caption,
  head,
  children,
  className,
  boxRef,
}: {
  caption: string
  head: ReactNode
  children: ReactNode
  /** A class of the box besides its own (a box of fixed height). */
  className?: string
  /** The scrolling box, for focus (a prop of its own: React 18 keeps `ref` from components). */
  boxRef?: Ref<HTMLElement>
}) {
  return (
    <section
      ref={boxRef}
      className={className ? `${styles.scroll} ${className}` : styles.scroll}
      aria-label={caption}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
      tabIndex={0}
    >
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
export function RateColumns({
  texts,
  network,
}: {
  texts: Pick<RatesTexts, 'cardRate' | 'ecbRate' | 'markup'>
  network: string
}) {
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
