import type { Language } from '../../shared/languages'
import type { LayoutData } from '../../shared/types'
import { LanguageSwitcher, type LanguageSwitcherProps } from './language-switcher'
import { Link } from './link'

export interface HeaderProps extends LanguageSwitcherProps {
  layout: LayoutData
  language: Language
  currentPath: string
}

export function Header({ layout, language, currentPath, ...switcher }: HeaderProps) {
  return (
    <header className="site-header">
      <Link className="brand" href={`/${language}/`}>
        {layout.brandName}
      </Link>
      <nav aria-label={layout.strings.primaryNavigation}>
        <ul className="nav-list">
          {layout.navigation.map((item) => (
            <li key={item.href}>
              <Link href={item.href} aria-current={item.href === currentPath ? 'page' : undefined}>
                {item.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <LanguageSwitcher {...switcher} />
    </header>
  )
}
