/**
 * `POST /api/csp-report`: where browsers report what the Content-Security-Policy blocked, in
 * either format (`application/csp-report` of `report-uri`, `application/reports+json` of the
 * Reporting API). Each report becomes one log line of what was blocked and where, without
 * personal data: the page's path without its query, the blocked resource's origin only (a
 * blocked address may carry tokens or an e-mail address), the directive, file and line.
 * Reports are small and limited per visitor address and in all, so a flood costs little.
 */
import type { FastifyInstance } from 'fastify'
import { CSP_REPORT_PATH } from '../shared/http-headers'
import { clientOf } from './client-address'

/** A report is a few hundred bytes; a batch of the Reporting API a few of them. */
export const CSP_REPORT_BODY_LIMIT = 16 * 1024

export interface CspReportOptions {
  /** Reports accepted per visitor address and minute (default 20). */
  perAddress?: number
  /** Reports accepted per minute from everyone (default 600). */
  total?: number
  now?: () => number
}

/** What one report says, reduced to what may be logged. */
export interface CspViolation {
  page?: string
  directive?: string
  blocked?: string
  source?: string
  line?: number
  disposition?: string
}

/**
 * The longest each field is logged: with a line's own fields (time, level, request id,
 * message), a report's line stays under a kilobyte, as the README promises.
 */
const LOGGED = { path: 200, directive: 60, blocked: 200, disposition: 10 }

/** The most of a field read at all (an address is parsed from up to this many characters). */
const READ = 2000

/**
 * A field as logged: at most `max` characters, each printable ASCII and none that JSON escapes
 * (`"`, `\`; anything else becomes `?`), so that its bytes in the line are its length.
 */
const loggable = (value: string, max: number) =>
  value.slice(0, max).replace(/[^\x20-\x7e]|["\\]/g, '?')

const text = (value: unknown, max: number) =>
  typeof value === 'string' && value.length > 0 ? loggable(value, max) : undefined

/** A path without query or fragment, from a full address or a path. */
function pathOf(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0) return undefined
  try {
    const path = new URL(value.slice(0, READ), 'http://site.invalid').pathname
    return loggable(path, LOGGED.path)
  } catch {
    return undefined
  }
}

/** `inline`, `eval`, `data` and the like as they are; an address by its origin only. */
function blockedOf(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0) return undefined
  const blocked = value.slice(0, READ)
  if (/^[a-z-]+$/i.test(blocked)) return loggable(blocked, LOGGED.blocked)
  try {
    const url = new URL(blocked)
    // A host (or a scheme) may be as long as the field: the origin is cut like the rest.
    return loggable(url.origin === 'null' ? url.protocol : url.origin, LOGGED.blocked)
  } catch {
    return 'unknown'
  }
}

/** The reports of one request body, in either format; anything else is no report. */
export function readCspReports(body: unknown): CspViolation[] {
  const one = (report: Record<string, unknown>, legacy: boolean): CspViolation => {
    const get = (modern: string, old: string) => report[legacy ? old : modern]
    const line = get('lineNumber', 'line-number')
    return {
      page: pathOf(get('documentURL', 'document-uri')),
      directive: text(
        get('effectiveDirective', 'effective-directive') ?? report['violated-directive'],
        LOGGED.directive,
      ),
      blocked: blockedOf(get('blockedURL', 'blocked-uri')),
      source: pathOf(get('sourceFile', 'source-file')),
      ...(typeof line === 'number' && Number.isInteger(line) ? { line } : {}),
      disposition: text(get('disposition', 'disposition'), LOGGED.disposition),
    }
  }
  if (Array.isArray(body)) {
    return body
      .filter(
        (item): item is { body: Record<string, unknown> } =>
          typeof item === 'object' &&
          item !== null &&
          (item as { type?: unknown }).type === 'csp-violation' &&
          typeof (item as { body?: unknown }).body === 'object' &&
          (item as { body?: unknown }).body !== null,
      )
      .slice(0, 20)
      .map((item) => one(item.body, false))
  }
  const legacy = (body as { 'csp-report'?: unknown } | undefined)?.['csp-report']
  if (typeof legacy === 'object' && legacy !== null) {
    return [one(legacy as Record<string, unknown>, true)]
  }
  return []
}

/** A fixed-window count per key, forgotten when its minute is over. */
function windowCounter(limit: number, now: () => number) {
  let windowStart = now()
  const counts = new Map<string, number>()
  return (key: string) => {
    if (now() - windowStart >= 60_000) {
      counts.clear()
      windowStart = now()
    }
    const count = (counts.get(key) ?? 0) + 1
    counts.set(key, count)
    return count <= limit
  }
}

export async function cspReportRoute(app: FastifyInstance, options: CspReportOptions = {}) {
  const now = options.now ?? Date.now
  const perAddress = windowCounter(options.perAddress ?? 20, now)
  const total = windowCounter(options.total ?? 600, now)
  for (const type of ['application/csp-report', 'application/reports+json']) {
    app.addContentTypeParser(
      type,
      { parseAs: 'string', bodyLimit: CSP_REPORT_BODY_LIMIT },
      (_request, body, done) => {
        try {
          done(null, JSON.parse(body as string))
        } catch {
          done(null, undefined)
        }
      },
    )
  }
  app.post(CSP_REPORT_PATH, { bodyLimit: CSP_REPORT_BODY_LIMIT }, async (request, reply) => {
    reply.header('cache-control', 'no-store')
    // Counted per address first, so one noisy visitor does not use up everyone's share.
    if (!perAddress(clientOf(request.ip)) || !total('all')) return reply.code(429).send()
    const reports = readCspReports(request.body)
    if (reports.length === 0) return reply.code(400).send()
    for (const report of reports)
      request.log.warn({ csp: report }, 'content security policy violation')
    return reply.code(204).send()
  })
}
