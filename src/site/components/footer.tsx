import type { LayoutData } from '../../shared/types'
import { Link } from './link'

export function Footer({ layout }: { layout: LayoutData }) {
  return (
    <footer className="site-footer" id="footer">
      <nav aria-label={layout.strings.footerNavigation}>
        <div className="footer-groups">
          {layout.footer.map((group) => (
            <section key={group.title} className="footer-group">
              <h2>{group.title}</h2>
              <ul>
                {group.links.map((link) => (
                  <li key={link.href}>
                    <Link href={link.href}>{link.label}</Link>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      </nav>
      <p className="legal-entity">© {layout.legalEntity}</p>
    </footer>
  )
}
