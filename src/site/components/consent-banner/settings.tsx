/**
 * The banner's settings layer: a switch per category and per tracker. Loaded only when the
 * visitor opens the settings (most never do), so a first visit fetches the first layer alone.
 * A modal dialog: its title takes focus, the page behind is inert until it closes.
 */
import { useEffect, useRef, useState } from 'react'
import {
  CATEGORIES,
  type Category,
  type Choice,
  TRACKER_CATEGORY,
  TRACKERS,
  type Tracker,
} from '../../../shared/consent'
import { ROOT_ELEMENT_ID } from '../../../shared/constants'
import { buttonClass } from '../button'
import { Actions, type ConsentBannerProps, trapKeys } from './layer'
import styles from './styles.module.css'

export default function SettingsLayer(
  props: ConsentBannerProps & { ids: string; onEscape(): void },
) {
  const { texts, ids } = props
  const [choice, setChoice] = useState<Choice>(props.initial)
  const heading = useRef<HTMLHeadingElement>(null)

  useEffect(() => {
    heading.current?.focus()
    const page = document.getElementById(ROOT_ELEMENT_ID)
    page?.setAttribute('inert', '')
    return () => page?.removeAttribute('inert')
  }, [])

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
        onKeyDown={(event) => trapKeys(event, props.onEscape)}
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
        <Actions {...props}>
          <button type="button" className={buttonClass()} onClick={() => props.decide(choice)}>
            {texts.save}
          </button>
        </Actions>
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
