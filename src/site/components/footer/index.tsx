import type { LayoutData } from '../../../shared/types'
import { Link } from '../link'
import { Logo } from '../logo'
import styles from './styles.module.css'

/**
 * The footer: link groups from the content, the cookie-settings link (the consent module opens
 * the settings in place when it runs; otherwise the link leads to the privacy policy's section
 * on them) and the legal entity.
 */
export function Footer({ layout }: { layout: LayoutData }) {
  return (
    <footer className={styles.footer} id="footer" data-site-footer="">
      <div className={styles.inner}>
        <nav aria-label={layout.strings.footerNavigation}>
          <div className={styles.groups}>
            {layout.footer.map((group) => (
              <section key={group.title}>
                <h2 className={styles.title}>{group.title}</h2>
                <ul className={styles.links}>
                  {group.links.map((link) => (
                    <li key={link.href}>
                      <Link className={styles.link} href={link.href}>
                        {link.label}
                      </Link>
                    </li>
                  ))}
                </ul>
              </section>
            ))}
          </div>
        </nav>
        <div className={styles.bottom}>
          <p className={styles.entity}>
            <Logo className={styles.logo} />
            <span>© {layout.legalEntity}</span>
          </p>
          <a className={styles.link} href={layout.cookieSettings.href} data-cookie-settings="">
            {layout.cookieSettings.label}
          </a>
        </div>
      </div>
    </footer>
  )
}
