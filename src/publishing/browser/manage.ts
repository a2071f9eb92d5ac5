/**
 * The management pages' script: each `form[data-action]` posts its fields as JSON; the answer
 * is shown in the status line (an invitation's link in full, to copy), or the page reloads,
 * and the status line then says what was done (`data-done`). A form with `data-confirm` asks
 * that question first, in the screen's dialog (`#confirm`), and is sent only on Yes. What the
 * script says itself (the service did not answer; the screen is out of date) the screen gives
 * it in its language, on its body (`data-no-answer`, `data-show-new-version`).
 */
import { statusLine } from './post'

/** A screen without a status line of its own (the audit trail) gets one at the end of `main`. */
function status(): HTMLElement {
  if (!document.getElementById('status')) {
    const line = document.createElement('div')
    line.id = 'status'
    line.setAttribute('role', 'status')
    ;(document.querySelector('main') ?? document.body).append(line)
  }
  return statusLine()
}

/** What a form did, kept across its reload to be said on the reloaded screen. */
const DONE_KEY = 'publishing-done'
const done = sessionStorage.getItem(DONE_KEY)
if (done) {
  sessionStorage.removeItem(DONE_KEY)
  // After the screen is read: a status line filled at once is not always announced.
  setTimeout(() => {
    status().textContent = done
  }, 100)
}

/** Asks the form's question in the screen's dialog; whether the person said yes. */
function confirmed(question: string): Promise<boolean> {
  const dialog = document.getElementById('confirm')
  if (!(dialog instanceof HTMLDialogElement)) return Promise.resolve(window.confirm(question))
  const text = dialog.querySelector('#confirm-text')
  if (text) text.textContent = question
  dialog.returnValue = ''
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'yes'), { once: true })
    dialog.showModal()
  })
}

/** A form's fields as the service takes them: `roles` always a list, where the form has any. */
function fieldsOf(form: HTMLFormElement): Record<string, unknown> {
  const fields: Record<string, unknown> & { roles?: FormDataEntryValue[] } = {}
  for (const [name, value] of new FormData(form)) {
    if (name === 'roles') {
      fields.roles ??= []
      fields.roles.push(value)
    } else fields[name] = value
  }
  if (form.querySelector('[name=roles]') && !fields.roles) fields.roles = []
  return fields
}

/**
 * An invitation's (or a reset's) link in the status line: how long it works, the link itself
 * to select, and a button that copies it. The form's data attributes carry the words.
 */
function showLink(form: HTMLFormElement, link: string, expiresAt: unknown) {
  const line = status()
  const until =
    typeof expiresAt === 'string'
      ? new Date(expiresAt).toLocaleString(document.documentElement.lang, {
          timeZone: 'Europe/Berlin',
          dateStyle: 'medium',
          timeStyle: 'short',
        })
      : ''
  const intro = document.createElement('p')
  intro.textContent = (form.dataset.linkText ?? '').replace('{until}', until)
  const code = document.createElement('code')
  code.id = 'invitation-link'
  code.textContent = link
  const copy = document.createElement('button')
  copy.type = 'button'
  copy.className = 'secondary'
  copy.textContent = form.dataset.copy ?? 'Copy'
  copy.addEventListener('click', async () => {
    const copied = await navigator.clipboard?.writeText(link).then(
      () => true,
      () => false,
    )
    if (copied) copy.textContent = form.dataset.copied ?? 'Copied'
    else getSelection()?.selectAllChildren(code)
  })
  line.replaceChildren(intro, code, ' ', copy)
}

for (const form of document.querySelectorAll<HTMLFormElement>('form[data-action]')) {
  const buttons = form.querySelectorAll('button')
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const question = form.dataset.confirm
    if (question && !(await confirmed(question))) return
    const fields = fieldsOf(form)
    // One request at a time from a form: a second press waits for the answer.
    for (const button of buttons) button.disabled = true
    const response = await fetch(form.dataset.action ?? '', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(fields),
    }).catch(() => undefined)
    for (const button of buttons) button.disabled = false
    if (!response) {
      status().textContent = document.body.dataset.noAnswer ?? ''
      return
    }
    const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>
    if (!response.ok) {
      status().textContent = String(answer.error || response.statusText)
      // 409: what the page shows is not what is there now; one press shows the new version.
      if (response.status === 409 && form.hasAttribute('data-reload')) {
        const reload = document.createElement('button')
        reload.type = 'button'
        reload.className = 'secondary'
        reload.textContent = document.body.dataset.showNewVersion ?? ''
        reload.addEventListener('click', () => location.reload())
        status().append(' ', reload)
        reload.focus()
      }
      return
    }
    const shown = form.dataset.show
    if (shown === 'link' && typeof answer.link === 'string') {
      showLink(form, answer.link, answer.expiresAt)
      // The next invitation starts empty: roles ticked for this person are not carried over
      // to the next one unnoticed.
      form.reset()
      return
    }
    if (shown && answer[shown]) {
      status().textContent = String(answer[shown])
      return
    }
    if (form.hasAttribute('data-reload')) {
      if (form.dataset.done) sessionStorage.setItem(DONE_KEY, form.dataset.done)
      location.reload()
    }
  })
  // The buttons come disabled: pressed before this script ran, a form would be sent as a
  // plain GET of the page and nothing would happen.
  for (const button of buttons) button.disabled = false
}
