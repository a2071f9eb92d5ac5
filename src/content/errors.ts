/** Content problems: what is wrong, in which file and field, and what was expected. */

export interface ContentProblem {
  /** The file, relative to the content directory: `en/pages/about.yaml`. */
  file: string
  /** Dotted path of the field: `navigation.2.href`; empty for the whole file. */
  field: string
  /** What was expected, and what was found. */
  message: string
}

export function formatProblem(problem: ContentProblem, contentDir?: string): string {
  const file = contentDir ? `${contentDir.replace(/\/$/, '')}/${problem.file}` : problem.file
  return problem.field
    ? `${file} › ${problem.field}: ${problem.message}`
    : `${file}: ${problem.message}`
}

/** Thrown once, with every problem found, so an editor can fix them all in one go. */
export class ContentValidationError extends Error {
  readonly problems: readonly ContentProblem[]

  constructor(problems: readonly ContentProblem[], contentDir?: string) {
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`
    super(
      `The content store has ${count}; nothing was built:\n${problems
        .map((problem) => `  - ${formatProblem(problem, contentDir)}`)
        .join('\n')}`,
    )
    this.name = 'ContentValidationError'
    this.problems = problems
  }
}

/** What a program prints for the content store's problems (their list); undefined for any other error. */
export const contentProblems = (error: unknown): string | undefined =>
  error instanceof ContentValidationError ? error.message : undefined
