/**
 * The versions the publishing service's editor works on. Every decision is on a version: a save
 * is made on the version the person opened, a move to review or an approval is of the version
 * they saw, a publication of the one approved. The service refuses any other (409) and says who
 * saved in between; this module remembers which version of each draft the editor loaded, sends
 * it with each of those requests, and shows the person the version they are looking at and,
 * after a refusal, the way to the new one.
 */

/** One request of Decap's proxy protocol. */
export interface ProxyRequest {
  action: string
  params: Record<string, unknown>
}

/** What the service says of a draft the editor opened (`unpublishedEntry`). */
interface OpenedDraft {
  collection: string
  slug: string
  version: string
  savedBy: string
  savedAt: string
}

const TEXTS = {
  en: {
    version: (version: string, by: string, at: string) =>
      `You are looking at version ${version} of this draft, saved by ${by} on ${at}.`,
    reload: 'Reload',
    returned: (from: string) =>
      `Saved. The draft was ${from}; a saved change returns it to Draft, as nobody has reviewed this version. Reload to see it so, and move it to review again when it is ready.`,
    statuses: { pending_review: 'in review', pending_publish: 'ready (approved)' } as Record<
      string,
      string
    >,
  },
  de: {
    version: (version: string, by: string, at: string) =>
      `Sie sehen Fassung ${version} dieses Entwurfs, gespeichert von ${by} am ${at}.`,
    reload: 'Neu laden',
    returned: (from: string) =>
      `Gespeichert. Der Entwurf war ${from}; eine gespeicherte Änderung setzt ihn auf „Entwurf“ zurück, da niemand diese Fassung geprüft hat. Laden Sie neu, um das zu sehen, und geben Sie ihn erneut zur Prüfung, wenn er bereit ist.`,
    statuses: {
      pending_review: 'in Prüfung',
      pending_publish: 'freigegeben, bereit',
    } as Record<string, string>,
  },
}
type Language = keyof typeof TEXTS

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The entry a request names: `<collection>/<slug>`, as the service names its drafts. */
function entryOf(request: ProxyRequest): string | undefined {
  const { params } = request
  if (request.action === 'persistEntry') {
    const options = isRecord(params.options) ? params.options : {}
    const [first] = Array.isArray(params.dataFiles) ? params.dataFiles : []
    if (!isRecord(first)) return undefined
    return `${String(options.collectionName)}/${String(first.slug)}`
  }
  if (typeof params.collection === 'string' && typeof params.slug === 'string') {
    return `${params.collection}/${params.slug}`
  }
  return typeof params.id === 'string' ? params.id : undefined
}

/** The short form of a version people compare: its first 7 characters. */
const short = (version: string) => version.slice(0, 7)

/** One line at the foot of the editor, read out when it changes, with a button to reload. */
function footLine(doc: Document, reloadLabel: string) {
  const bar = doc.createElement('div')
  bar.className = 'publishing-version'
  bar.setAttribute('role', 'status')
  bar.hidden = true
  // The page's last row, below Decap's room (editor.css): it covers nothing of the form.
  const text = doc.createElement('span')
  const reload = doc.createElement('button')
  reload.type = 'button'
  reload.textContent = reloadLabel
  reload.hidden = true
  reload.addEventListener('click', () => doc.defaultView?.location.reload())
  bar.append(text, ' ', reload)
  doc.body.append(bar)

  return {
    reload,
    say(message: string, offerReload: boolean) {
      text.textContent = message
      reload.hidden = !offerReload
      bar.hidden = message === ''
    },
  }
}

export function createVersions(language: string, doc: Document = document) {
  const t = TEXTS[(language in TEXTS ? language : 'en') as Language]
  const when = new Intl.DateTimeFormat(language === 'de' ? 'de-DE' : 'en-GB', {
    timeZone: 'Europe/Berlin',
    dateStyle: 'medium',
    timeStyle: 'medium',
  })
  /** The version of each draft the editor loaded; `null`: opened when it had no draft. */
  const loaded = new Map<string, string | null>()
  const opened = new Map<string, OpenedDraft>()

  const line = footLine(doc, t.reload)
  /** What the service said of a deletion or an upload it made a draft of, until an entry opens. */
  let notice = ''

  /** The entry the editor shows now, from its address (`#/collections/<c>/entries/<slug>`). */
  const shownEntry = () => {
    const match = /^#\/collections\/([^/]+)\/entries\/(.+)$/.exec(
      doc.defaultView?.location.hash ?? '',
    )
    return match
      ? `${decodeURIComponent(match[1] ?? '')}/${decodeURIComponent(match[2] ?? '')}`
      : ''
  }
  const { say, reload } = line
  /**
   * The version line of the entry shown, if it is a draft the editor loaded; else the notice
   * of a draft just made (Decap goes back to the list after a deletion: the notice stays).
   */
  const show = () => {
    const shown = shownEntry()
    if (shown) notice = ''
    const draft = opened.get(shown)
    say(
      draft
        ? t.version(
            short(draft.version),
            draft.savedBy,
            `${when.format(new Date(draft.savedAt))} (Berlin)`,
          )
        : notice,
      false,
    )
  }
  doc.defaultView?.addEventListener('hashchange', show)

  return {
    /** The request as the service takes it: with the version it is made on, where it needs one. */
    outgoing(request: ProxyRequest): ProxyRequest {
      const entry = entryOf(request)
      if (entry === undefined) return request
      switch (request.action) {
        case 'persistEntry':
          return { ...request, params: { ...request.params, version: loaded.get(entry) ?? null } }
        case 'updateUnpublishedEntryStatus':
        case 'publishUnpublishedEntry': {
          const version = loaded.get(entry)
          return version ? { ...request, params: { ...request.params, version } } : request
        }
        default:
          return request
      }
    },
    /** Takes note of what the service answered: the versions loaded and saved. */
    answered(request: ProxyRequest, answer: unknown): void {
      const entry = entryOf(request)
      if (isRecord(answer) && typeof answer.notice === 'string') {
        // A deletion or an upload made a draft, in review: done as such, and said so.
        notice = answer.notice
        say(notice, false)
        return
      }
      if (
        request.action === 'unpublishedEntry' &&
        isRecord(answer) &&
        typeof answer.version === 'string'
      ) {
        const draft = answer as unknown as OpenedDraft
        const id = `${draft.collection}/${draft.slug}`
        loaded.set(id, draft.version)
        opened.set(id, draft)
        show()
        return
      }
      if (entry === undefined) return
      if (
        request.action === 'persistEntry' &&
        isRecord(answer) &&
        typeof answer.version === 'string'
      ) {
        loaded.set(entry, answer.version)
        if (typeof answer.returnedFrom === 'string') {
          // Decap goes on showing the column it had: the person is told, and offered the page
          // as it is now (nothing is lost: the change is saved).
          say(t.returned(t.statuses[answer.returnedFrom] ?? answer.returnedFrom), true)
        }
        return
      }
      if (
        request.action === 'publishUnpublishedEntry' ||
        request.action === 'deleteUnpublishedEntry'
      ) {
        loaded.delete(entry)
        opened.delete(entry)
        show()
      }
    },
    /** A refusal: an entry with no draft is the live one; a 409 offers the new version. */
    failed(request: ProxyRequest, error: { status?: number; message?: string }): void {
      const entry = entryOf(request)
      if (request.action === 'unpublishedEntry' && error.status === 404 && entry !== undefined) {
        if (!loaded.has(entry)) loaded.set(entry, null)
        return
      }
      if (
        error.status === 409 &&
        request.action !== 'persistMedia' &&
        request.action !== 'deleteFiles'
      ) {
        say(error.message ?? '', true)
        reload.focus()
      }
    },
  }
}
