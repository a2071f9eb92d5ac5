/**
 * The database settings both services read, `DATABASE_URL` (PostgreSQL; PGlite without it) and
 * `DATABASE_OWNER_URL` (the tables' owner, for the migrations), and what a start says when the
 * server they name cannot be used: the setting, the server's host and port, what it answered,
 * and what to do. A URL's password is never repeated: neither its value nor a library's
 * message goes into the line.
 */
import { type Environment, settingOf } from '../shared/setting-values'
import { SettingError } from '../shared/settings-error'

export type DatabaseSetting = 'DATABASE_URL' | 'DATABASE_OWNER_URL'

const EXAMPLE = 'postgres://user:password@host:5432/database'

/** A PostgreSQL URL, checked; the value itself is not repeated (it may hold a password). */
function postgresUrlOf(env: Environment, name: DatabaseSetting): string | undefined {
  const value = settingOf(env, name)
  if (value === undefined) return undefined
  let url: URL | undefined
  try {
    url = new URL(value)
  } catch {}
  if (!url || (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')) {
    throw new SettingError(
      name,
      'is not a PostgreSQL URL (it must begin with postgres:// or postgresql://)',
      `set it to one such as ${EXAMPLE}${name === 'DATABASE_URL' ? ', or unset it for the embedded database (PGlite in DATA_DIR)' : ''}`,
    )
  }
  if (!url.hostname && !url.searchParams.get('host')) {
    throw new SettingError(
      name,
      'names no host',
      `set it to a URL with the server's host, such as ${EXAMPLE}`,
    )
  }
  return value
}

/** `DATABASE_URL` and `DATABASE_OWNER_URL`, each a PostgreSQL URL, the owner's only with the other. */
export function readDatabaseUrls(env: Environment): {
  databaseUrl: string | undefined
  databaseOwnerUrl: string | undefined
} {
  const databaseUrl = postgresUrlOf(env, 'DATABASE_URL')
  const databaseOwnerUrl = postgresUrlOf(env, 'DATABASE_OWNER_URL')
  if (databaseOwnerUrl && !databaseUrl) {
    throw new SettingError(
      'DATABASE_OWNER_URL',
      'names the owner of the tables of a PostgreSQL that DATABASE_URL does not name',
      "set DATABASE_URL too (the services' own role), or unset DATABASE_OWNER_URL",
    )
  }
  return { databaseUrl, databaseOwnerUrl }
}

/** The server a URL names, as `host:port` (5432 unless it says otherwise), and its role. */
export function serverOf(url: string): { where: string; role: string; database: string } {
  try {
    const parsed = new URL(url)
    const host = parsed.hostname || parsed.searchParams.get('host') || 'localhost'
    return {
      where: `${host}:${parsed.port || '5432'}`,
      role: decodeURIComponent(parsed.username),
      database: decodeURIComponent(parsed.pathname.replace(/^\//, '')),
    }
  } catch {
    return { where: 'the address it names', role: '', database: '' }
  }
}

const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'its host name does not resolve',
  EAI_AGAIN: 'its host name could not be resolved now',
  ETIMEDOUT: 'no answer',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'the connection was reset',
  EADDRNOTAVAIL: 'address not available',
}

/**
 * The `SettingError` for a first connection (or the migrations after it) that failed because
 * of what `setting` names: the server is not reachable, refuses the role or its password, has
 * no such database, or lets the role create no tables. Undefined for any other error.
 */
export function connectionFailure(
  error: unknown,
  url: string,
  setting: DatabaseSetting,
): SettingError | undefined {
  if (!error || typeof error !== 'object') return undefined
  const { code, message } = error as { code?: unknown; message?: unknown }
  const nested = (error as { errors?: unknown }).errors
  // A host with several addresses (localhost) fails with one error per address.
  if (!code && Array.isArray(nested) && nested[0]) {
    return connectionFailure(nested[0], url, setting)
  }
  const { where, role, database } = serverOf(url)
  const text = typeof message === 'string' ? message : ''
  const elsewhere = `or set ${setting} to the server's address`
  if (typeof code === 'string' && code in UNREACHABLE) {
    return new SettingError(
      setting,
      `cannot reach PostgreSQL at ${where} (${UNREACHABLE[code]}, ${code})`,
      `start PostgreSQL there or make it reachable, ${elsewhere}`,
    )
  }
  if (/^timeout exceeded when trying to connect|^Connection terminated/.test(text)) {
    return new SettingError(
      setting,
      `cannot reach PostgreSQL at ${where} (no answer to a connection)`,
      `start PostgreSQL there or make it reachable, ${elsewhere}`,
    )
  }
  if (code === '28P01') {
    return new SettingError(
      setting,
      `PostgreSQL at ${where} refused the password of role "${role}"`,
      `set ${setting} with the role's right password`,
    )
  }
  if (code === '28000') {
    return new SettingError(
      setting,
      `PostgreSQL at ${where} does not let role "${role}" connect to database "${database}"`,
      `allow it (pg_hba.conf, the role's LOGIN), or set ${setting} to a role that may connect`,
    )
  }
  if (code === '3D000') {
    return new SettingError(
      setting,
      `PostgreSQL at ${where} has no database "${database}"`,
      `create it (createdb ${database || 'NAME'}), or set ${setting} to a database that exists`,
    )
  }
  // insufficient_privilege, or no schema it may create in (invalid_schema_name).
  if ((code === '42501' || code === '3F000') && setting === 'DATABASE_URL') {
    return new SettingError(
      setting,
      `role "${role}" may not create or change the service's tables at ${where} (${code === '42501' ? 'permission denied' : 'no schema it may create in'})`,
      "run the migrations as the tables' owner (npm run cms -- migrate, with DATABASE_OWNER_URL), or set DATABASE_OWNER_URL",
    )
  }
  if (/\bSSL\b/i.test(text)) {
    return new SettingError(
      setting,
      `cannot connect to PostgreSQL at ${where}: ${text}`,
      `set ${setting}'s sslmode to what the server supports`,
    )
  }
  if (typeof code === 'string' && (code === '57P03' || code === '53300' || code.startsWith('08'))) {
    return new SettingError(
      setting,
      `PostgreSQL at ${where} refused the connection (${code}: ${text})`,
      `try again once it takes connections, ${elsewhere}`,
    )
  }
  return undefined
}
