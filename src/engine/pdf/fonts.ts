/**
 * The PDFs' font, Inter (as on the site), from its TrueType files: read and parsed once per
 * process, not once per document, and each word laid out once. Laying out text through Inter's
 * OpenType tables (kerning, contextual forms) was most of a document's time.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import * as fontkit from 'fontkit'

const require = createRequire(import.meta.url)

export const FONT_FILES = {
  regular: '400Regular/Inter_400Regular.ttf',
  bold: '700Bold/Inter_700Bold.ttf',
  italic: '400Regular_Italic/Inter_400Regular_Italic.ttf',
  boldItalic: '700Bold_Italic/Inter_700Bold_Italic.ttf',
} as const
export type FontName = keyof typeof FONT_FILES

type Position = fontkit.GlyphPosition
interface Laid {
  glyphs: fontkit.Glyph[]
  positions: Position[]
}

/**
 * No glyph substitution, positioning only (kerning, marks): each character stays its own glyph,
 * so the text a reader extracts is the text written (a substitution that decomposed `Ü` into
 * `U` and a mark gave every later `U` the text of `Ü`).
 */
const FEATURES = {
  ccmp: false,
  locl: false,
  rlig: false,
  calt: false,
  clig: false,
  liga: false,
  rclt: false,
} as unknown as Parameters<fontkit.Font['layout']>[1]

/**
 * The font with its layout remembered by text. PDFKit scales the positions of a layout in
 * place, so each caller gets positions of its own.
 */
function remembering(font: fontkit.Font): fontkit.Font {
  const laid = new Map<string, Laid>()
  const layout = (text: string) => {
    let known = laid.get(text)
    if (!known) {
      const run = font.layout(text, FEATURES)
      // Each glyph with the character it stands for here. fontkit's glyph objects carry the
      // characters of their first use, none when the subsetter made one for a composite glyph
      // (`”` is two `’`): a later `’` then read as nothing, or as another character.
      const characters = [...text].map((character) => character.codePointAt(0) ?? 0)
      const glyphs =
        characters.length === run.glyphs.length
          ? run.glyphs.map((glyph, index) => ({
              id: glyph.id,
              advanceWidth: glyph.advanceWidth,
              codePoints: [characters[index] ?? 0],
            }))
          : run.glyphs
      known = {
        glyphs: glyphs as fontkit.Glyph[],
        positions: run.positions.map((position) => ({ ...position })),
      }
      laid.set(text, known)
    }
    const positions = known.positions.map((position) => ({ ...position }))
    return {
      glyphs: known.glyphs,
      positions,
      get advanceWidth() {
        return positions.reduce((sum, position) => sum + position.xAdvance, 0)
      },
    }
  }
  return new Proxy(font, {
    get(target, property) {
      if (property === 'layout') return layout
      const value = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

const opened = new Map<FontName, fontkit.Font>()

/** A font for PDFKit's `registerFont`. */
export function pdfFont(name: FontName): fontkit.Font {
  let font = opened.get(name)
  if (!font) {
    const file = require.resolve(`@expo-google-fonts/inter/${FONT_FILES[name]}`)
    font = remembering(fontkit.create(readFileSync(file)) as fontkit.Font)
    opened.set(name, font)
  }
  return font
}
