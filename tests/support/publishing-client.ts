/**
 * The publishing service over HTTP as people's browsers use it: accepting an invitation with a
 * new passkey, signing in with one, and the editor's calls (`/api/cms`), from the service's own
 * origin. Plain requests, so that it speaks to any version of the service, as the upgrade
 * fixture's older one and the current one.
 */
import { SESSION_COOKIE } from '../../src/publishing/http/app'
import type { Passkey } from './passkey'

export interface Answer {
  status: number
  body: Record<string, unknown>
  /** The session cookie the answer set (a sign-in), as `name=value`. */
  session?: string
}

export class PublishingClient {
  /**
   * @param base where the service listens (`http://127.0.0.1:port`)
   * @param origin the address people open (`CMS_URL`): writes come from there, passkeys
   *   belong to its host name
   */
  constructor(
    readonly base: string,
    readonly origin: string,
  ) {}

  async post(path: string, body: unknown, cookie?: string): Promise<Answer> {
    const response = await fetch(`${this.base}${path}`, {
      method: 'POST',
      headers: {
        origin: this.origin,
        'content-type': 'application/json',
        ...(cookie ? { cookie } : {}),
      },
      body: JSON.stringify(body),
    })
    const text = await response.text()
    let parsed: Record<string, unknown> = {}
    try {
      parsed = JSON.parse(text) as Record<string, unknown>
    } catch {
      parsed = { text }
    }
    const session = response.headers
      .getSetCookie()
      .map((header) => header.split(';')[0] ?? '')
      .find(
        (pair) => pair.startsWith(`${SESSION_COOKIE}=`) && pair.length > SESSION_COOKIE.length + 1,
      )
    return { status: response.status, body: parsed, ...(session ? { session } : {}) }
  }

  async get(path: string, cookie?: string): Promise<{ status: number; text: string }> {
    const response = await fetch(`${this.base}${path}`, {
      headers: cookie ? { cookie } : {},
      redirect: 'manual',
    })
    return { status: response.status, text: await response.text() }
  }

  /** Accepts the invitation `token` with a new `passkey`: the session cookie it starts. */
  async acceptInvitation(
    token: string,
    passkey: Passkey,
    person: { name: string; email?: string; language?: 'en' | 'de' },
  ): Promise<string> {
    const about = await this.post('/invitation/about', { token })
    if (about.status !== 200) throw new Error(`invitation: ${JSON.stringify(about.body)}`)
    const options = await this.post('/invitation/options', { token, ...person })
    if (options.status !== 200) throw new Error(`passkey options: ${JSON.stringify(options.body)}`)
    const { ceremony, options: creation } = options.body as {
      ceremony: string
      options: { challenge: string; rp: { id?: string } }
    }
    const accepted = await this.post('/invitation/accept', {
      token,
      ceremony,
      response: passkey.register(creation, this.origin),
      name: person.name,
      language: person.language ?? 'en',
    })
    if (accepted.status !== 200 || !accepted.session) {
      throw new Error(
        `accepting the invitation: ${accepted.status} ${JSON.stringify(accepted.body)}`,
      )
    }
    return accepted.session
  }

  /** Signs in with `passkey`: the answer, with the session cookie when it worked. */
  async signIn(passkey: Passkey): Promise<Answer> {
    const options = await this.post('/sign-in/options', {})
    if (options.status !== 200) return options
    const { ceremony, options: request } = options.body as {
      ceremony: string
      options: { challenge: string; rpId?: string }
    }
    return this.post('/sign-in', { ceremony, response: passkey.signIn(request, this.origin) })
  }

  /** One of the editor's calls (Decap's backend protocol). */
  cms(cookie: string, action: string, params: Record<string, unknown>): Promise<Answer> {
    return this.post('/api/cms', { action, params: { branch: 'main', ...params } }, cookie)
  }

  /**
   * Saves `raw` as the content of `path` (`content/en/pages/about.yaml`) in the draft of page
   * `slug`, on its version `version` (none: a new draft).
   */
  savePage(cookie: string, path: string, slug: string, raw: string, version?: string) {
    return this.cms(cookie, 'persistEntry', {
      version: version ?? null,
      dataFiles: [{ path: path.replace(/^content\/(\w+)\/pages/, 'content/pages/$1'), slug, raw }],
      assets: [],
      options: { collectionName: 'pages', useWorkflow: true },
    })
  }

  /** The draft of page `slug` as the editor reads it (its status and `version`). */
  async draftOfPage(cookie: string, slug: string) {
    const answer = await this.cms(cookie, 'unpublishedEntry', { collection: 'pages', slug })
    return answer.status === 200 ? answer.body : undefined
  }

  /** Moves the draft of page `slug` to `status` (`pending_review`, `pending_publish`). */
  setStatus(cookie: string, slug: string, status: string, version?: string) {
    return this.cms(cookie, 'updateUnpublishedEntryStatus', {
      collection: 'pages',
      slug,
      newStatus: status,
      ...(version ? { version } : {}),
    })
  }

  /** Publishes the draft of page `slug`. */
  publish(cookie: string, slug: string, version?: string) {
    return this.cms(cookie, 'publishUnpublishedEntry', {
      collection: 'pages',
      slug,
      ...(version ? { version } : {}),
    })
  }
}
