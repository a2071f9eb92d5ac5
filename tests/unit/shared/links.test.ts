import { describe, expect, it } from 'vitest'
import { classifyLink, linkAttributes, shouldIntercept } from '../../../src/shared/links'

const BASE = 'https://bank.example/en/about/'

describe('classifyLink', () => {
  it.each([
    ['/en/services/', 'internal'],
    ['../support/', 'internal'],
    ['https://bank.example/de/', 'internal'],
    ['#team', 'internal'],
    ['/blog/', 'internal'],
    ['mailto:press@bank.example', 'plain'],
    ['MAILTO:press@bank.example', 'plain'],
    ['javascript:void(0)', 'plain'],
    ['tel:+4930123456', 'plain'],
    ['/documents/terms.pdf', 'plain'],
    ['/en/press/download/', 'plain'],
    ['/content/files/report.pdf', 'plain'],
    ['https://bank.example/documents/x.pdf', 'plain'],
    ['https://www.bafin.de/', 'external'],
    ['http://bank.example/en/', 'external'],
    ['//cdn.example/file.js', 'external'],
    ['ftp://files.example/', 'plain'],
  ])('%s is %s', (href, kind) => {
    expect(classifyLink(href, BASE)).toBe(kind)
  })

  it('gives external links a new tab without opener or referrer, and others nothing', () => {
    expect(linkAttributes('external')).toEqual({ target: '_blank', rel: 'noopener noreferrer' })
    expect(linkAttributes('internal')).toEqual({})
    expect(linkAttributes('plain')).toEqual({})
  })
})

describe('shouldIntercept', () => {
  const click = {
    button: 0,
    metaKey: false,
    ctrlKey: false,
    shiftKey: false,
    altKey: false,
    defaultPrevented: false,
  }
  const anchor = { href: 'https://bank.example/en/services/', target: '', hasDownload: false }

  it('takes a plain left click on an internal link', () => {
    expect(shouldIntercept(click, anchor, BASE)).toBe(true)
    expect(shouldIntercept(click, { ...anchor, target: '_self' }, BASE)).toBe(true)
  })

  it.each([
    ['meta key', { metaKey: true }],
    ['control key', { ctrlKey: true }],
    ['shift key', { shiftKey: true }],
    ['alt key', { altKey: true }],
    ['middle button', { button: 1 }],
    ['an earlier handler prevented it', { defaultPrevented: true }],
  ])('leaves the click to the browser with %s', (_name, change) => {
    expect(shouldIntercept({ ...click, ...change }, anchor, BASE)).toBe(false)
  })

  it('leaves downloads, other targets and plain or external links to the browser', () => {
    expect(shouldIntercept(click, { ...anchor, hasDownload: true }, BASE)).toBe(false)
    expect(shouldIntercept(click, { ...anchor, target: '_blank' }, BASE)).toBe(false)
    expect(shouldIntercept(click, { ...anchor, target: 'frame' }, BASE)).toBe(false)
    expect(shouldIntercept(click, { ...anchor, href: 'mailto:a@b.example' }, BASE)).toBe(false)
    expect(
      shouldIntercept(click, { ...anchor, href: 'https://bank.example/documents/a.pdf' }, BASE),
    ).toBe(false)
    expect(shouldIntercept(click, { ...anchor, href: 'https://other.example/' }, BASE)).toBe(false)
  })
})
