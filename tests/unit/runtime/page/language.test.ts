// @vitest-environment jsdom
/**
 * The interface language of pages without their own (`/blog/`): the visitor's stored choice,
 * else the browser's, stored again whenever the visitor follows the language switcher, and
 * working without storage (disabled, or refused as private modes do).
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  browserLanguages,
  interfaceLanguage,
  rememberLanguageSwitches,
  storedLanguage,
  storeLanguage,
} from '../../../../src/runtime/page/language'
import { LANGUAGE_STORAGE_KEY } from '../../../../src/shared/constants'
import { memoryStorage } from '../../../support/memory-storage'

/** The browser's language preferences, as `navigator` reports them. */
function preferLanguages(languages: readonly string[], language = languages[0] ?? '') {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages)
  vi.spyOn(navigator, 'language', 'get').mockReturnValue(language)
}

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  document.body.replaceChildren()
})

describe('the stored language', () => {
  it('is read and written under the site’s key', () => {
    const storage = memoryStorage()
    vi.stubGlobal('localStorage', storage)
    expect(storedLanguage()).toBeNull()
    storeLanguage('de')
    expect(storage.getItem(LANGUAGE_STORAGE_KEY)).toBe('de')
    expect(storedLanguage()).toBe('de')
  })

  it('is nothing, and storing it does nothing, where storage throws', () => {
    vi.stubGlobal('localStorage', memoryStorage(true))
    expect(storedLanguage()).toBeNull()
    expect(() => storeLanguage('de')).not.toThrow()
  })

  it('is nothing where the browser has no storage at all', () => {
    vi.stubGlobal('localStorage', undefined)
    expect(storedLanguage()).toBeNull()
    expect(() => storeLanguage('en')).not.toThrow()
  })
})

describe('the browser’s languages', () => {
  it('are its list of preferences', () => {
    preferLanguages(['de-AT', 'en-GB'])
    expect(browserLanguages()).toEqual(['de-AT', 'en-GB'])
  })

  it('are its one language where it gives no list (or an empty one)', () => {
    preferLanguages([], 'de-CH')
    expect(browserLanguages()).toEqual(['de-CH'])
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(
      undefined as unknown as readonly string[],
    )
    expect(browserLanguages()).toEqual(['de-CH'])
  })
})

describe('interfaceLanguage', () => {
  it('is the stored choice, over the browser’s', () => {
    vi.stubGlobal('localStorage', memoryStorage())
    storeLanguage('en')
    preferLanguages(['de-DE', 'de'])
    expect(interfaceLanguage()).toBe('en')
  })

  it('is the browser’s first language the site has, when nothing usable is stored', () => {
    const storage = memoryStorage()
    vi.stubGlobal('localStorage', storage)
    preferLanguages(['fr-FR', 'de-AT', 'en'])
    expect(interfaceLanguage()).toBe('de')
    // A value of another site version, or written by hand, counts as none.
    storage.setItem(LANGUAGE_STORAGE_KEY, 'fr')
    expect(interfaceLanguage()).toBe('de')
    storage.setItem(LANGUAGE_STORAGE_KEY, 'DE')
    expect(interfaceLanguage()).toBe('de')
  })

  it('is English when neither the storage nor the browser names a language of the site', () => {
    vi.stubGlobal('localStorage', memoryStorage(true))
    preferLanguages(['fr-FR', 'it'])
    expect(interfaceLanguage()).toBe('en')
  })
})

describe('rememberLanguageSwitches', () => {
  /** Whether the browser would follow the link: the click as it reaches the window, last. */
  let followed = false
  beforeAll(() => {
    rememberLanguageSwitches()
    window.addEventListener('click', (event) => {
      followed = !event.defaultPrevented
      // jsdom cannot load another page; the tests only need to know whether it would.
      event.preventDefault()
    })
  })

  const click = (element: Element) => {
    followed = false
    element.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }))
    return followed
  }

  it('stores the language of the switcher link followed, also by a click inside it', () => {
    const storage = memoryStorage()
    vi.stubGlobal('localStorage', storage)
    document.body.innerHTML =
      '<nav><a href="/de/" data-language-switch="de"><span lang="de">Deutsch</span></a>' +
      '<a href="/en/" data-language-switch="en">English</a></nav>'
    click(document.querySelector('span') as Element)
    expect(storage.getItem(LANGUAGE_STORAGE_KEY)).toBe('de')
    click(document.querySelector('[data-language-switch="en"]') as Element)
    expect(storage.getItem(LANGUAGE_STORAGE_KEY)).toBe('en')
  })

  it('stores nothing for other links, nor for a switch to a language the site lacks', () => {
    const storage = memoryStorage()
    vi.stubGlobal('localStorage', storage)
    document.body.innerHTML =
      '<a href="/de/about/">About</a><a href="/fr/" data-language-switch="fr">Français</a>' +
      '<a href="/x/" data-language-switch>?</a>'
    for (const link of document.querySelectorAll('a')) click(link)
    expect(storage.getItem(LANGUAGE_STORAGE_KEY)).toBeNull()
  })

  it('lets the click go on: the link is followed as usual', () => {
    vi.stubGlobal('localStorage', memoryStorage(true))
    document.body.innerHTML = '<a href="/de/" data-language-switch="de">Deutsch</a>'
    expect(click(document.querySelector('a') as Element)).toBe(true)
  })
})
