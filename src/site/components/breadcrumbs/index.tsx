import type { NavigationItem } from '../../../shared/types'
import { Link } from '../link'
import styles from './styles.module.css'

/** Where the page sits: links to home and the pages above, then the page itself (current). */
export function Breadcrumbs({
  trail,
  label,
}: {
  trail: readonly NavigationItem[] | undefined
  label: string
}) {
  if (!trail || trail.length < 2) return null
  const last = trail.length - 1
  return (
    <nav className={styles.breadcrumbs} aria-label={label}>
      <ol className={styles.list}>
        {trail.map((item, index) => (
          <li key={item.href} className={styles.item}>
            {index === last ? (
              <span aria-current="page" lang={item.lang}>
                {item.label}
              </span>
            ) : (
              <Link className={styles.link} href={item.href} lang={item.lang}>
                {item.label}
              </Link>
            )}
          </li>
        ))}
      </ol>
    </nav>
  )
}
