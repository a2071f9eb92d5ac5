// @vitest-environment jsdom
/**
 * The "copy link" under each FAQ answer: a plain click copies the answer's address and says so
 * in the live region, before the router sees the click; a click with a modifier, or a page
 * without a clipboard (or one that refuses), goes to the answer as the link would.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { startCopyLinks } from '../../../../src/runtime/page/copy-link'
import { ANNOUNCER_ELEMENT_ID } from '../../../../src/shared/constants'

const ADDRESS = 'http://localhost:3000/en/support/faq/#card-lost'
let saying = 'Link copied'
let asked = 0

/** What the router (listening without capture) sees of each click. */
const routerSaw: { prevented: boolean }[] = []

beforeAll(() => {
  // The router's listener, even one added first, runs after the copy link's (capturing) one.
  document.addEventListener('click', (event) =>
    routerSaw.push({ prevented: event.defaultPrevented }),
  )
  startCopyLinks(() => {
    asked += 1
    return saying
  })
})

let writeText: ReturnType<typeof vi.fn<(text: string) => Promise<void>>>

function useClipboard(clipboard: { writeText: (text: string) => Promise<void> } | undefined) {
  Object.defineProperty(navigator, 'clipboard', { value: clipboard, configurable: true })
}

beforeEach(() => {
  asked = 0
  saying = 'Link copied'
  routerSaw.length = 0
  writeText = vi.fn(async (_text: string) => {})
  useClipboard({ writeText })
  document.body.innerHTML =
    `<div id="${ANNOUNCER_ELEMENT_ID}" aria-live="polite"></div>` +
    '<div id="card-lost"><p>Block the card in the app.</p>' +
    '<a href="/en/support/faq/#card-lost" data-copy-link><svg></svg><span>Copy link</span></a>' +
    '<a href="/en/support/" id="other">Support</a></div>'
  history.replaceState(null, '', '/en/support/faq/')
})

afterEach(() => {
  useClipboard(undefined)
})

const announcer = () => document.getElementById(ANNOUNCER_ELEMENT_ID) as HTMLElement
const copyLink = () => document.querySelector('[data-copy-link]') as HTMLAnchorElement

/** Whether the click was handled (not left to the browser) as it reaches the window, last. */
let handled = false
window.addEventListener('click', (event) => {
  handled = event.defaultPrevented
  // jsdom cannot load another page; the tests only need to know whether it would.
  event.preventDefault()
})

function click(target: Element, init: MouseEventInit = {}): { defaultPrevented: boolean } {
  handled = false
  target.dispatchEvent(
    new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init }),
  )
  return { defaultPrevented: handled }
}

describe('a plain click on "copy link"', () => {
  it('copies the answer’s full address and stays on the page', async () => {
    const event = click(copyLink())
    expect(event.defaultPrevented).toBe(true)
    expect(writeText).toHaveBeenCalledExactlyOnceWith(ADDRESS)
    await Promise.resolve()
    expect(location.hash).toBe('')
  })

  it('says so in the live region once the copy is done, in the words asked for then', async () => {
    announcer().textContent = 'Navigated to FAQ'
    saying = 'Link kopiert'
    click(copyLink())
    await vi.waitFor(() => expect(announcer().textContent).toBe('Link kopiert'))
    expect(asked).toBe(1)
  })

  it('works from the icon or the text inside the link', () => {
    click(copyLink().querySelector('span') as Element)
    click(copyLink().querySelector('svg') as Element)
    expect(writeText).toHaveBeenCalledTimes(2)
  })

  it('reaches the router already handled, so it is no navigation', () => {
    click(copyLink())
    expect(routerSaw).toEqual([{ prevented: true }])
  })
})

describe('without a working clipboard', () => {
  it('goes to the answer, where the browser shows its address', () => {
    useClipboard(undefined)
    const event = click(copyLink())
    expect(event.defaultPrevented).toBe(true)
    expect(location.hash).toBe('#card-lost')
    expect(asked).toBe(0)
  })

  it('goes to the answer when the clipboard refuses, and says nothing', async () => {
    writeText.mockRejectedValueOnce(new DOMException('denied', 'NotAllowedError'))
    click(copyLink())
    await vi.waitFor(() => expect(location.hash).toBe('#card-lost'))
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(announcer().textContent).toBe('')
    expect(asked).toBe(0)
  })
})

describe('clicks it leaves alone', () => {
  it.each([
    ['Ctrl', { ctrlKey: true }],
    ['Cmd', { metaKey: true }],
    ['Shift', { shiftKey: true }],
    ['Alt', { altKey: true }],
    ['the middle button', { button: 1 }],
  ])('a click with %s: the browser opens or saves the link as usual', (_name, init) => {
    const event = click(copyLink(), init)
    expect(event.defaultPrevented).toBe(false)
    expect(writeText).not.toHaveBeenCalled()
  })

  it('a click on another link or on the text', () => {
    expect(click(document.getElementById('other') as Element).defaultPrevented).toBe(false)
    expect(click(document.querySelector('p') as Element).defaultPrevented).toBe(false)
    expect(writeText).not.toHaveBeenCalled()
  })
})
