import type { PageEntry } from '../../content/schema/entries'
import { Picture } from '../components/picture'
import { HeroActions, Sections } from '../components/sections'
import styles from './home.module.css'
import type { TemplateProps } from './types'

/** The home page: its first hero section stands in for the page header. */
export function HomeTemplate({ content }: TemplateProps) {
  const page = content as unknown as PageEntry
  const [first, ...rest] = page.sections
  const hero = first?.type === 'hero' ? first : undefined
  return (
    <article>
      <header className={styles.hero}>
        <div className={styles.heroText}>
          <h1 className={styles.title} tabIndex={-1}>
            {hero?.heading ?? page.title}
          </h1>
          <p className={styles.lead}>{hero?.text ?? page.intro}</p>
          {hero?.actions && <HeroActions actions={hero.actions} />}
        </div>
        {hero?.image ? (
          <Picture
            className={styles.picture}
            image={hero.image}
            sizes="(min-width: 56rem) 40vw, 100vw"
            priority
          />
        ) : (
          <svg
            className={styles.art}
            viewBox="0 0 400 320"
            aria-hidden="true"
            focusable="false"
            fill="none"
          >
            <rect x="40" y="40" width="280" height="176" rx="20" fill="var(--color-inverse)" />
            <rect x="64" y="72" width="52" height="38" rx="8" fill="var(--color-inverse-accent)" />
            <path
              d="M64 172h96M64 190h56"
              stroke="var(--color-inverse-muted)"
              strokeWidth="8"
              strokeLinecap="round"
            />
            <circle cx="268" cy="176" r="20" fill="var(--color-brand)" />
            <circle cx="244" cy="176" r="20" fill="var(--color-inverse-accent)" opacity="0.8" />
            <rect x="120" y="120" width="240" height="160" rx="20" fill="var(--color-brand)" />
            <path
              d="M152 160h72M152 184h120M152 208h96"
              stroke="#fff"
              strokeWidth="10"
              strokeLinecap="round"
            />
            <circle cx="318" cy="244" r="14" fill="#fff" />
          </svg>
        )}
      </header>
      <Sections sections={hero ? rest : page.sections} />
    </article>
  )
}
