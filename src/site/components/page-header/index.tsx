import type { ReactNode } from 'react'
import { Eyebrow, Meta } from '../ui'
import styles from './styles.module.css'

/**
 * The top of every page: its title (the only h1, focused after client navigation), an eyebrow
 * above it, facts such as dates below it, and the introduction.
 */
export function PageHeader({
  title,
  intro,
  eyebrow,
  meta,
  children,
}: {
  title: string
  intro?: string
  eyebrow?: ReactNode
  meta?: ReactNode
  children?: ReactNode
}) {
  return (
    <header className={styles.header}>
      {eyebrow && <Eyebrow>{eyebrow}</Eyebrow>}
      <h1 className={styles.title} tabIndex={-1}>
        {title}
      </h1>
      {meta && <Meta>{meta}</Meta>}
      {intro && <p className={styles.lead}>{intro}</p>}
      {children}
    </header>
  )
}
