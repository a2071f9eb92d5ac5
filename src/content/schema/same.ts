/**
 * `true` when two types are the same field for field (optional and read-only ones too), else
 * `false`. Where shared code declares a schema's output, the schema asserts
 * `true satisfies Same<z.output<typeof schema>, Declared>`, so the type check fails as soon as
 * one of the two changes without the other.
 */
export type Same<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
