import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../../../../src/engine/config'
import { THEME_COLOR } from '../../../../src/shared/constants'

/** The colour tokens of the design, with the brand colour the build adds from THEME_COLOR. */
function tokens(): Record<string, string> {
  const css = readFileSync(join(ROOT, 'src/site/styles/tokens.css'), 'utf8')
  const found: Record<string, string> = { brand: THEME_COLOR }
  for (const [, name, value] of css.matchAll(/--color-([\w-]+):\s*(#[0-9a-f]{6})\s*;/gi))
    found[name as string] = value as string
  return found
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((start) => {
    const channel = Number.parseInt(hex.slice(start, start + 2), 16) / 255
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

/** WCAG 2.1 contrast ratio of two colours. */
function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (light + 0.05) / (dark + 0.05)
}

/**
 * Every pairing of text and background the components use, in every state (hover, current,
 * focus, dark sections). Normal text needs 4.5:1; focus rings and the brand shapes beside
 * text are graphics and need 3:1.
 */
const TEXT_PAIRS: [string, string, string][] = [
  ['body text', 'text', 'surface'],
  ['body text on tinted panels', 'text', 'subtle'],
  ['secondary text', 'muted', 'surface'],
  ['secondary text on tinted panels', 'muted', 'subtle'],
  ['secondary text on the hero', 'muted', 'accent-soft'],
  ['links', 'link', 'surface'],
  ['links on tinted panels', 'link', 'subtle'],
  ['links and buttons, hovered', 'accent-strong', 'surface'],
  ['eyebrows, current navigation item, secondary button', 'accent', 'surface'],
  ['secondary button, hovered', 'accent-strong', 'accent-soft'],
  ['primary button', 'inverse-text', 'accent'],
  ['primary button, hovered', 'inverse-text', 'accent-strong'],
  ['footer and dark panels', 'inverse-text', 'inverse'],
  ['footer group titles', 'inverse-muted', 'inverse'],
  ['footer links, hovered', 'inverse-accent', 'inverse'],
  ['current language', 'inverse-text', 'inverse'],
  ['form errors', 'error', 'surface'],
  ['form errors in the form panel', 'error', 'subtle'],
  ['hints and markers in the form panel', 'muted', 'subtle'],
  ['a failure message', 'text', 'error-soft'],
]
const GRAPHIC_PAIRS: [string, string, string][] = [
  ['focus ring', 'focus', 'surface'],
  ['focus ring on tinted panels', 'focus', 'subtle'],
  ['focus ring on dark panels', 'inverse-accent', 'inverse'],
  ['brand shapes beside text', 'brand', 'surface'],
  ['menu button and switcher borders', 'line-strong', 'surface'],
  ['form field borders', 'line-strong', 'surface'],
  ['form field borders against the form panel', 'line-strong', 'subtle'],
  ['an invalid field’s border in the form panel', 'error', 'subtle'],
]

describe('colour contrast of the design tokens (WCAG 2.1 AA)', () => {
  const colours = tokens()
  const colour = (name: string) => {
    const value = colours[name]
    if (!value) throw new Error(`no colour token --color-${name}`)
    return value
  }
  it.each(TEXT_PAIRS)('%s: at least 4.5:1', (_, text, background) => {
    expect(contrast(colour(text), colour(background))).toBeGreaterThanOrEqual(4.5)
  })
  it.each(GRAPHIC_PAIRS)('%s: at least 3:1', (_, shape, background) => {
    expect(contrast(colour(shape), colour(background))).toBeGreaterThanOrEqual(3)
  })
  it('computes ratios as WCAG does', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5)
    expect(contrast('#777777', '#ffffff')).toBeCloseTo(4.48, 2)
  })
})
