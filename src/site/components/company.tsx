import type { LayoutData } from '../../shared/types'
import { Link } from './link'

/** The company facts of the imprint (section 5 DDG), from the one place they are kept. */
export function Company({ layout }: { layout: LayoutData }) {
  const { company, strings } = layout
  return (
    <section className="section company">
      <h2>{strings.company}</h2>
      <address>
        {company.legalEntity}
        <br />
        {company.address.street}
        <br />
        {company.address.postalCode} {company.address.city}
        <br />
        {company.address.country}
      </address>
      <dl>
        <dt>{strings.contact}</dt>
        <dd>
          <a href={`mailto:${company.email}`}>{company.email}</a>,{' '}
          <a href={`tel:${company.phone.replace(/\s/g, '')}`}>{company.phone}</a>
        </dd>
        <dt>{strings.managementBoard}</dt>
        <dd>{company.managementBoard.join(', ')}</dd>
        <dt>{strings.supervisoryBoardChair}</dt>
        <dd>{company.supervisoryBoardChair}</dd>
        <dt>{strings.commercialRegister}</dt>
        <dd>
          {company.register.court}, {company.register.number}
        </dd>
        <dt>{strings.vatId}</dt>
        <dd>{company.vatId}</dd>
        <dt>{strings.supervisoryAuthorities}</dt>
        <dd>
          <ul>
            {company.supervisors.map((supervisor) => (
              <li key={supervisor.name}>
                <Link href={supervisor.url}>{supervisor.name}</Link>, {supervisor.address}
              </li>
            ))}
          </ul>
        </dd>
        <dt>{strings.editorialResponsible}</dt>
        <dd>{company.editorialResponsible}</dd>
      </dl>
    </section>
  )
}
