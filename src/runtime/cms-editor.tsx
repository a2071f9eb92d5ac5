/**
 * The publishing service's editor (its entry, bundled by the service): Decap with a backend
 * that extends Decap's proxy backend with the service's session (who is signed in, signing
 * out), the site's preview beside each entry, then the CMS started with the person's
 * configuration. The page sets `CMS_MANUAL_INIT` and `CMS_EDITOR_ENTRY` before Decap's bundle.
 */
import { withholdApproval } from './cms-permissions'
import { editorSetup, registerPreviews } from './cms-preview'
import { createVersions, type ProxyRequest } from './cms-versions'

interface Me {
  name: string
  login: string
  avatar_url: string
  roles?: string[]
  language?: string
}

async function me(): Promise<Me> {
  const response = await fetch('/api/me', { headers: { accept: 'application/json' } })
  if (response.status === 401) {
    window.location.assign('/sign-in')
    throw new Error('Please sign in again')
  }
  if (!response.ok) throw new Error('The publishing service did not answer')
  return (await response.json()) as Me
}

/** Once the person is known: what the editor offers them (see cms-permissions.ts). */
let withheld = false
function offered(person: Me): Me {
  if (!withheld && !person.roles?.includes('reviewer')) {
    withheld = true
    withholdApproval(document.body, person.language ?? document.documentElement.lang)
  }
  return person
}

const setup = editorSetup()
if (setup) {
  const { win, config } = setup
  const ProxyBackend = win.CMS.getBackend('proxy').init(config, {}).constructor as new (
    ...args: unknown[]
  ) => { request(payload: ProxyRequest): Promise<unknown> }
  const versions = createVersions(document.documentElement.lang)
  class BankBackend extends ProxyBackend {
    // Every request goes through here: the versions it is made on go with it (cms-versions.ts).
    override async request(payload: ProxyRequest) {
      const sent = versions.outgoing(payload)
      try {
        const answer = await super.request(sent)
        versions.answered(sent, answer)
        return answer
      } catch (error) {
        versions.failed(sent, error as { status?: number; message?: string })
        throw error
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
  win.CMS.registerBackend('bank', BankBackend)
  registerPreviews(win, config)
  // The site's stylesheet, for the preview's frame only (named, not applied, by the page).
  for (const meta of document.querySelectorAll<HTMLMetaElement>('meta[name=cms-preview-style]')) {
    win.CMS.registerPreviewStyle(meta.content)
  }
  win.CMS.init({ config })
}
