/**
 * The editor's page: the bar every screen shares above the room Decap draws in, the person's
 * configuration out of reach of the markup, and the scripts in the order they must run. Its
 * stylesheet fits Decap to a phone through the stable class names Decap's elements carry;
 * each of those must still name the same element in the Decap this project installs.
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { EDITOR_ROOT, editorPage } from '../../../../src/publishing/pages/editor'
import { documentOf, spokenText } from '../../../support/html'
import { person } from '../../../support/people'

const page = (language: 'en' | 'de', roles: Parameters<typeof person>[1] = ['author']) =>
  documentOf(
    editorPage({
      language,
      viewer: {
        person: { ...person('ada@bank.example', roles, language), name: 'Ada' },
        waiting: 2,
      },
      config: { site_url: 'https://bank.example', note: '</script><script>alert(1)</script>' },
      bundle: { script: '/admin/v1/editor.js', styles: ['/admin/v1/site.css'] },
    }),
  )

describe('the editor’s page', () => {
  it('has the shared bar, with the editor as the current place and the count waiting', () => {
    const document = page('en')
    const current = document.querySelector('.bar [aria-current="page"]')
    expect(current?.getAttribute('href')).toBe('/admin/')
    expect(spokenText(document.querySelector('.places a[href="/changes"]'))).toBe(
      'Changes (2 waiting for you)',
    )
    expect(spokenText(document.querySelector('.bar a[href="/me/sign-in"]'))).toContain('Ada')
    // An author is no administrator: neither People nor the audit trail.
    expect(document.querySelector('.bar a[href="/people"]')).toBeNull()
    expect(document.querySelector('.skip')?.getAttribute('href')).toBe(`#${EDITOR_ROOT}`)
  })

  it('speaks the person’s language', () => {
    const document = page('de', ['author', 'administrator'])
    expect(document.documentElement.lang).toBe('de')
    expect(document.title).toBe('Redaktion · Lumora Bank')
    expect(spokenText(document.querySelector('.places a[href="/changes"]'))).toMatch(/^Änderungen/)
    expect(document.querySelector('.bar a[href="/people"]')).not.toBeNull()
  })

  it('gives Decap its room below the bar, and keeps the configuration data', () => {
    const document = page('en')
    const root = document.getElementById(EDITOR_ROOT)
    expect(root?.previousElementSibling?.className).toBe('bar')
    const config = document.getElementById('cms-config')
    expect(config?.getAttribute('type')).toBe('application/json')
    // A `</script>` in the configuration cannot end the element early.
    expect(document.querySelectorAll('script:not([src])')).toHaveLength(1)
    expect(JSON.parse(config?.textContent ?? '')).toMatchObject({
      note: '</script><script>alert(1)</script>',
    })
  })

  it('loads the scripts in the order they must run, and only stylesheets by URL', () => {
    const document = page('en')
    const scripts = [...document.querySelectorAll('script[src]')].map((script) => [
      script.getAttribute('src'),
      script.hasAttribute('defer') ? 'defer' : (script.getAttribute('type') ?? 'classic'),
    ])
    expect(scripts).toEqual([
      ['/_publishing/editor-start.js', 'classic'],
      ['/admin/decap-cms.js', 'classic'],
      ['/admin/v1/editor.js', 'module'],
      ['/_publishing/manage.js', 'defer'],
    ])
    expect(document.querySelector('link[rel="stylesheet"]')?.getAttribute('href')).toBe(
      '/_publishing/editor.css',
    )
    expect(document.querySelector('style, [style]')).toBeNull()
    // Inter is there at first paint (its faces are `font-display: optional`).
    expect(document.querySelector('link[rel="preload"][as="font"]')?.getAttribute('href')).toBe(
      '/_publishing/fonts/inter-latin-wght-normal.woff2',
    )
    expect(document.querySelector('meta[name="cms-preview-style"]')?.getAttribute('content')).toBe(
      '/admin/v1/site.css',
    )
  })
})

describe('the editor’s stylesheet', () => {
  it('and the read-only form name only elements the installed Decap still has, as they say', async () => {
    const css = (
      await Promise.all(
        ['src/publishing/browser/editor.css', 'src/publishing/editor/browser/read-only.ts'].map(
          (file) => readFile(file, 'utf8'),
        ),
      )
    ).join('\n')
    const decap = await readFile(
      join(dirname(createRequire(import.meta.url).resolve('decap-cms')), 'decap-cms.js'),
      'utf8',
    )
    const classes = [...new Set(css.match(/\.e[0-9a-z]{6,9}\b/g) ?? [])].map((name) =>
      name.slice(1),
    )
    expect(classes.length).toBeGreaterThan(5)
    for (const name of classes) {
      const label = new RegExp(`target:"${name}",label:"(\\w+)"`).exec(decap)?.[1]
      expect(label, `${name} is no element of the installed Decap`).toBeDefined()
      // The stylesheet says which element each name is: an upgrade that moves a name fails.
      expect(css, `${name} is ${label}`).toContain(label)
    }
  })
})
