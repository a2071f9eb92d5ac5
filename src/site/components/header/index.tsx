import { useEffect, useRef, useState } from 'react'
import type { Language } from '../../../shared/languages'
import type { LayoutData } from '../../../shared/types'
import { LanguageSwitcher, type LanguageSwitcherProps } from '../language-switcher'
import { Link } from '../link'
import { Logo } from '../logo'
import styles from './styles.module.css'

export interface HeaderProps extends LanguageSwitcherProps {
  layout: LayoutData
  language: Language
  currentPath: string
}

/** True when a navigation item is the page or one of its ancestors (a section of the site). */
function isCurrentSection(href: string, path: string): boolean {
  return href !== '/' && href.length > 4 && path.startsWith(href)
}

/**
 * The site header: brand, primary navigation and language switcher. On small screens the
 * navigation folds behind a menu button (the disclosure pattern: the button says whether the
 * menu is open, Escape closes it and returns focus to the button, following a link closes it).
 */
export function Header({ layout, language, currentPath, ...switcher }: HeaderProps) {
  const [open, setOpen] = useState(false)
  const button = useRef<HTMLButtonElement>(null)

  // A client navigation leaves the menu closed on the new page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the page changes
  useEffect(() => setOpen(false), [currentPath])

  useEffect(() => {
    if (!open) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      setOpen(false)
      button.current?.focus()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [open])

  return (
    <header className={styles.header} data-site-header="">
      <div className={styles.inner}>
        <Link className={styles.brand} href={`/${language}/`}>
          <Logo className={styles.logo} />
          <span>{layout.brandName}</span>
        </Link>
        {/* Opened by the runtime (`src/runtime/search/trigger.ts`), which loads the dialog. Its
            name is its label, which phones leave out for the magnifier. */}
        <button
          type="button"
          className={styles.searchButton}
          data-search-open=""
          data-needs-script=""
          aria-haspopup="dialog"
          aria-keyshortcuts="/ Control+K Meta+K"
          aria-label={layout.search.button}
        >
          <span className={styles.searchIcon} />
          <span className={styles.searchLabel} aria-hidden="true">
            {layout.search.button}
          </span>
          <span className={styles.searchKey} aria-hidden="true">
            /
          </span>
        </button>
        <button
          ref={button}
          type="button"
          className={styles.menuButton}
          data-menu-button=""
          aria-expanded={open}
          aria-controls="site-menu"
          onClick={() => setOpen((value) => !value)}
        >
          <span className={styles.menuIcon} aria-hidden="true" data-open={open} />
          {layout.strings.menu}
        </button>
        <div id="site-menu" className={styles.menu} data-open={open} data-site-menu="">
          <nav aria-label={layout.strings.primaryNavigation}>
            <ul className={styles.navList}>
              {layout.navigation.map((item) => (
                <li key={item.href}>
                  <Link
                    className={styles.navLink}
                    href={item.href}
                    aria-current={
                      item.href === currentPath
                        ? 'page'
                        : isCurrentSection(item.href, currentPath)
                          ? 'true'
                          : undefined
                    }
                  >
                    {item.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <LanguageSwitcher {...switcher} />
        </div>
      </div>
    </header>
  )
}
