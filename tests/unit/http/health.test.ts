/**
 * `/readyz` names what keeps the service from its work, and the operators' metrics say the
 * same (`service_ready{check}`): here, the mail server down for longer than
 * `MAIL_OUTAGE_MINUTES` while a mail waits, and back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { healthRoutes } from '../../../src/http/health'
import { createMetrics } from '../../../src/http/metrics'
import { databases, signUp, startService, type TestService, until } from '../../support/forms'

describe.each(databases())('readiness on $name', (database) => {
  let service: TestService
  const metrics = createMetrics('site')
  beforeAll(async () => {
    service = await startService(database, {
      // 60 ms: the outage is long enough within the test.
      mailOutageMinutes: 0.001,
      sender: { pollMs: 20, retryBaseMs: 50, retryMaxMs: 100 },
    })
    await service.app.register(healthRoutes, {
      checks: [
        { name: 'database', check: () => service.query('SELECT 1') },
        { name: 'mail', check: () => service.mailReady() },
      ],
      registry: metrics.registry,
    })
  }, 30_000)
  afterAll(async () => {
    await service?.close()
  })

  const ready = async () => {
    const answer = await service.app.inject({ url: '/readyz' })
    return { status: answer.statusCode, body: answer.json() as unknown }
  }
  const gauge = async () =>
    (await metrics.registry.metrics())
      .split('\n')
      .filter((line) => line.startsWith('service_ready{'))
      .sort()

  it('names the mail while none can be sent and one waits, and is ready again once it went out', async () => {
    expect(await ready()).toEqual({ status: 200, body: { status: 'ready' } })
    await service.inbox.stop()
    const sent = await service.app.inject({
      method: 'POST',
      url: '/api/forms/newsletter',
      payload: signUp('waiting.person@example.com'),
    })
    expect(sent.statusCode).toBe(200)
    await until(async () => (await ready()).status === 503)
    expect(await ready()).toEqual({
      status: 503,
      body: { status: 'unavailable', failing: ['mail'] },
    })
    expect(await gauge()).toEqual([
      'service_ready{check="database",service="site"} 1',
      'service_ready{check="mail",service="site"} 0',
    ])
    // The process itself is well.
    expect((await service.app.inject({ url: '/healthz' })).statusCode).toBe(200)

    await service.inbox.start()
    await service.inbox.waitFor(1)
    await until(async () => (await ready()).status === 200)
    expect(await gauge()).toEqual([
      'service_ready{check="database",service="site"} 1',
      'service_ready{check="mail",service="site"} 1',
    ])
  })
})
