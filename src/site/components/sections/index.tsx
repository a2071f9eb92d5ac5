/** One component per section type of the content model. */
import { useContext } from 'react'
import type { SectionOf, Section as SectionValue } from '../../../content/schema/sections'
import { uniqueSlugs } from '../../../shared/slug'
import { InterfaceContext } from '../../interface-context'
import { Icon } from '../icon'
import { Link } from '../link'
import { Picture } from '../picture'
import { RichText } from '../rich-text'
import { Actions, ButtonLink, DownloadList, Section } from '../ui'
import { FormSlot } from './form-slot'
import { RatesSlot } from './rates-slot'
import styles from './styles.module.css'

/** The one or two actions of a hero, the first primary unless the content says otherwise. */
export function HeroActions({ actions }: { actions: NonNullable<SectionOf<'hero'>['actions']> }) {
  return (
    <Actions>
      {actions.map((action) => (
        <ButtonLink key={action.href} href={action.href} variant={action.style}>
          {action.label}
        </ButtonLink>
      ))}
    </Actions>
  )
}

function Hero({ section }: { section: SectionOf<'hero'> }) {
  return (
    <section className={section.image ? `${styles.hero} ${styles.withImage}` : styles.hero}>
      <div>
        <h2 className={styles.heroHeading}>{section.heading}</h2>
        {section.text && <p className={styles.heroText}>{section.text}</p>}
        {section.actions && <HeroActions actions={section.actions} />}
      </div>
      {section.image && (
        <Picture
          className={styles.heroImage}
          image={section.image}
          sizes="(min-width: 56rem) 28rem, 100vw"
        />
      )}
    </section>
  )
}

function RichTextSection({ section }: { section: SectionOf<'richText'> }) {
  return (
    <Section heading={section.heading}>
      <RichText value={section.body} />
    </Section>
  )
}

function FeatureGrid({ section }: { section: SectionOf<'featureGrid'> }) {
  return (
    <Section heading={section.heading} intro={section.intro}>
      <ul className={styles.grid}>
        {section.features.map((feature) => (
          <li key={feature.title} className={styles.feature}>
            {feature.icon && <Icon name={feature.icon} className={styles.featureIcon} />}
            <h3 className={styles.itemTitle}>{feature.title}</h3>
            <p className={styles.itemText}>{feature.text}</p>
          </li>
        ))}
      </ul>
    </Section>
  )
}

function Cards({ section }: { section: SectionOf<'cards'> }) {
  return (
    <Section heading={section.heading} intro={section.intro}>
      <ul className={styles.grid}>
        {section.cards.map((card) => (
          <li key={card.title} className={styles.card}>
            <h3 className={styles.itemTitle}>
              {card.href ? <Link href={card.href}>{card.title}</Link> : card.title}
            </h3>
            <p className={styles.itemText}>{card.text}</p>
          </li>
        ))}
      </ul>
    </Section>
  )
}

/**
 * Questions as native disclosure widgets: keyboard and screen readers work without script.
 * Each has an id from its question (the slug helper; the same while the answer changes), so a
 * link can lead to one answer, which opens (`src/runtime/navigation/scroll.ts`); under each answer a link
 * to it, which the runtime copies (`src/runtime/page/copy-link.ts`).
 */
export function Faq({ heading, items }: { heading: string; items: SectionOf<'faq'>['items'] }) {
  const ui = useContext(InterfaceContext)
  const ids = uniqueSlugs(items.map((item) => item.question))
  return (
    <Section heading={heading}>
      <div className={styles.faq}>
        {items.map((item, index) => {
          const id = ids[index] ?? ''
          return (
            <details key={item.question} id={id} className={styles.question}>
              <summary className={styles.summary}>
                <h3 id={`${id}-question`} className={styles.questionText}>
                  {item.question}
                </h3>
              </summary>
              <RichText className={styles.answer} value={item.answer} />
              {ui ? (
                <p className={styles.copyLinkRow} lang={ui.language}>
                  <a
                    href={`#${id}`}
                    className={styles.copyLink}
                    data-copy-link=""
                    aria-describedby={`${id}-question`}
                  >
                    {ui.strings.copyLink}
                  </a>
                </p>
              ) : null}
            </details>
          )
        })}
      </div>
    </Section>
  )
}

function CallToAction({ section }: { section: SectionOf<'callToAction'> }) {
  return (
    <section className={styles.callToAction}>
      <h2 className={styles.callToActionHeading}>{section.heading}</h2>
      {section.text && <p className={styles.callToActionText}>{section.text}</p>}
      <Actions>
        <ButtonLink href={section.action.href}>{section.action.label}</ButtonLink>
      </Actions>
    </section>
  )
}

function Quote({ section }: { section: SectionOf<'quote'> }) {
  return (
    <figure className={styles.quote}>
      <blockquote className={styles.quoteText}>
        <p>{section.quote}</p>
      </blockquote>
      <figcaption className={styles.quoteAuthor}>
        <strong>{section.author}</strong>
        {section.role && <span>, {section.role}</span>}
      </figcaption>
    </figure>
  )
}

function LogoWall({ section }: { section: SectionOf<'logoWall'> }) {
  return (
    <Section heading={section.heading}>
      <ul className={styles.logoWall}>
        {section.logos.map((logo) => (
          <li key={logo.name} className={styles.logo}>
            {logo.href ? <Link href={logo.href}>{logo.name}</Link> : logo.name}
          </li>
        ))}
      </ul>
    </Section>
  )
}

function Table({ section }: { section: SectionOf<'table'> }) {
  return (
    <Section heading={section.heading}>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
      <section className={styles.tableScroll} aria-label={section.caption} tabIndex={0}>
        <table>
          <caption>{section.caption}</caption>
          <thead>
            <tr>
              {section.columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {section.rows.map((row) => (
              <tr key={row.join('|')}>
                {row.map((cell, index) => {
                  const column = section.columns[index]
                  return index === 0 ? (
                    <th key={column} scope="row">
                      {cell}
                    </th>
                  ) : (
                    <td key={column}>{cell}</td>
                  )
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </Section>
  )
}

function Downloads({ section }: { section: SectionOf<'downloadList'> }) {
  return (
    <Section heading={section.heading}>
      <DownloadList items={section.items} />
    </Section>
  )
}

function SectionView({ section }: { section: SectionValue }) {
  switch (section.type) {
    case 'hero':
      return <Hero section={section} />
    case 'richText':
      return <RichTextSection section={section} />
    case 'featureGrid':
      return <FeatureGrid section={section} />
    case 'cards':
      return <Cards section={section} />
    case 'faq':
      return <Faq heading={section.heading} items={section.items} />
    case 'callToAction':
      return <CallToAction section={section} />
    case 'quote':
      return <Quote section={section} />
    case 'logoWall':
      return <LogoWall section={section} />
    case 'table':
      return <Table section={section} />
    case 'downloadList':
      return <Downloads section={section} />
    case 'form':
      return <FormSlot section={section} />
    case 'ecbRates':
    case 'cardRates':
      return <RatesSlot section={section} />
  }
}

/** Stable keys from each section's type and heading, numbered where they repeat. */
function keyed(sections: readonly SectionValue[]): [string, SectionValue][] {
  const seen = new Map<string, number>()
  return sections.map((section) => {
    const base = `${section.type}:${'heading' in section ? (section.heading ?? '') : ''}`
    const count = (seen.get(base) ?? 0) + 1
    seen.set(base, count)
    return [`${base}#${count}`, section]
  })
}

export function Sections({ sections }: { sections: readonly SectionValue[] | undefined }) {
  return (
    <>
      {keyed(sections ?? []).map(([key, section]) => (
        <SectionView key={key} section={section} />
      ))}
    </>
  )
}
