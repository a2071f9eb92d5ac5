/**
 * `npm run serve:cms`: the publishing service alone, on http://localhost:8081 (`CMS_PORT`,
 * `CMS_HOST`), until SIGINT or SIGTERM; with `METRICS_PORT`, its metrics on a listener of their
 * own (under `npm start` the site's listener serves them).
 */
import type { Server } from 'node:http'
import { startPublishing } from '../publishing/start'
import { listenForMetrics, readMetricsSettings } from '../server/metrics'

async function main(): Promise<void> {
  const started = await startPublishing()
  const metricsSettings = readMetricsSettings()
  let listener: Server | undefined
  if (started.metrics && metricsSettings?.port) {
    listener = await listenForMetrics(started.metrics.registry, {
      port: metricsSettings.port,
      host: metricsSettings.host,
    }).catch(async (error: unknown) => {
      await started.close()
      throw error
    })
    started.app.log.info(
      { host: metricsSettings.host, port: metricsSettings.port },
      'metrics served for Prometheus',
    )
  }
  const shutdown = (signal: string) => {
    started.app.log.info({ signal }, 'shutting down')
    listener?.close()
    started.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.once('SIGINT', () => shutdown('SIGINT'))
  process.once('SIGTERM', () => shutdown('SIGTERM'))
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
