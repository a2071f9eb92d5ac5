/**
 * `npm run serve:cms`: the publishing service alone, on http://localhost:8081 (`CMS_PORT`,
 * `CMS_HOST`), until SIGINT or SIGTERM.
 */
import { startPublishing } from '../publishing/start'
import { runProgram } from '../shared/settings-error'

async function main(): Promise<void> {
  // Its settings, ports and folders are checked before anything opens (startPublishing). Alone,
  // it serves the site of main as its first release at its first start.
  const started = await startPublishing(process.env, console.log, undefined, {
    firstRelease: true,
  })
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

runProgram(main)
