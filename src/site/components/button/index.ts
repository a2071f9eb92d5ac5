/**
 * The class names of the site's buttons: `ButtonLink`, the forms' submit button and the cookie
 * banner's choices share one look (and one stylesheet rule set) through them.
 */
import styles from './styles.module.css'

export type ButtonVariant = 'primary' | 'secondary'

/** The classes of a button of `variant`; `extra` adds a component's own class (layout only). */
export function buttonClass(variant: ButtonVariant = 'primary', extra?: string): string {
  return [styles.button, styles[variant], extra].filter(Boolean).join(' ')
}
