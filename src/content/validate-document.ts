/** One stored document checked against its content type's schema, in the problems' terms. */
import type { z } from 'zod'
import type { ContentProblem } from './errors'
import type { ContentDocument } from './source'

/** The document's data as the schema makes it, or undefined with its problems added. */
export function validateDocument<T>(
  schema: z.ZodType<T>,
  document: ContentDocument,
  problems: ContentProblem[],
): T | undefined {
  const parsed = schema.safeParse(document.data)
  if (parsed.success) return parsed.data
  for (const issue of parsed.error.issues) {
    const field = issue.path.map(String).join('.')
    const message =
      issue.code === 'unrecognized_keys'
        ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}: expected only the fields of this content type`
        : issue.message
    problems.push({ file: document.file, field, message })
  }
  return undefined
}
