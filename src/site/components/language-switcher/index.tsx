import { LANGUAGES, type Language, localizePath } from '../../../shared/languages'
import type { LayoutData } from '../../../shared/types'
import styles from './styles.module.css'

export interface LanguageSwitcherProps {
  /** Interface language now shown. */
  current: Language
  /** Shared data of every language the page holds, for the language names. */
  layouts: Partial<Record<Language, LayoutData>>
  /** Where the page exists in each language; undefined on language-neutral pages. */
  originalPath: string | undefined
  /** Switches the interface language in place on language-neutral pages. */
  onSwitch: ((language: Language) => void) | undefined
  label: string
}

const NAMES: Record<Language, string> = { en: 'English', de: 'Deutsch' }

/**
 * Links to the same page in the other languages. The runtime stores the choice when one is
 * followed (`data-language-switch`). Language-neutral pages switch in place instead.
 */
export function LanguageSwitcher({
  current,
  layouts,
  originalPath,
  onSwitch,
  label,
}: LanguageSwitcherProps) {
  return (
    <nav className={styles.switcher} aria-label={label}>
      <ul className={styles.list}>
        {LANGUAGES.map((language) => {
          const name = layouts[language]?.strings.languageName ?? NAMES[language]
          if (language === current) {
            return (
              <li key={language}>
                <span className={styles.option} aria-current="true" lang={language}>
                  {name}
                </span>
              </li>
            )
          }
          return (
            <li key={language}>
              {originalPath === undefined ? (
                <button
                  className={styles.option}
                  type="button"
                  lang={language}
                  data-language-switch={language}
                  onClick={() => onSwitch?.(language)}
                >
                  {name}
                </button>
              ) : (
                <a
                  className={styles.option}
                  href={localizePath(originalPath, language)}
                  hrefLang={language}
                  lang={language}
                  data-language-switch={language}
                >
                  {name}
                </a>
              )}
            </li>
          )
        })}
      </ul>
    </nav>
  )
}
