/**
 * The operators' metrics of the site's server and the forms service: off unless set, never on
 * the public port without the token, and labels that carry no visitor's data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createMetrics,
  listenForMetrics,
  readMetricsSettings,
  type ServiceMetrics,
} from '../../../src/http/metrics'
import { databases, SITE_URL, signUp, startService, type TestService } from '../../support/forms'
import { expectBoundedLabels, samples } from '../../support/metrics'

const TOKEN = 'a-secret-token-of-more-than-thirty-two-characters'

describe('metrics settings', () => {
  it('are off unless a port or a token is set, and refuse wrong values by name', () => {
    expect(readMetricsSettings({})).toBeUndefined()
    expect(readMetricsSettings({ METRICS_PORT: '9464' })).toEqual({
      port: 9464,
      host: '127.0.0.1',
    })
    expect(readMetricsSettings({ METRICS_TOKEN: TOKEN, METRICS_HOST: '::1' })).toEqual({
      host: '::1',
      token: TOKEN,
    })
    expect(() => readMetricsSettings({ METRICS_PORT: 'ninety' })).toThrow(/METRICS_PORT/)
    expect(() => readMetricsSettings({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/)
    expect(() => readMetricsSettings({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/)
    // The publishing service reads its own, prefixed.
    expect(readMetricsSettings({ METRICS_PORT: '9464' }, 'CMS_')).toBeUndefined()
    expect(readMetricsSettings({ CMS_METRICS_PORT: '9465' }, 'CMS_')?.port).toBe(9465)
  })
})

describe.each(databases())('metrics of the site and the forms on $name', (database) => {
  let service: TestService
  let metrics: ServiceMetrics
  beforeAll(async () => {
    metrics = createMetrics('site')
    service = await startService(database, { metrics: { metrics, token: TOKEN } })
  }, 30_000)
  afterAll(async () => {
    await service?.close()
  })

  const scrape = async () => {
    const answer = await service.app.inject({
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    expect(answer.statusCode).toBe(200)
    expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
    return samples(answer.body)
  }

  it('answers /metrics to the token’s bearer only, and as any unknown address to anyone else', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${TOKEN}`, TOKEN]) {
      const answer = await service.app.inject({
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      })
      const unknown = await service.app.inject({ url: '/no-such-page' })
      expect(answer.statusCode).toBe(404)
      expect(answer.body).toBe(unknown.body)
      expect(answer.body).not.toContain('http_requests_total')
    }
    expect((await scrape()).some((sample) => sample.name === 'process_cpu_seconds_total')).toBe(
      true,
    )
  })

  it('counts answers by route template and form results by reason, with no visitor’s data in a label', async () => {
    const email = 'metrics.person@example.com'
    await service.app.inject({ url: '/en/about/?email=metrics.person%40example.com' })
    await service.app.inject({ url: `/api/subscriptions/confirm/${'x'.repeat(40)}` })
    const accepted = await service.app.inject({
      method: 'POST',
      url: '/api/forms/newsletter',
      payload: signUp(email),
    })
    expect(accepted.statusCode).toBe(200)
    const invalid = await service.app.inject({
      method: 'POST',
      url: '/api/forms/newsletter',
      payload: signUp('not an address'),
    })
    expect(invalid.statusCode).toBe(422)
    await service.app.inject({
      method: 'POST',
      url: `/api/forms/${encodeURIComponent(email)}`,
      payload: signUp(email),
    })
    await service.app.inject({
      method: 'POST',
      url: '/api/forms/newsletter',
      headers: { origin: 'https://elsewhere.example', 'sec-fetch-site': 'cross-site' },
      payload: signUp(email),
    })

    const all = await scrape()
    const value = (name: string, labels: Record<string, string>) =>
      all
        .filter(
          (sample) =>
            sample.name === name &&
            Object.entries(labels).every(([key, wanted]) => sample.labels[key] === wanted),
        )
        .reduce((sum, sample) => sum + sample.value, 0)
    expect(value('forms_submissions_total', { form: 'newsletter', result: 'accepted' })).toBe(1)
    expect(value('forms_submissions_total', { form: 'newsletter', result: 'invalid' })).toBe(1)
    expect(value('forms_submissions_total', { form: 'unknown', result: 'invalid' })).toBe(1)
    expect(value('forms_submissions_total', { form: 'newsletter', result: 'cross_site' })).toBe(1)
    expect(value('forms_mails_total', { event: 'queued' })).toBe(1)
    expect(
      value('http_requests_total', {
        method: 'POST',
        route: '/api/forms/:form',
        status: '200',
      }),
    ).toBe(1)
    expect(value('http_requests_total', { method: 'GET', route: 'site:page' })).toBeGreaterThan(0)
    // The latency histogram counts the same answers, its buckets adding up to the count.
    const sent = { method: 'POST', route: '/api/forms/:form', status: '200' }
    const buckets = all.filter(
      (sample) =>
        sample.name === 'http_request_duration_seconds_bucket' &&
        Object.entries(sent).every(([key, wanted]) => sample.labels[key] === wanted),
    )
    expect(buckets.map((bucket) => bucket.labels.le).at(-1)).toBe('+Inf')
    for (const [index, bucket] of buckets.entries()) {
      expect(bucket.value).toBeGreaterThanOrEqual(buckets[index - 1]?.value ?? 0)
    }
    expect(buckets.at(-1)?.value).toBe(1)
    expect(value('http_request_duration_seconds_count', sent)).toBe(1)
    expect(value('http_request_duration_seconds_sum', sent)).toBeGreaterThan(0)
    expect(all.some((sample) => sample.name === 'forms_mail_queue_depth')).toBe(true)
    expect(all.some((sample) => sample.name === 'forms_mail_budget_remaining')).toBe(true)

    // Every label is one of a fixed set of names, and no value is an address, a path sent by
    // a visitor or anything unbounded.
    expectBoundedLabels(all, {
      service: 'site',
      own: ['form', 'result', 'event'],
      forbidden: /@|%40|example\.com|about|x{10}/,
    })
    expect(SITE_URL).not.toBe('')
  })
})

describe('the metrics listener', () => {
  it('answers GET /metrics on its own port and nothing else', async () => {
    const metrics = createMetrics('publishing')
    const server = await listenForMetrics(metrics.registry, { port: 0, host: '127.0.0.1' })
    try {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      const base = `http://127.0.0.1:${port}`
      const answer = await fetch(`${base}/metrics`)
      expect(answer.status).toBe(200)
      expect(await answer.text()).toContain('service="publishing"')
      expect((await fetch(`${base}/`)).status).toBe(404)
      expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(404)
    } finally {
      await new Promise<void>((done) => server.close(() => done()))
    }
  })
})
