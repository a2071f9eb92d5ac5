/**
 * The service's Decap backend, `bank`: Decap's proxy backend with the service's session (who is
 * signed in, signing out), and every request going through the versions it is made on
 * (versions.ts).
 */
import { withholdApproval } from './permissions'
import type { CmsConfig, DecapWindow } from './preview'
import { holdFields } from './read-only'
import type { createVersions, ProxyRequest } from './versions'

interface Me {
  name: string
  login: string
  avatar_url: string
  roles?: string[]
  language?: string
}

/** What the page says itself when the service cannot, in the person's language (the page's). */
const WORDS = {
  en: {
    signIn: 'Please sign in again: your session has ended.',
    noAnswer: 'The publishing service did not answer: please try again in a moment.',
  },
  de: {
    signIn: 'Bitte melden Sie sich erneut an: Ihre Sitzung ist abgelaufen.',
    noAnswer: 'Der Redaktionsdienst hat nicht geantwortet: Bitte versuchen Sie es gleich erneut.',
  },
}
const words = () => WORDS[document.documentElement.lang === 'de' ? 'de' : 'en']

async function me(): Promise<Me> {
  const response = await fetch('/api/me', { headers: { accept: 'application/json' } })
  if (response.status === 401) {
    window.location.assign('/sign-in')
    throw new Error(words().signIn)
  }
  if (!response.ok) throw new Error(words().noAnswer)
  return (await response.json()) as Me
}

/**
 * An error the service did not word: a session that ended (the service cannot know whose
 * language to answer in) or no answer at all (the browser's "Failed to fetch"), in the
 * person's language.
 */
function inOwnWords(error: unknown): unknown {
  if (error instanceof TypeError) return new Error(words().noAnswer)
  if (error instanceof Error && (error as { status?: number }).status === 401) {
    error.message = words().signIn
  }
  return error
}

/** Once the person is known: what the editor offers them (see permissions.ts). */
let withheld = false
function offered(person: Me): Me {
  if (withheld) return person
  withheld = true
  const language = person.language ?? document.documentElement.lang
  if (!person.roles?.includes('reviewer')) withholdApproval(document.body, language)
  if (!person.roles?.includes('author')) holdFields(document.body, language)
  return person
}

/**
 * What a failed save's message begins with in the editor (locale.ts: "Nicht gespeichert:
 * %{details}"), and so the service's sentences about a save may begin too: said once.
 */
const NOT_SAVED = /^(Not saved|Nicht gespeichert): /

/**
 * A refusal as the editor shows it: the service's own sentence (in the person's language where
 * the service has one). Decap's proxy backend throws an error named `API_ERROR`, and Decap
 * prints an error as `${error}`, so every message began "API_ERROR: ". Nameless, an error
 * prints as its message alone; its status stays as it was. A refused save's sentence that
 * begins "Not saved:" loses that beginning, which the editor's message of a failed save
 * puts before it anyway.
 */
export function asOwnMessage(error: unknown, action?: string): unknown {
  if (error instanceof Error && error.name === 'API_ERROR') {
    error.name = ''
    if (action === 'persistEntry') error.message = error.message.replace(NOT_SAVED, '')
  }
  return error
}

/** The backend's class, on Decap's proxy backend of `win`. */
export function bankBackend(
  win: DecapWindow,
  config: CmsConfig,
  versions: ReturnType<typeof createVersions>,
) {
  const ProxyBackend = win.CMS.getBackend('proxy').init(config, {}).constructor as new (
    ...args: unknown[]
  ) => { request(payload: ProxyRequest): Promise<unknown> }
  return class BankBackend extends ProxyBackend {
    // Every request goes through here: the versions it is made on go with it (versions.ts).
    override async request(payload: ProxyRequest) {
      const sent = versions.outgoing(payload)
      try {
        const answer = await super.request(sent)
        versions.answered(sent, answer)
        return answer
      } catch (error) {
        versions.failed(sent, error as { status?: number; message?: string })
        throw asOwnMessage(inOwnWords(error), payload.action)
      }
    }
    authComponent() {
      // No login page of Decap's own: the service signed the person in; take that up at once.
      return win.createClass({
        componentDidMount(this: { props: { onLogin(credentials: object): void } }) {
          this.props.onLogin({})
        },
        render() {
          return win.h('p', { role: 'status' }, '…')
        },
      })
    }
    authenticate() {
      return me().then(offered)
    }
    restoreUser() {
      return me().then(offered)
    }
    async logout() {
      await fetch('/sign-out', { method: 'POST', headers: { accept: 'application/json' } })
      window.location.assign('/sign-in')
    }
    async status() {
      const response = await fetch('/api/me', { headers: { accept: 'application/json' } })
      return { auth: { status: response.ok }, api: { status: true, statusPage: '' } }
    }
  }
}
