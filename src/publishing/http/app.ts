/**
 * The publishing service over HTTP, on a port of its own bound to localhost by default (never
 * the public site's): sign-in (passkeys or the bank's identity provider), the editor (Decap with
 * the service's backend) and its protocol, the pages beside it, and drafts previewed as sites.
 *
 * What it promises an attacker: sessions live on the server, in an `HttpOnly; Secure;
 * SameSite=Strict` cookie of the `__Host-` kind; every request that is not a read must come
 * from the service's own origin (`Origin`, and `Sec-Fetch-Site` where sent), so no other site
 * can write through a visitor's session; no GET or HEAD changes anything; sign-in is limited per
 * address; bodies are limited and JSON only; every answer carries the service's policy headers;
 * nothing a person types reaches the log.
 *
 * Each concern is a file of this folder that adds its hooks and routes to the app, in this
 * order: the policy first (its hooks hold for every route), then the routes, the previews last
 * (they answer whatever no route took).
 */

import rateLimit from '@fastify/rate-limit'
import Fastify, { type FastifyInstance } from 'fastify'
import { healthRoutes } from '../../http/health'
import { loggerOptions } from '../../http/logger'
import { metricsRoute, recordRequests, type ServiceMetrics } from '../../http/metrics'
import { MAIN } from '../publication/main-moves'
import type { PublishingService } from '../service'
import { registerAssets } from './assets'
import { registerChangesRoutes } from './changes-routes'
import { registerEditor } from './editor'
import { registerInvitations } from './invitations'
import { registerMe } from './me'
import { registerOwnSignIn } from './own-sign-in'
import { registerPeopleRoutes } from './people-routes'
import { clientRefusal, frameworkRefusal, registerPolicy } from './policy'
import { registerPreviews } from './previews'
import { type HttpContext, sessionReader } from './requests'
import { registerSignIn } from './sign-in'

export { PREVIEW_COOKIE } from './previews'
export { SESSION_COOKIE } from './requests'

const BODY_LIMIT = 64 * 1024
/** Sign-in attempts per address and minute. */
const SIGN_IN_LIMIT = 10

export interface PublishingAppOptions {
  logLevel?: string
  logStream?: { write(line: string): void }
  trustProxy?: boolean | string
  /** Sign-in attempts per address and minute (tests raise it; 0 turns it off). */
  signInLimit?: number
  /**
   * Bundle the editor's code and the service's scripts at start rather than when they are
   * first asked for.
   */
  bundleEditor?: boolean
  /**
   * The operators' metrics: every answer counted (a preview's pages and files, which no route
   * takes, as `unmatched`); with `token`, `GET /metrics` answered here to its bearer.
   */
  metrics?: { metrics: ServiceMetrics; token?: string }
}

export async function createPublishingApp(
  service: PublishingService,
  options: PublishingAppOptions = {},
): Promise<FastifyInstance> {
  const origin = new URL(service.settings.url).origin
  const context: HttpContext = {
    service,
    origin,
    https: origin.startsWith('https:'),
    signedIn: sessionReader(service),
  }
  const app = Fastify({
    // Refusals made before a route is found (a malformed or over-long address) and those of the
    // HTTP parser (over-long headers, a broken request) carry the policy headers too.
    frameworkErrors: frameworkRefusal(context),
    clientErrorHandler: clientRefusal(context.https),
    logger: loggerOptions({ level: options.logLevel, stream: options.logStream }),
    bodyLimit: BODY_LIMIT,
    trustProxy: options.trustProxy ?? false,
    return503OnClosing: true,
  })

  // First: no answer escapes the count, a refusal of the policy's included.
  if (options.metrics) recordRequests(app, options.metrics.metrics)
  registerPolicy(app, context)
  await app.register(rateLimit, { global: false })
  const signInLimit = options.signInLimit ?? SIGN_IN_LIMIT
  const limited =
    signInLimit > 0 ? { config: { rateLimit: { max: signInLimit, timeWindow: 60_000 } } } : {}

  registerAssets(app, context, options.bundleEditor)
  registerSignIn(app, context, limited)
  registerInvitations(app, context, limited)
  registerMe(app, context)
  registerOwnSignIn(app, context)
  registerEditor(app, context, options.bundleEditor)
  registerPeopleRoutes(app, context)
  registerChangesRoutes(app, context)
  // Anyone but the token's bearer gets the not-found handler's answer (previews.ts).
  if (options.metrics?.token) {
    metricsRoute(app, options.metrics.metrics.registry, options.metrics.token)
  }
  // For load balancers and Prometheus: the database answers, the repository has its main, and
  // the notices go out.
  await app.register(healthRoutes, {
    checks: [
      { name: 'database', check: () => service.database.query('SELECT 1') },
      {
        name: 'repository',
        check: async () => {
          if (!(await service.repo.resolve(MAIN))) throw new Error('main is not readable')
        },
      },
      // Notices wait and none could be sent for MAIL_OUTAGE_MINUTES (the mail server is down).
      { name: 'mail', check: () => service.notices.ready() },
    ],
    ...(options.metrics ? { registry: options.metrics.metrics.registry } : {}),
  })
  registerPreviews(app, context)
  return app
}
