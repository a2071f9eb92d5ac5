/**
 * `npm run serve:cms`: the publishing service alone, on http://localhost:8081 (`CMS_PORT`,
 * `CMS_HOST`), until SIGINT or SIGTERM.
 */
import { startPublishing } from '../publishing/start'

async function main(): Promise<void> {
  const started = await startPublishing()
  const shutdown = (signal: string) => {
    started.app.log.info({ signal }, 'shutting down')
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
