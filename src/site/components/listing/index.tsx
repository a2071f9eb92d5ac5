import type { ListingItem } from '../../../shared/types'
import { formatDate } from '../../format'
import { Icon } from '../icon'
import { Link } from '../link'
import styles from './styles.module.css'

/**
 * Entries generated from the content store, as cards; each entry's title is a heading. An
 * entry in a language of its own (a blog post, a document) says so with `lang`; where that is
 * not the page's, its date stays in the page's language, and `languageLabel` names it.
 */
export function Listing({
  items,
  language,
  level = 2,
  languageLabel,
}: {
  items: readonly ListingItem[] | undefined
  language: string
  level?: 2 | 3
  /** The visible note on an entry in another language: "Article in German". */
  languageLabel?: (language: string) => string
}) {
  if (!items?.length) return null
  const Heading = level === 2 ? 'h2' : 'h3'
  const Child = level === 2 ? 'h3' : 'h4'
  return (
    <ul className={styles.listing}>
      {items.map((item) => {
        // In an entry of another language, its date and note stay in the page's.
        const dateLang = item.language && item.language !== language ? language : undefined
        return (
          <li key={item.href} className={styles.card} lang={item.language}>
            {item.icon && <Icon name={item.icon} className={styles.icon} />}
            {item.label && <p className={styles.label}>{item.label}</p>}
            <Heading className={styles.title}>
              <Link href={item.href}>{item.title}</Link>
            </Heading>
            {item.date && (
              <p className={styles.date} lang={dateLang}>
                {formatDate(item.date, language)}
                {dateLang && languageLabel && item.language ? (
                  <>
                    {' · '}
                    <span className={styles.language}>{languageLabel(item.language)}</span>
                  </>
                ) : null}
              </p>
            )}
            {item.summary && <p className={styles.summary}>{item.summary}</p>}
            {item.children && item.children.length > 0 && (
              <ul className={styles.children}>
                {item.children.map((child) => (
                  <li key={child.href}>
                    <Child className={styles.child}>
                      <Link href={child.href}>{child.title}</Link>
                    </Child>
                  </li>
                ))}
              </ul>
            )}
          </li>
        )
      })}
    </ul>
  )
}
