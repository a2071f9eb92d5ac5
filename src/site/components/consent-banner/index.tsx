/**
 * The cookie banner: a first layer with "Accept all", "Reject all" and "Settings", equally
 * prominent, naming purposes, providers and lifetimes before any choice; and a settings layer
 * with a switch per category and per tracker. Both are dialogs: focus moves in, Tab stays
 * inside, Escape closes (closing decides nothing). The first layer sits at the bottom and
 * never covers more than part of a phone's screen, so the page stays readable behind it.
 *
 * It is loaded only when needed (no choice yet, or "Cookie settings" in the footer) and
 * rendered in a root of its own.
 */
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react'
import { CATEGORIES } from '../../../shared/consent'
import { buttonClass } from '../button'
import { Actions, type ConsentBannerProps, trapKeys } from './layer'
import styles from './styles.module.css'

/** Loads the settings layer (on the way to the "Settings" button, so it is there on click). */
const loadSettings = () => import('./settings')
const SettingsLayer = lazy(loadSettings)

export function ConsentBanner(props: ConsentBannerProps) {
  const { texts } = props
  const [layer, setLayer] = useState(props.layer)
  const ids = useId()
  const heading = useRef<HTMLHeadingElement>(null)
  const box = useRef<HTMLElement>(null)
  const opened = useRef(false)

  // Focus moves to the first layer's title when it opens, unless the visitor was busy
  // elsewhere (typing) on arrival; and whenever it comes back from the settings.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the layer changing is the trigger.
  useEffect(() => {
    if (layer === 'first' && (opened.current || props.takeFocus)) heading.current?.focus()
    opened.current = true
  }, [layer])

  // The first layer never hides the end of the page: the page gets room below, as tall as it.
  useEffect(() => {
    const element = box.current
    if (layer !== 'first' || !element || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(() => {
      document.body.style.paddingBottom = `${element.offsetHeight + 16}px`
    })
    observer.observe(element)
    return () => {
      observer.disconnect()
      document.body.style.paddingBottom = ''
    }
  }, [layer])

  /** Escape in settings opened from the first layer goes back to it. */
  const onEscape = () =>
    layer === 'settings' && props.layer === 'first' ? setLayer('first') : props.close()

  if (layer === 'settings') {
    return (
      <Suspense fallback={null}>
        <SettingsLayer {...props} ids={ids} onEscape={onEscape} />
      </Suspense>
    )
  }

  return (
    <section
      className={styles.banner}
      role="dialog"
      aria-modal="false"
      aria-labelledby={`${ids}-title`}
      aria-describedby={`${ids}-intro`}
      lang={props.language}
      onKeyDown={(event) => trapKeys(event, onEscape)}
      data-consent-banner=""
      ref={box}
    >
      <div className={styles.scroll}>
        <h2 id={`${ids}-title`} className={styles.title} tabIndex={-1} ref={heading}>
          {texts.title}
        </h2>
        <p id={`${ids}-intro`} className={styles.text}>
          {texts.intro}
        </p>
        <ul className={styles.purposes}>
          {CATEGORIES.map((category) => (
            <li key={category}>
              <strong>{texts.categories[category].label}:</strong>{' '}
              {texts.categories[category].description}
            </li>
          ))}
        </ul>
        <p className={styles.text}>
          <a href={texts.privacyLink.href}>{texts.privacyLink.label}</a>
        </p>
      </div>
      <Actions {...props}>
        <button
          type="button"
          className={buttonClass()}
          onClick={() => setLayer('settings')}
          onFocus={loadSettings}
          onPointerEnter={loadSettings}
        >
          {texts.settings}
        </button>
      </Actions>
    </section>
  )
}
