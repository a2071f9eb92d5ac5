/**
 * A wrong or missing setting (an environment variable) stops a program with one line on
 * standard error that names the setting, says what is wrong and what to do, and exit code 78
 * (`EX_CONFIG` of sysexits.h), never a stack trace:
 *
 *     METRICS_TOKEN: must be at least 32 characters; set a longer token or unset it
 *
 * Every program (`src/programs/`) runs its main through `runProgram`, which prints that line;
 * any other error keeps its stack (or the one-line explanation its program gives it).
 */

/** The exit code of a program a setting stopped: `EX_CONFIG` of sysexits.h. */
export const CONFIG_EXIT_CODE = 78

/** On one line, whatever the text it is made of holds (a library's message, a path). */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim()

/**
 * A setting that is wrong or missing: `setting` (the variable's name), the `problem` ("must be
 * at least 32 characters") and the `advice` ("set a longer token or unset it"). Its message is
 * the line a program prints: `SETTING: problem; advice`. Never put a secret's value (a token, a
 * key, a URL with a password) into it.
 */
export class SettingError extends Error {
  override readonly name: string = 'SettingError'
  readonly setting: string
  readonly problem: string
  readonly advice: string

  constructor(setting: string, problem: string, advice: string) {
    super(`${setting}: ${oneLine(problem)}; ${oneLine(advice)}`)
    this.setting = setting
    this.problem = oneLine(problem)
    this.advice = oneLine(advice)
  }
}

/**
 * What a program prints when `main` fails, and the code it exits with: a `SettingError`'s
 * line and 78; what `explain` makes of the error and 1 (a content problem, a tool's refusal);
 * anything else as it is, its stack with it, and 1.
 */
export function failureOf(
  error: unknown,
  explain?: (error: unknown) => string | undefined,
): { output: unknown; code: number } {
  if (error instanceof SettingError) return { output: error.message, code: CONFIG_EXIT_CODE }
  const explained = explain?.(error)
  return { output: explained ?? error, code: 1 }
}

/**
 * Runs a program's `main`; if it fails, prints what `failureOf` says and exits at once with its
 * code (servers, pools and workers already started must not keep the process alive). What a
 * program does when `main` succeeds stays its own.
 */
export function runProgram(
  main: () => Promise<unknown>,
  explain?: (error: unknown) => string | undefined,
): void {
  main().catch((error: unknown) => {
    const { output, code } = failureOf(error, explain)
    console.error(output)
    process.exit(code)
  })
}
