/** Small building blocks the templates and sections share: sections, buttons, lists, facts. */
import type { ReactNode } from 'react'
import { type ButtonVariant, buttonClass } from '../button'
import { Icon } from '../icon'
import { Link } from '../link'
import styles from './styles.module.css'

/** A titled part of a page: an h2 and optionally an introduction. */
export function Section({
  heading,
  intro,
  children,
  className,
  lang,
}: {
  heading?: ReactNode
  intro?: string
  children?: ReactNode
  className?: string
  lang?: string
}) {
  return (
    <section className={className ? `${styles.section} ${className}` : styles.section} lang={lang}>
      {heading && <h2 className={styles.heading}>{heading}</h2>}
      {intro && <p className={styles.intro}>{intro}</p>}
      {children}
    </section>
  )
}

/** A link that looks like a button: for the one or two actions a page asks of its reader. */
export function ButtonLink({
  href,
  variant = 'primary',
  children,
}: {
  href: string
  variant?: ButtonVariant
  children: ReactNode
}) {
  return (
    <Link className={buttonClass(variant)} href={href}>
      {children}
    </Link>
  )
}

/** One or two actions side by side, wrapping on narrow screens. */
export function Actions({ children }: { children: ReactNode }) {
  return <div className={styles.actions}>{children}</div>
}

/** A short label above a title: the partner, the team, the category. */
export function Eyebrow({ children }: { children: ReactNode }) {
  return <p className={styles.eyebrow}>{children}</p>
}

/** Dates, authors, reading time: secondary facts about the page. */
export function Meta({ children }: { children: ReactNode }) {
  return <p className={styles.meta}>{children}</p>
}

/** A list of who or what, each with a check mark. */
export function Checklist({ items }: { items: readonly string[] }) {
  return (
    <ul className={styles.checklist}>
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  )
}

/** Numbered steps or findings, each a title and a text. */
export function Steps({ items }: { items: readonly { title: string; text: string }[] }) {
  return (
    <ol className={styles.steps}>
      {items.map((item) => (
        <li key={item.title} className={styles.step}>
          <h3 className={styles.stepTitle}>{item.title}</h3>
          <p>{item.text}</p>
        </li>
      ))}
    </ol>
  )
}

/** Documents to download, each with what it is. */
export function DownloadList({
  items,
}: {
  items: readonly {
    href: string
    label: string
    description?: string
    format?: string
    /** The document's language (`hreflang`), where the page knows it. */
    language?: string
  }[]
}) {
  return (
    <ul className={styles.downloads}>
      {items.map((item) => (
        <li key={item.href} className={styles.download}>
          <Icon name="download" className={styles.fileIcon} />
          <div>
            <a
              className={styles.downloadLink}
              href={item.href}
              hrefLang={item.language}
              type={item.format === 'PDF' ? 'application/pdf' : undefined}
            >
              {item.label}
              {item.format && <span className={styles.format}> ({item.format})</span>}
            </a>
            {item.description && <p className={styles.downloadText}>{item.description}</p>}
          </div>
        </li>
      ))}
    </ul>
  )
}

/** Label and value pairs: a job's place and kind, the bank's register entries. */
export function Facts({ items }: { items: readonly { label: string; value: ReactNode }[] }) {
  return (
    <dl className={styles.facts}>
      {items.map((item) => (
        <div key={item.label} className={styles.fact}>
          <dt>{item.label}</dt>
          <dd>{item.value}</dd>
        </div>
      ))}
    </dl>
  )
}
