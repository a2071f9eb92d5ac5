/** One component per section type of the content model. */
import type { Section, SectionOf } from '../../../content/schema/sections'
import { Icon } from '../icon'
import { Link } from '../link'
import { RichText } from '../rich-text'

function Hero({ section }: { section: SectionOf<'hero'> }) {
  return (
    <section className="section hero-section">
      <h2>{section.heading}</h2>
      {section.text && <p className="lead">{section.text}</p>}
      {section.actions && <Actions actions={section.actions} />}
    </section>
  )
}

export function Actions({ actions }: { actions: NonNullable<SectionOf<'hero'>['actions']> }) {
  return (
    <p className="actions">
      {actions.map((action) => (
        <Link key={action.href} className={`button button--${action.style}`} href={action.href}>
          {action.label}
        </Link>
      ))}
    </p>
  )
}

function RichTextSection({ section }: { section: SectionOf<'richText'> }) {
  return (
    <section className="section">
      {section.heading && <h2>{section.heading}</h2>}
      <RichText value={section.body} />
    </section>
  )
}

function FeatureGrid({ section }: { section: SectionOf<'featureGrid'> }) {
  return (
    <section className="section">
      <h2>{section.heading}</h2>
      {section.intro && <p className="section-intro">{section.intro}</p>}
      <ul className="grid">
        {section.features.map((feature) => (
          <li key={feature.title} className="feature">
            {feature.icon && <Icon name={feature.icon} />}
            <h3>{feature.title}</h3>
            <p>{feature.text}</p>
          </li>
        ))}
      </ul>
    </section>
  )
}

function Cards({ section }: { section: SectionOf<'cards'> }) {
  return (
    <section className="section">
      <h2>{section.heading}</h2>
      {section.intro && <p className="section-intro">{section.intro}</p>}
      <ul className="grid">
        {section.cards.map((card) => (
          <li key={card.title} className="card">
            <h3>{card.href ? <Link href={card.href}>{card.title}</Link> : card.title}</h3>
            <p>{card.text}</p>
          </li>
        ))}
      </ul>
    </section>
  )
}

/** Questions as native disclosure widgets: keyboard and screen readers work without script. */
export function Faq({ heading, items }: { heading: string; items: SectionOf<'faq'>['items'] }) {
  return (
    <section className="section faq">
      <h2>{heading}</h2>
      {items.map((item) => (
        <details key={item.question}>
          <summary>
            <h3>{item.question}</h3>
          </summary>
          <RichText value={item.answer} />
        </details>
      ))}
    </section>
  )
}

function CallToAction({ section }: { section: SectionOf<'callToAction'> }) {
  return (
    <section className="section call-to-action">
      <h2>{section.heading}</h2>
      {section.text && <p>{section.text}</p>}
      <p>
        <Link className="button button--primary" href={section.action.href}>
          {section.action.label}
        </Link>
      </p>
    </section>
  )
}

function Quote({ section }: { section: SectionOf<'quote'> }) {
  return (
    <figure className="section quote">
      <blockquote>
        <p>{section.quote}</p>
      </blockquote>
      <figcaption>
        {section.author}
        {section.role && <span>, {section.role}</span>}
      </figcaption>
    </figure>
  )
}

function LogoWall({ section }: { section: SectionOf<'logoWall'> }) {
  return (
    <section className="section">
      <h2>{section.heading}</h2>
      <ul className="logo-wall">
        {section.logos.map((logo) => (
          <li key={logo.name}>
            {logo.href ? <Link href={logo.href}>{logo.name}</Link> : logo.name}
          </li>
        ))}
      </ul>
    </section>
  )
}

function Table({ section }: { section: SectionOf<'table'> }) {
  return (
    <section className="section">
      {section.heading && <h2>{section.heading}</h2>}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
      <section className="table-scroll" aria-label={section.caption} tabIndex={0}>
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
    </section>
  )
}

function DownloadList({ section }: { section: SectionOf<'downloadList'> }) {
  return (
    <section className="section">
      <h2>{section.heading}</h2>
      <ul className="downloads">
        {section.items.map((item) => (
          <li key={item.href}>
            <a href={item.href}>{item.label}</a>
            {item.description && <p>{item.description}</p>}
          </li>
        ))}
      </ul>
    </section>
  )
}

function SectionView({ section }: { section: Section }) {
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
      return <DownloadList section={section} />
  }
}

/** Stable keys from each section's type and heading, numbered where they repeat. */
function keyed(sections: readonly Section[]): [string, Section][] {
  const seen = new Map<string, number>()
  return sections.map((section) => {
    const base = `${section.type}:${'heading' in section ? (section.heading ?? '') : ''}`
    const count = (seen.get(base) ?? 0) + 1
    seen.set(base, count)
    return [`${base}#${count}`, section]
  })
}

export function Sections({ sections }: { sections: readonly Section[] | undefined }) {
  return (
    <>
      {keyed(sections ?? []).map(([key, section]) => (
        <SectionView key={key} section={section} />
      ))}
    </>
  )
}
