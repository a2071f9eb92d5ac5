/**
 * What a failed mail tells: its SMTP code or error code only (SMTP errors quote the
 * recipient, so their messages are never kept or logged), and whether trying again can help.
 */

export type Failure = { code?: unknown; responseCode?: unknown; command?: unknown }

/** Only what identifies a failure, never its message: SMTP errors quote the recipient. */
export const failureOf = (error: unknown): Failure => {
  const { code, responseCode, command } = (error ?? {}) as Record<string, unknown>
  return { code, responseCode, command }
}

/** The stored reason of a failed attempt: the SMTP code, else the error's code. */
export const errorCode = (failure: Failure) => {
  const text =
    typeof failure.responseCode === 'number'
      ? `smtp ${failure.responseCode}`
      : typeof failure.code === 'string'
        ? failure.code
        : 'error'
  return /^[\w .-]{1,40}$/.test(text) ? text : 'error'
}

/**
 * A refusal for good: an SMTP 5xx (the recipient or the message refused), or a mail that
 * could not be addressed at all. Connection errors, time-outs, SMTP 4xx and a refused login
 * (a setting to fix, after which the mails should still go) are tried again.
 */
export const isPermanent = (failure: Failure) =>
  typeof failure.responseCode === 'number'
    ? failure.responseCode >= 500 && failure.responseCode < 600 && failure.code !== 'EAUTH'
    : failure.code === 'EENVELOPE' || failure.code === 'unknown list'
