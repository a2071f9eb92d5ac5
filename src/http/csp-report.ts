/**
 * `POST /api/csp-report`: where browsers report what the Content-Security-Policy blocked, in
 * either format (`application/csp-report` of `report-uri`, `application/reports+json` of the
 * Reporting API). Each report becomes one log line of what was blocked and where, without
 * personal data: the page's path without its query, the blocked resource's origin only (a
 * blocked address may carry tokens or an e-mail address), the directive, file and line.
 * Reports are small and limited per client and in all, with room kept for every client's first
 * reports, so a flood costs little and leaves others' reports logged.
 */
import type { FastifyInstance } from 'fastify'
import { CSP_REPORT_PATH } from '../shared/http-headers'
import { type ClientGroup, clientGroups, withinShares } from './client-address'

/** A report is a few hundred bytes; a batch of the Reporting API a few of them. */
export const CSP_REPORT_BODY_LIMIT = 16 * 1024

export interface CspReportOptions {
  /**
   * Reports taken per client (an IPv4 address, an IPv6 /64; a /56 twice as many, a /48 four
   * times) and minute (default 20).
   */
  perClient?: number
  /** Reports taken per minute from everyone (default 600). */
  total?: number
  /**
   * A client's first reports of the minute that may use all of `total` (default 2); its further
   * ones only the first half of it.
   */
  share?: number
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
 * message), a report's line stays under a kilobyte, as docs/security.md promises.
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

/**
 * The reports taken in a minute (a fixed window, forgotten when it is over): `perClient` from
 * each client, `total` from everyone. A client's first `share` reports of the minute may use
 * all of `total`, its further ones only its first half: clients sending all they may fill that
 * half and no more, and the other half is left to everyone's first reports (it takes
 * `total / 2 / share` clients to fill it; `total / perClient` did before). An IPv6 client
 * counts in its /64, /56 and /48 (`clientGroups`), each group held to its multiple of
 * `perClient` and of `share`: the /64s of one /56 are not that many clients.
 */
function reportBudget(
  limits: { perClient: number; total: number; share: number },
  now: () => number,
) {
  let windowStart = now()
  let taken = 0
  const sent = new Map<string, number>()
  const window = () => {
    if (now() - windowStart < 60_000) return
    sent.clear()
    taken = 0
    windowStart = now()
  }
  const own = (key: string) => sent.get(key) ?? 0
  const countOne = (groups: readonly ClientGroup[]) => {
    for (const group of groups) sent.set(group.key, own(group.key) + 1)
  }
  return {
    /**
     * How many of `count` reports from a client of `groups` may be logged; the client's
     * count grows by each one it sent, taken or not (so one refused stays refused for the
     * minute).
     */
    take(groups: readonly ClientGroup[], count: number): number {
      window()
      let takes = 0
      for (let report = 0; report < count; report++) {
        if (!withinShares(groups, limits.perClient, own)) break
        const first = withinShares(groups, limits.share, own)
        countOne(groups)
        const room = first ? limits.total : Math.floor(limits.total / 2)
        if (taken < room) {
          taken++
          takes++
        }
      }
      return takes
    },
    /** A request with no report: one of the client's, none of the total's; false past its limit. */
    count(groups: readonly ClientGroup[]): boolean {
      window()
      if (!withinShares(groups, limits.perClient, own)) return false
      countOne(groups)
      return true
    },
  }
}

export async function cspReportRoute(app: FastifyInstance, options: CspReportOptions = {}) {
  const budget = reportBudget(
    {
      perClient: options.perClient ?? 20,
      total: options.total ?? 600,
      share: options.share ?? 2,
    },
    options.now ?? Date.now,
  )
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
    const reports = readCspReports(request.body)
    // What is no report counts as one of the client's (a client past its limit is told so
    // whatever it sends), and takes nothing of the total.
    const client = clientGroups(request.ip)
    if (reports.length === 0) return reply.code(budget.count(client) ? 400 : 429).send()
    const taken = budget.take(client, reports.length)
    if (taken === 0) return reply.code(429).send()
    for (const report of reports.slice(0, taken)) {
      request.log.warn({ csp: report }, 'content security policy violation')
    }
    return reply.code(204).send()
  })
}
