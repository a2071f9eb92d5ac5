/**
 * `GET /healthz` and `GET /readyz`, for load balancers and orchestrators: `/healthz` answers
 * 200 while the process runs; `/readyz` 200 when the database answers `SELECT 1` within a
 * second, else 503 (and 503 while the server shuts down). Both are JSON, never cached, not
 * rate-limited and not logged per request.
 */
import type { FastifyInstance } from 'fastify'

export interface HealthOptions {
  /** Resolves when the service can do its work; rejects or hangs when it cannot. */
  check(): Promise<unknown>
  /** How long `check` may take (default 1 s). */
  timeoutMs?: number
}

export async function healthRoutes(app: FastifyInstance, options: HealthOptions) {
  const timeoutMs = options.timeoutMs ?? 1000
  app.get('/healthz', async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok' }),
  )
  app.get('/readyz', async (_request, reply) => {
    let timer: NodeJS.Timeout | undefined
    const ready = await Promise.race([
      options.check().then(
        () => true,
        () => false,
      ),
      new Promise<false>((done) => {
        timer = setTimeout(() => done(false), timeoutMs)
      }),
    ])
    clearTimeout(timer)
    return reply
      .code(ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ status: ready ? 'ready' : 'unavailable' })
  })
}
