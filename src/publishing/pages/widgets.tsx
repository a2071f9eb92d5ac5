/**
 * The small parts the screens share: a form's hidden field, a notice, the reason an action is
 * not offered, and the status line where `/_publishing/manage.js` says how an action went.
 */
import type { ReactNode } from 'react'

export function Hidden({ name, value }: { name: string; value: string }) {
  return <input type="hidden" name={name} value={value} />
}

/** Something the viewer should know before acting (unconfirmed grants, unreviewed code). */
export function Notice({ children }: { children: ReactNode }) {
  return (
    <div className="notice" role="note">
      {typeof children === 'string' ? <p>{children}</p> : children}
    </div>
  )
}

/** Why an action the viewer's role would allow is not offered here. */
export function WhyNot({ children }: { children: ReactNode }) {
  return <p className="why-not">{children}</p>
}

/**
 * The status line: what an action did or why it was refused, read out by screen readers. Its
 * data attributes are texts the sign-in scripts need in the screen's language.
 */
export function Status(props: { waiting?: string; unsupported?: string; children?: ReactNode }) {
  return (
    <div
      role="status"
      id="status"
      data-waiting={props.waiting}
      data-unsupported={props.unsupported}
    >
      {props.children}
    </div>
  )
}
