// @vitest-environment jsdom
/**
 * Decap's words in the editor, as the service's screens say them: the German locale with our
 * phrases over Decap's leaves no English (the notes panel was English), names the workflow's
 * statuses as the page of changes does, says entries, not posts, and a failed action as what
 * did not happen; and the words Decap writes outside its locale are put right on the page.
 */
import decapGerman from 'decap-cms-locales/dist/esm/de/index.js'
import decapEnglish from 'decap-cms-locales/dist/esm/en/index.js'
import { describe, expect, it } from 'vitest'
import {
  mergePhrases,
  PHRASES,
  type Phrases,
  speakOurWords,
  WORKFLOW_WORDS,
} from '../../../../../src/publishing/editor/browser/locale'
import { withholdApproval } from '../../../../../src/publishing/editor/browser/permissions'
import { fixedText, listNames } from '../../../../../src/publishing/editor/browser/word-fixes'
import { MANAGE_TEXTS } from '../../../../../src/publishing/pages/texts'

// Decap's locales as its package ships them.
const LOCALES: Record<'en' | 'de', Phrases> = { en: decapEnglish, de: decapGerman }
const decap = async (language: 'en' | 'de') => LOCALES[language]

/** Every phrase by its dotted key. */
function flat(phrases: Phrases, at = ''): Map<string, string> {
  const found = new Map<string, string>()
  for (const [key, value] of Object.entries(phrases)) {
    const path = at ? `${at}.${key}` : key
    if (typeof value === 'string') found.set(path, value)
    else for (const [inner, text] of flat(value, path)) found.set(inner, text)
  }
  return found
}

/** The German the editor speaks: Decap's, ours over it, English where both lack a key. */
const german = async () =>
  flat(mergePhrases(mergePhrases(await decap('en'), await decap('de')), PHRASES.de))

/** Phrases German says as English does: values only, and names of formats. */
const SAME_IN_BOTH = new Set([
  'collection.collectionTop.newButton',
  'editor.editorControl.field.optional',
  'editor.editorToolbar.status',
  'editor.editorWidgets.markdown.code',
  'editor.editorWidgets.markdown.link',
  'editor.editorWidgets.markdown.markdown',
  'ui.toast.onFailToAuth',
  'workflow.workflowCard.lastChangeNoAuthor',
])

describe("the editor's German", () => {
  it('leaves no phrase in English but values and names', async () => {
    const english = flat(await decap('en'))
    const speaks = await german()
    const left = [...english]
      .filter(([key, text]) => speaks.get(key) === text && !SAME_IN_BOTH.has(key))
      .map(([key, text]) => `${key}: ${text}`)
    expect(left).toEqual([])
  })

  it('has the notes panel as the draft’s comments, in German', async () => {
    const speaks = await german()
    expect(speaks.get('editor.editorNotesPane.title')).toBe('Kommentare')
    expect(speaks.get('editor.editorNotesPane.addNote')).toBe('Kommentar hinzufügen')
    expect(speaks.get('editor.editorInterface.toggleNotes')).toBe('Kommentare')
  })

  it('names the workflow’s columns and statuses as the page of changes does', async () => {
    const speaks = await german()
    const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)
    const { statuses } = MANAGE_TEXTS.de
    const names = {
      draft: capital(statuses.draft),
      inReview: capital(statuses.pending_review),
      ready: capital(statuses.pending_publish),
    }
    expect(WORKFLOW_WORDS.de).toEqual(names)
    expect(speaks.get('workflow.workflowList.draftHeader')).toBe(names.draft)
    expect(speaks.get('workflow.workflowList.inReviewHeader')).toBe(names.inReview)
    expect(speaks.get('workflow.workflowList.readyHeader')).toBe(names.ready)
    expect(speaks.get('editor.editorToolbar.draft')).toBe(names.draft)
    expect(speaks.get('editor.editorToolbar.inReview')).toBe(names.inReview)
    expect(speaks.get('editor.editorToolbar.ready')).toBe(names.ready)
    const all = [...speaks.values()].join('\n')
    expect(all).not.toMatch(/Abgeschlossen|Überprüfung|Beitr[aä]g/)
  })

  it('says a failed action as what did not happen, before the service’s sentence', async () => {
    const speaks = await german()
    expect(speaks.get('ui.toast.onFailToPersist')).toBe('Nicht gespeichert: %{details}')
    expect(speaks.get('ui.toast.onFailToDelete')).toBe('Nicht gelöscht: %{details}')
    expect(speaks.get('ui.toast.onFailToUpdateStatus')).toBe('Status nicht geändert: %{details}')
    const english = flat(mergePhrases(await decap('en'), PHRASES.en))
    expect(english.get('ui.toast.onFailToPersist')).toBe('Not saved: %{details}')
    for (const [key, text] of [...speaks, ...english]) {
      if (key.startsWith('ui.toast.onFail')) expect(text, key).not.toMatch(/Failed|fehlgeschlagen/)
    }
  })
})

describe('registering our words', () => {
  it('merges them over Decap’s locale of each language, before the CMS starts', async () => {
    const locales: Record<string, Phrases> = {
      en: await decap('en'),
      de: await decap('de'),
    }
    const registered: Record<string, Phrases> = {}
    const win = {
      document,
      CMS: {
        getLocale: (name: string) => locales[name],
        registerLocale: (name: string, phrases: Phrases) => {
          registered[name] = phrases
        },
      },
    } as unknown as Window
    const observer = speakOurWords(win, { locale: 'de', collections: [] })
    const de = flat(registered.de ?? {})
    expect(de.get('workflow.workflowList.readyHeader')).toBe('Freigegeben, bereit')
    // Decap's own phrases stay where ours are the same.
    expect(de.get('editor.editorWidgets.headingOptions.headingOne')).toBe('Überschrift 1')
    expect(flat(registered.en ?? {}).get('editor.editorToolbar.ready')).toBe('Ready')
    // Decap's locale itself is left as it was.
    expect(flat(locales.de ?? {}).get('workflow.workflowList.readyHeader')).toBe('Abgeschlossen')
    observer.disconnect()
  })
})

describe('the words Decap writes outside its locale', () => {
  const config = {
    collections: [
      {
        name: 'pages',
        fields: [
          { name: 'title', label: 'Titel', widget: 'string' },
          { name: 'sections', label: 'Abschnitte', label_singular: 'Abschnitt', widget: 'list' },
        ],
      },
      {
        name: 'settings',
        files: [
          {
            name: 'site',
            fields: [
              {
                name: 'address',
                label: 'Anschrift',
                widget: 'object',
                fields: [
                  {
                    name: 'redirectFrom',
                    label: 'Frühere Adressen (leiten hierher um)',
                    widget: 'list',
                    field: { name: 'redirectFromItem', label: 'Frühere Adresse', widget: 'string' },
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
  }
  const names = listNames(config)

  it('gives the names of lists their capitals back in German', () => {
    expect(fixedText('3 abschnitte', 'de', names)).toBe('3 Abschnitte')
    expect(fixedText('1 abschnitt', 'de', names)).toBe('1 Abschnitt')
    expect(fixedText('abschnitt hinzufügen', 'de', names)).toBe('Abschnitt hinzufügen')
    expect(fixedText('2 frühere adressen (leiten hierher um)', 'de', names)).toBe(
      '2 Frühere Adressen (leiten hierher um)',
    )
    // Texts that are no list's name stay as they are; so does English.
    expect(fixedText('3 titel', 'de', names)).toBeUndefined()
    expect(fixedText('Abschnitt hinzufügen', 'de', names)).toBeUndefined()
    expect(fixedText('3 abschnitte', 'en', names)).toBeUndefined()
  })

  it('says a failed image in the person’s language, keeping the service’s sentence', () => {
    const sentence = 'notes.txt ist kein Bild, das die Website nimmt.'
    expect(fixedText(`Failed to persist media: ${sentence}`, 'de', names)).toBe(
      `Bild nicht hochgeladen: ${sentence}`,
    )
    expect(fixedText('Failed to delete media: in use', 'en', names)).toBe(
      'Image not deleted: in use',
    )
  })

  it('puts them right on the page as Decap writes them', async () => {
    const win = {
      document,
      CMS: { getLocale: () => ({}), registerLocale: () => {} },
    } as unknown as Window
    const observer = speakOurWords(win, { locale: 'de', ...config })
    const bar = document.createElement('div')
    bar.append('2 abschnitte', document.createElement('button'))
    document.body.append(bar)
    const toast = document.createElement('div')
    toast.textContent = 'Failed to persist media: zu groß'
    document.body.append(toast)
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(bar.textContent).toBe('2 Abschnitte')
    expect(toast.textContent).toBe('Bild nicht hochgeladen: zu groß')
    // React writes the text anew: it is put right again.
    const text = bar.firstChild as Text
    text.nodeValue = '3 abschnitte'
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(bar.textContent).toBe('3 Abschnitte')
    observer.disconnect()
    bar.remove()
    toast.remove()
  })
})

describe('"Ready" withheld from people who may not approve', () => {
  it('finds the item by the German name the editor gives it', () => {
    const menu = document.createElement('div')
    const item = document.createElement('div')
    item.setAttribute('role', 'menuitem')
    item.textContent = WORKFLOW_WORDS.de.ready
    menu.append(item)
    const observer = withholdApproval(menu, 'de')
    expect(item.getAttribute('aria-disabled')).toBe('true')
    expect(item.title).toContain('„Freigegeben, bereit“')
    observer.disconnect()
  })
})
