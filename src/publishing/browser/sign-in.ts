/**
 * The sign-in and invitation pages' script: the passkey ceremonies with the browser's WebAuthn
 * (through SimpleWebAuthn's browser bundle, `/_publishing/webauthn.js`, loaded before it), the
 * identity provider's sign-in, each refusal shown in the status line. An invitation's token is
 * in the address's fragment, never sent in a GET.
 */
import { post, statusLine } from './post'

declare global {
  interface Window {
    SimpleWebAuthnBrowser: typeof import('@simplewebauthn/browser')
  }
}

const { startAuthentication, startRegistration, browserSupportsWebAuthn } =
  window.SimpleWebAuthnBrowser
const status = statusLine()
const say = (text: string | undefined) => {
  status.textContent = text ?? ''
}
const sayError = (error: unknown) => say(error instanceof Error ? error.message : String(error))
const supported = browserSupportsWebAuthn()

interface Next {
  next: string
}
interface Ceremony {
  ceremony: unknown
  options: Parameters<typeof startAuthentication>[0]['optionsJSON']
}

const provider = document.getElementById('provider-sign-in')
if (provider) {
  provider.addEventListener('click', async () => {
    try {
      location.assign((await post<Next>('/sign-in/provider', {})).next)
    } catch (error) {
      sayError(error)
    }
  })
}

if (document.getElementById('provider-return')) {
  post<Next>('/sign-in/provider/callback', { search: location.search }).then(
    (done) => location.replace(done.next),
    sayError,
  )
}

const signIn = document.getElementById('passkey-sign-in')
if (signIn) {
  if (!supported) say(status.dataset.unsupported)
  signIn.addEventListener('click', async () => {
    try {
      say(status.dataset.waiting)
      const { ceremony, options } = await post<Ceremony>('/sign-in/options', {})
      const response = await startAuthentication({ optionsJSON: options })
      const done = await post<Next>('/sign-in', { ceremony, response })
      location.assign(done.next)
    } catch (error) {
      sayError(error)
    }
  })
}

const form = document.getElementById('invitation')
if (form instanceof HTMLFormElement) {
  const token = location.hash.slice(1)
  if (!supported) say(status.dataset.unsupported)
  post<{ first?: boolean; reset?: boolean }>('/invitation/about', { token }).then((invitation) => {
    const field = document.getElementById('email-field')
    const email = document.getElementById('email')
    if (invitation.first && field && email instanceof HTMLInputElement) {
      field.hidden = false
      email.required = true
    }
    // A reset of someone's sign-in: they are known, with their name; only the passkey is new.
    const name = document.getElementById('name')
    if (invitation.reset && name instanceof HTMLInputElement) {
      name.required = false
      for (const [id, hidden] of [
        ['name-field', true],
        ['invitation-intro', true],
        ['reset-intro', false],
      ] as const) {
        const element = document.getElementById(id)
        if (element) element.hidden = hidden
      }
    }
  }, sayError)
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const fields = Object.fromEntries(new FormData(form))
    try {
      say(status.dataset.waiting)
      const { ceremony, options } = await post<{
        ceremony: unknown
        options: Parameters<typeof startRegistration>[0]['optionsJSON']
      }>('/invitation/options', { token, ...fields })
      const response = await startRegistration({ optionsJSON: options })
      const done = await post<Next>('/invitation/accept', { token, ceremony, response, ...fields })
      history.replaceState(null, '', '/invitation')
      location.assign(done.next)
    } catch (error) {
      sayError(error)
    }
  })
}
