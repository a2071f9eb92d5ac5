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
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react'
import type { ConsentTexts } from '../../../content/schema/entries'
import {
  CATEGORIES,
  type Category,
  type Choice,
  everyCategory,
  TRACKER_CATEGORY,
  TRACKERS,
  type Tracker,
} from '../../../shared/consent'
import { ROOT_ELEMENT_ID } from '../../../shared/constants'
import { buttonClass } from '../button'
import styles from './styles.module.css'

export interface ConsentBannerProps {
  texts: ConsentTexts
  language: string
  /** The choice the settings start from (the stored one). */
  initial: Choice
  /** The trackers this site has (an ID configured); the others are not offered. */
  trackers: readonly Tracker[]
  layer: 'first' | 'settings'
  /** False when the visitor was busy elsewhere (typing): the banner then waits to be found. */
  takeFocus: boolean
  decide(choice: Choice): void
  close(): void
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled])'

/** Keeps Tab and Shift+Tab inside `container`; Escape calls `onEscape`. */
function trapKeys(event: KeyboardEvent<HTMLElement>, onEscape: () => void) {
  if (event.key === 'Escape') {
    event.preventDefault()
    onEscape()
    return
  }
  if (event.key !== 'Tab') return
  const items = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)]
  const first = items[0]
  const last = items.at(-1)
  if (!first || !last) return
  // From the title (not a stop of its own) Tab goes to the first control, Shift+Tab the last.
  if (!items.includes(document.activeElement as HTMLElement)) {
    event.preventDefault()
    ;(event.shiftKey ? last : first).focus()
  } else if (event.shiftKey && document.activeElement === first) {
    event.preventDefault()
    last.focus()
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault()
    first.focus()
  }
}

export function ConsentBanner(props: ConsentBannerProps) {
  const { texts } = props
  const [layer, setLayer] = useState(props.layer)
  const [choice, setChoice] = useState<Choice>(props.initial)
  const ids = useId()
  const heading = useRef<HTMLHeadingElement>(null)
  const box = useRef<HTMLElement>(null)
  const opened = useRef(false)

  // Focus moves to the layer's title whenever a layer opens (the first one only when the
  // visitor was not busy elsewhere).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the layer changing is the trigger.
  useEffect(() => {
    if (opened.current || props.takeFocus || layer === 'settings') heading.current?.focus()
    opened.current = true
  }, [layer])

  // The settings are modal: the page behind is inert until they close.
  useEffect(() => {
    if (layer !== 'settings') return
    const page = document.getElementById(ROOT_ELEMENT_ID)
    page?.setAttribute('inert', '')
    return () => page?.removeAttribute('inert')
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

  /** Accept or reject every category; opt-outs of single trackers stay as they are. */
  const all = (allowed: boolean): Choice => everyCategory(allowed, props.initial)
  /** Escape in settings opened from the first layer goes back to it. */
  const onEscape = () =>
    layer === 'settings' && props.layer === 'first' ? setLayer('first') : props.close()

  // Every choice is the site's primary button: none is pushed (section 25 TDDDG, equal
  // prominence).
  const buttons = (
    <div className={styles.actions}>
      <button type="button" className={buttonClass()} onClick={() => props.decide(all(true))}>
        {texts.acceptAll}
      </button>
      <button type="button" className={buttonClass()} onClick={() => props.decide(all(false))}>
        {texts.rejectAll}
      </button>
      {layer === 'first' ? (
        <button type="button" className={buttonClass()} onClick={() => setLayer('settings')}>
          {texts.settings}
        </button>
      ) : (
        <button type="button" className={buttonClass()} onClick={() => props.decide(choice)}>
          {texts.save}
        </button>
      )}
    </div>
  )

  if (layer === 'first') {
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
        {buttons}
      </section>
    )
  }

  const setCategory = (category: Category, on: boolean) =>
    setChoice((current) => ({ ...current, categories: { ...current.categories, [category]: on } }))
  const setTracker = (tracker: Tracker, on: boolean) =>
    setChoice((current) => ({ ...current, trackers: { ...current.trackers, [tracker]: on } }))

  return (
    <div className={styles.backdrop}>
      <section
        className={`${styles.banner} ${styles.settings}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${ids}-settings`}
        lang={props.language}
        onKeyDown={(event) => trapKeys(event, onEscape)}
        data-consent-settings=""
      >
        <div className={styles.scroll}>
          <div className={styles.header}>
            <h2 id={`${ids}-settings`} className={styles.title} tabIndex={-1} ref={heading}>
              {texts.settingsTitle}
            </h2>
            <button type="button" className={styles.close} onClick={props.close}>
              <span aria-hidden="true">×</span>
              <span className="visually-hidden">{texts.close}</span>
            </button>
          </div>
          <p className={styles.text}>{texts.settingsIntro}</p>
          <div className={styles.group}>
            <div className={styles.row}>
              <span className={styles.label}>{texts.necessary.label}</span>
              <span className={styles.always}>{texts.alwaysOn}</span>
            </div>
            <p className={styles.text}>{texts.necessary.description}</p>
          </div>
          {CATEGORIES.map((category) => (
            <div key={category} className={styles.group}>
              <Switch
                id={`${ids}-${category}`}
                label={texts.categories[category].label}
                description={texts.categories[category].description}
                checked={choice.categories[category]}
                onChange={(on) => setCategory(category, on)}
              />
              <ul className={styles.trackers}>
                {TRACKERS.filter(
                  (tracker) =>
                    TRACKER_CATEGORY[tracker] === category && props.trackers.includes(tracker),
                ).map((tracker) => (
                  <li key={tracker}>
                    {/* On only where its category is: nothing looks ticked that is not. */}
                    <Switch
                      id={`${ids}-${tracker}`}
                      label={texts.trackers[tracker].label}
                      description={texts.trackers[tracker].description}
                      checked={choice.categories[category] && choice.trackers[tracker]}
                      disabled={!choice.categories[category]}
                      onChange={(on) => setTracker(tracker, on)}
                    />
                  </li>
                ))}
              </ul>
            </div>
          ))}
          <p className={styles.text}>
            <a href={texts.privacyLink.href}>{texts.privacyLink.label}</a>
          </p>
        </div>
        {buttons}
      </section>
    </div>
  )
}

function Switch(props: {
  id: string
  label: string
  description: string
  checked: boolean
  disabled?: boolean
  onChange(on: boolean): void
}) {
  return (
    <div>
      <div className={styles.row}>
        <label className={styles.label} htmlFor={props.id}>
          {props.label}
        </label>
        <input
          id={props.id}
          className={styles.switch}
          type="checkbox"
          role="switch"
          checked={props.checked}
          aria-checked={props.checked}
          disabled={props.disabled}
          aria-describedby={`${props.id}-description`}
          onChange={(event) => props.onChange(event.currentTarget.checked)}
        />
      </div>
      <p id={`${props.id}-description`} className={styles.text}>
        {props.description}
      </p>
    </div>
  )
}
