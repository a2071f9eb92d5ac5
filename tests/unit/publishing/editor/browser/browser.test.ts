// @vitest-environment jsdom
/**
 * The editor's page says what happened: a refusal as the service's own sentence (Decap printed
 * "API_ERROR: " before each), and a deletion or an upload made a draft as a notice at the
 * editor's foot, kept when Decap goes back to the list, gone when an entry opens.
 */
import { describe, expect, it } from 'vitest'
import { asOwnMessage } from '../../../../../src/publishing/editor/browser/backend'
import { mendDialogs } from '../../../../../src/publishing/editor/browser/dialogs'
import { reloadBetweenEntries } from '../../../../../src/publishing/editor/browser/entry-address'
import { mendLandmarks } from '../../../../../src/publishing/editor/browser/landmarks'
import { FORM_PANE, holdFields } from '../../../../../src/publishing/editor/browser/read-only'
import { createVersions } from '../../../../../src/publishing/editor/browser/versions'

/** Decap's proxy backend's error, as `decap-cms-lib-util` makes it. */
function apiError(message: string, status: number) {
  const error = new Error(message) as Error & { status: number; api: string }
  error.name = 'API_ERROR'
  error.status = status
  error.api = 'Proxy'
  return error
}

describe('a refusal in the editor', () => {
  it('reads as the service’s sentence, with its status kept', () => {
    const error = asOwnMessage(apiError('Es gibt schon einen Entwurf von pages/about.', 409))
    expect(`${error}`).toBe('Es gibt schon einen Entwurf von pages/about.')
    expect(`Failed to persist media: ${error}`).not.toMatch(/API_ERROR/)
    expect(error).toMatchObject({
      status: 409,
      message: 'Es gibt schon einen Entwurf von pages/about.',
    })
  })

  it('says "not saved" once: the editor’s message of a failed save begins so already', () => {
    const german = asOwnMessage(
      apiError('Nicht gespeichert: Ada hat diesen Eintrag um 10:00 gespeichert.', 409),
      'persistEntry',
    )
    expect(`Nicht gespeichert: ${german}`).toBe(
      'Nicht gespeichert: Ada hat diesen Eintrag um 10:00 gespeichert.',
    )
    const english = asOwnMessage(apiError('Not saved: the draft is gone.', 409), 'persistEntry')
    expect(`${english}`).toBe('the draft is gone.')
    // Another action's message keeps its beginning.
    const status = asOwnMessage(apiError('Not saved: x', 409), 'updateUnpublishedEntryStatus')
    expect(`${status}`).toBe('Not saved: x')
  })

  it('leaves other errors as they are', () => {
    const other = new TypeError('Failed to fetch')
    expect(`${asOwnMessage(other)}`).toBe('TypeError: Failed to fetch')
    expect(asOwnMessage('text')).toBe('text')
  })
})

describe('the notice of a draft made', () => {
  const line = () => document.querySelector('.publishing-version') as HTMLElement
  const go = (hash: string) => {
    window.location.hash = hash
    window.dispatchEvent(new HashChangeEvent('hashchange'))
  }

  it('shows what the service says, keeps it on the list, and leaves it when an entry opens', () => {
    const versions = createVersions('en')
    go('#/collections/jobPosting/entries/working-student-data')
    const deletion = { action: 'deleteFiles', params: { paths: ['content/jobPosting/en/x.yaml'] } }
    versions.answered(deletion, { message: 'saved', notice: 'Not deleted yet: in review.' })
    expect(line().hidden).toBe(false)
    expect(line().getAttribute('role')).toBe('status')
    expect(line().textContent).toContain('Not deleted yet: in review.')
    // Decap goes back to the list after a deletion: the notice stays.
    go('#/collections/jobPosting')
    expect(line().textContent).toContain('Not deleted yet: in review.')
    go('#/collections/pages/entries/about')
    expect(line().hidden).toBe(true)
  })
})

describe('the editor of someone who may not write', () => {
  it('makes every field read-only, now and when Decap draws more, and says why', async () => {
    document.body.innerHTML = `<div class="${FORM_PANE.slice(1)}">
      <input value="About us"><textarea>Intro</textarea>
      <div contenteditable="true">Body</div>
      <select><option>en</option></select>
      <button type="button">Add section</button>
      <button type="button" aria-expanded="false">Section 1</button>
    </div>`
    const observer = holdFields(document.body, 'de')
    const pane = document.querySelector(FORM_PANE) as HTMLElement
    expect(pane.querySelector('[role="note"]')?.textContent).toMatch(
      /^Sie können diesen Eintrag lesen und seinen Status setzen/,
    )
    expect((pane.querySelector('input') as HTMLInputElement).readOnly).toBe(true)
    expect((pane.querySelector('textarea') as HTMLTextAreaElement).readOnly).toBe(true)
    expect(pane.querySelector('[contenteditable]')?.getAttribute('contenteditable')).toBe('false')
    expect((pane.querySelector('select') as HTMLSelectElement).disabled).toBe(true)
    const [add, fold] = pane.querySelectorAll('button')
    expect(add?.disabled).toBe(true)
    // A section still opens and closes, to be read.
    expect(fold?.disabled).toBe(false)
    // Decap draws another field (a section opened): it is read-only as soon as it is there.
    pane.insertAdjacentHTML('beforeend', '<input class="later">')
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect((pane.querySelector('input.later') as HTMLInputElement).readOnly).toBe(true)
    expect(pane.querySelectorAll('[role="note"]')).toHaveLength(1)
    observer.disconnect()
  })
})

describe('an entry’s address typed over another’s', () => {
  const moves = (from: string, to: string) => {
    let reloads = 0
    const stop = reloadBetweenEntries({
      ...window,
      addEventListener: window.addEventListener.bind(window),
      removeEventListener: window.removeEventListener.bind(window),
      location: { reload: () => reloads++ },
    } as unknown as Window)
    const base = 'https://cms.bank.example/admin/'
    window.dispatchEvent(
      new HashChangeEvent('hashchange', { oldURL: `${base}${from}`, newURL: `${base}${to}` }),
    )
    stop()
    return reloads
  }

  it('loads the editor afresh at the new entry', () => {
    expect(moves('#/collections/pages/entries/about', '#/collections/pages/entries/imprint')).toBe(
      1,
    )
    expect(moves('#/collections/pages/entries/about', '#/collections/blogPost/entries/about')).toBe(
      1,
    )
  })

  it('leaves Decap’s own ways alone: a list, a new entry saved, the same entry', () => {
    expect(moves('#/collections/pages', '#/collections/pages/entries/about')).toBe(0)
    expect(moves('#/collections/pages/new', '#/collections/pages/entries/about')).toBe(0)
    expect(moves('#/collections/pages/entries/about', '#/collections/pages')).toBe(0)
    expect(moves('#/collections/pages/entries/about', '#/collections/pages/entries/about')).toBe(0)
  })
})

describe('Decap’s dialogs', () => {
  it('are named by their heading, and their pictures marked as decoration, when Decap draws them', async () => {
    document.body.innerHTML = ''
    const observer = mendDialogs(document.body)
    document.body.insertAdjacentHTML(
      'beforeend',
      `<div role="dialog"><h1>Medien</h1><img src="a.svg"><p>a.svg</p><img src="b.png" alt="Logo"></div>`,
    )
    await new Promise((resolve) => setTimeout(resolve, 0))
    const dialog = document.querySelector('[role="dialog"]') as HTMLElement
    const heading = document.getElementById(dialog.getAttribute('aria-labelledby') ?? '')
    expect(heading?.textContent).toBe('Medien')
    expect([...dialog.querySelectorAll('img')].map((image) => image.getAttribute('alt'))).toEqual([
      '',
      'Logo',
    ])
    // A dialog named already keeps its name.
    document.body.insertAdjacentHTML(
      'beforeend',
      '<div role="dialog" aria-label="Confirm"><h2>Sure?</h2></div>',
    )
    await new Promise((resolve) => setTimeout(resolve, 0))
    const named = document.querySelectorAll('[role="dialog"]')[1] as HTMLElement
    expect(named.getAttribute('aria-labelledby')).toBeNull()
    expect(named.getAttribute('aria-label')).toBe('Confirm')
    observer.disconnect()
  })
})

describe('the editor’s landmarks', () => {
  it('keep one banner, one main and Decap’s header a named navigation, as Decap changes views', async () => {
    document.body.innerHTML = '<header class="bar">Bar</header><div id="nc-root"></div>'
    const root = document.getElementById('nc-root') as HTMLElement
    const observer = mendLandmarks(root)
    // The board: no main of Decap's, so Decap's room is the page's main.
    root.innerHTML = '<header><div><a href="#/">Contents</a></div></header><h1>Workflow</h1>'
    document.body.insertAdjacentHTML('beforeend', '<canvas></canvas>')
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(root.getAttribute('role')).toBe('main')
    const header = root.querySelector('header') as HTMLElement
    expect(header.getAttribute('role')).toBe('none')
    expect(header.firstElementChild?.getAttribute('role')).toBe('navigation')
    expect(header.firstElementChild?.getAttribute('aria-label')).toBe('Editor')
    expect(document.querySelector('body > canvas')?.getAttribute('aria-hidden')).toBe('true')
    // A collection's list brings its own main: the room is no second one.
    root.insertAdjacentHTML('beforeend', '<aside>Collections</aside><main>Pages</main>')
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(root.hasAttribute('role')).toBe(false)
    // Back on the board, it is the main again.
    root.querySelector('main')?.remove()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(root.getAttribute('role')).toBe('main')
    observer.disconnect()
  })
})
