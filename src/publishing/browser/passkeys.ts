/**
 * "Your sign-in"'s script for adding a passkey: the registration ceremony the invitation uses,
 * with the browser's WebAuthn (SimpleWebAuthn's browser bundle, `/_publishing/webauthn.js`,
 * loaded before it), started by the signed-in person. The page's other forms are
 * `manage.js`'s.
 */
import { post, statusLine } from './post'

declare global {
  interface Window {
    SimpleWebAuthnBrowser: typeof import('@simplewebauthn/browser')
  }
}

const { startRegistration, browserSupportsWebAuthn } = window.SimpleWebAuthnBrowser
const status = statusLine()
const form = document.getElementById('add-passkey')

if (form instanceof HTMLFormElement) {
  if (!browserSupportsWebAuthn()) status.textContent = status.dataset.unsupported ?? ''
  const button = form.querySelector('button')
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const { name } = Object.fromEntries(new FormData(form))
    if (button) button.disabled = true
    try {
      status.textContent = status.dataset.waiting ?? ''
      const { ceremony, options } = await post<{
        ceremony: unknown
        options: Parameters<typeof startRegistration>[0]['optionsJSON']
      }>('/api/me/passkeys/options', { name })
      const response = await startRegistration({ optionsJSON: options })
      await post('/api/me/passkeys/add', { ceremony, response, name })
      location.reload()
    } catch (error) {
      status.textContent = error instanceof Error ? error.message : String(error)
      if (button) button.disabled = false
    }
  })
  // The button comes disabled: pressed before this script ran, nothing would happen.
  if (button) button.disabled = false
}
