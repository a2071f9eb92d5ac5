/**
 * `GET /healthz` and `GET /readyz`, for load balancers and orchestrators: `/healthz` answers
 * 200 while the process runs; `/readyz` 200 when every part the service needs can do its work
 * (each check within a second), else 503 naming the parts that cannot (`database`, `mail`,
 * `disk`, `repository`, `connections`: names only, nothing of how they failed), and 503 while
 * the server shuts down. Both are JSON, never cached, not rate-limited and not logged per
 * request.
 *
 * With the operators' metrics on, the same checks are the gauge `service_ready{check}` (1 or
 * 0), run at each scrape.
 */
import type { FastifyInstance } from 'fastify'
import { Gauge, type Registry } from 'prom-client'

export interface ReadinessCheck {
  /** The part it checks, as `/readyz` names it. */
  name: string
  /** Resolves when the part can do its work; rejects or hangs when it cannot. */
  check(): Promise<unknown>
}

export interface HealthOptions {
  checks: readonly ReadinessCheck[]
  /** How long a check may take (default 1 s). */
  timeoutMs?: number
  /** The operators' metrics: the checks as `service_ready{check}`. */
  registry?: Registry
}

/** The names of the checks that fail (or take longer than `timeoutMs`), in their order. */
export async function failingChecks(
  checks: readonly ReadinessCheck[],
  timeoutMs = 1000,
): Promise<string[]> {
  const results = await Promise.all(
    checks.map(async ({ name, check }) => {
      let timer: NodeJS.Timeout | undefined
      const passed = await Promise.race([
        check().then(
          () => true,
          () => false,
        ),
        new Promise<false>((done) => {
          timer = setTimeout(() => done(false), timeoutMs)
        }),
      ])
      clearTimeout(timer)
      return passed ? undefined : name
    }),
  )
  return results.filter((name): name is string => name !== undefined)
}

export async function healthRoutes(app: FastifyInstance, options: HealthOptions) {
  const timeoutMs = options.timeoutMs ?? 1000
  if (options.registry) {
    const checks = options.checks
    new Gauge({
      name: 'service_ready',
      help: 'Whether a part the service needs can do its work (1) or not (0), as /readyz says.',
      labelNames: ['check'],
      registers: [options.registry],
      async collect() {
        const failing = new Set(await failingChecks(checks, timeoutMs))
        for (const { name } of checks) this.set({ check: name }, failing.has(name) ? 0 : 1)
      },
    })
  }
  app.get('/healthz', async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok' }),
  )
  app.get('/readyz', async (_request, reply) => {
    const failing = await failingChecks(options.checks, timeoutMs)
    return reply
      .code(failing.length === 0 ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(failing.length === 0 ? { status: 'ready' } : { status: 'unavailable', failing })
  })
}
