/**
 * Settings read from the environment, each checked: a value that is not what its variable
 * takes is refused with a `SettingError` that names the variable, says what it takes and what
 * it got, and what to do. An unset or empty variable takes its default.
 */
import { SettingError } from './settings-error'

export type Environment = Readonly<Record<string, string | undefined>>

/** The variable's value, or undefined when it is unset or empty. */
export const settingOf = (env: Environment, name: string): string | undefined =>
  env[name] === undefined || env[name] === '' ? undefined : env[name]

const unsetFor = (fallback: number | string) => `or unset it for the default (${fallback})`

/**
 * A whole number of at least `min` (and at most `max`); `note` says what a special value
 * means ("0 turns it off").
 */
export function wholeNumberSetting(
  env: Environment,
  name: string,
  fallback: number,
  {
    min = 0,
    max = Number.MAX_SAFE_INTEGER,
    note,
  }: { min?: number; max?: number; note?: string } = {},
): number {
  const value = settingOf(env, name)
  if (value === undefined) return fallback
  const parsed = Number(value)
  if (!/^\s*\d+\s*$/.test(value) || parsed < min || parsed > max) {
    const range = max < Number.MAX_SAFE_INTEGER ? `from ${min} to ${max}` : `of at least ${min}`
    throw new SettingError(
      name,
      `must be a whole number ${range}${note ? ` (${note})` : ''}; got "${value}"`,
      `set it to such a number, ${unsetFor(fallback)}`,
    )
  }
  return parsed
}

/** A positive number of seconds or minutes (fractions allowed). */
export function positiveNumberSetting(
  env: Environment,
  name: string,
  fallback: number,
  unit: 'seconds' | 'minutes',
): number {
  const value = settingOf(env, name)
  if (value === undefined) return fallback
  const parsed = Number(value)
  if (!Number.isFinite(parsed) || parsed <= 0) {
    throw new SettingError(
      name,
      `must be a positive number of ${unit}; got "${value}"`,
      `set it to a number such as ${fallback}, ${unsetFor(fallback)}`,
    )
  }
  return parsed
}

/**
 * A port to listen on: `min` (0, any free one, unless said otherwise) to 65535; unset, the
 * `fallback` (none: undefined).
 */
export function portSetting<Fallback extends number | undefined>(
  env: Environment,
  name: string,
  fallback: Fallback,
  { min = 0, example = fallback ?? 9464 }: { min?: number; example?: number } = {},
): number | Fallback {
  const value = settingOf(env, name)
  if (value === undefined) return fallback
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > 65_535) {
    throw new SettingError(
      name,
      `must be a port number from ${min} to 65535; got "${value}"`,
      `set it to a free port such as ${example}, ${fallback === undefined ? 'or unset it' : unsetFor(fallback)}`,
    )
  }
  return Number(value)
}

/** One of a few words (`on` or `off`, `json` or `pretty`). */
export function choiceSetting<Choice extends string>(
  env: Environment,
  name: string,
  choices: readonly Choice[],
  fallback: Choice,
): Choice {
  const value = settingOf(env, name) ?? fallback
  if (!(choices as readonly string[]).includes(value)) {
    const listed = `${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}`
    throw new SettingError(
      name,
      `must be ${listed}; got "${value}"`,
      `set it to one of them, ${unsetFor(fallback)}`,
    )
  }
  return value as Choice
}

/** `on` or `off`, as a boolean. */
export const switchSetting = (env: Environment, name: string, fallback: 'on' | 'off'): boolean =>
  choiceSetting(env, name, ['on', 'off'], fallback) === 'on'

/** Hosts a service may use plain http on (tests, a developer's machine); https anywhere else. */
export const LOCAL_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]']

/**
 * An absolute http or https URL (`https` unless on `LOCAL_HOSTS` when `https` is asked for);
 * `example` shows one. The value is repeated in the error: not for URLs that carry a password.
 */
export function urlSetting(
  env: Environment,
  name: string,
  fallback: string,
  { example, https = false, why }: { example: string; https?: boolean; why?: string },
): URL {
  const value = settingOf(env, name) ?? fallback
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new SettingError(
      name,
      `must be an absolute URL; got "${value}"`,
      `set it to one such as ${example}`,
    )
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new SettingError(
      name,
      `must be an http or https URL; got "${value}"`,
      `set it to one such as ${example}`,
    )
  }
  if (https && url.protocol !== 'https:' && !LOCAL_HOSTS.includes(url.hostname)) {
    throw new SettingError(
      name,
      `must use https${why ? ` (${why})` : ''} but for localhost; got "${value}"`,
      `set it to the https address, such as ${example}`,
    )
  }
  return url
}
