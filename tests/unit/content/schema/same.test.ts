/**
 * `Same<A, B>`, the type the schemas assert their output with
 * (`true satisfies Same<z.output<typeof schema>, Declared>`). It works at compile time: each
 * `const` below states what `Same` gives, so `npm run check` (tsc) fails when `Same` stops
 * telling two types apart or tells the same ones apart; the test run repeats the values.
 */
import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import type { ratesTexts } from '../../../../src/content/schema/rates'
import type { Same } from '../../../../src/content/schema/same'
import type { RatesTexts } from '../../../../src/shared/rates/texts'

interface Post {
  title: string
  tags?: string[]
  readonly date: string
}

describe('Same', () => {
  it('is true for the same fields, written in any order or as a type alias', () => {
    const reordered: Same<Post, { readonly date: string; tags?: string[]; title: string }> = true
    const alias: Same<Post, Pick<Post, 'title' | 'tags' | 'date'>> = true
    const primitive: Same<string, string> = true
    expect([reordered, alias, primitive]).toEqual([true, true, true])
  })

  it('is false when a field is added, missing or of another type', () => {
    const added: Same<Post, Post & { author: string }> = false
    const missing: Same<Post, Omit<Post, 'tags'>> = false
    const wider: Same<Post, Omit<Post, 'title'> & { title: string | number }> = false
    expect([added, missing, wider]).toEqual([false, false, false])
  })

  it('is false where plain assignability would agree: optional, read-only, any', () => {
    // { a?: string } and { a: string | undefined } accept each other's values; not the same.
    const optional: Same<{ a?: string }, { a: string | undefined }> = false
    // Read-only fields are assignable both ways; still not the same.
    const readonly: Same<{ readonly a: string }, { a: string }> = false
    // unknown takes every value, and any is assignable to and from everything.
    const unknownField: Same<{ a: string }, { a: unknown }> = false
    // biome-ignore lint/suspicious/noExplicitAny: what Same must tell apart from string
    const anyField: Same<{ a: string }, { a: any }> = false
    expect([optional, readonly, unknownField, anyField]).toEqual([false, false, false, false])
  })

  it('holds for a schema and the type shared code reads it as, and breaks with either', () => {
    type Words = z.output<typeof ratesTexts.shape.en>
    const same: Same<Words, RatesTexts> = true
    const lessWords: Same<Words, Omit<RatesTexts, 'retry'>> = false
    const optionalWord: Same<Words, Omit<RatesTexts, 'retry'> & { retry?: string }> = false
    expect([same, lessWords, optionalWord]).toEqual([true, false, false])
  })
})
