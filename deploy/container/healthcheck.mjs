/**
 * The image's HEALTHCHECK: asks the role's own server for `/healthz` (the process answers; its
 * readiness, `/readyz`, is for the load balancer and Kubernetes' readiness probe). The role is
 * read from process 1's command line (`tini -g -- node /app/scripts/run.mjs <role>`): `start`
 * and `serve-api` listen on `PORT`, `serve-cms` on `CMS_PORT`; one-off roles (`build`, `cms`,
 * `forms`) have no server and count as healthy.
 */
import { readFileSync } from 'node:fs'

const args = readFileSync('/proc/1/cmdline', 'utf8').split('\0')
const role = args[args.findIndex((arg) => arg.endsWith('run.mjs')) + 1]
const port =
  { start: process.env.PORT || 8080, 'serve-api': process.env.PORT || 8080 }[role] ??
  (role === 'serve-cms' ? process.env.CMS_PORT || 8081 : undefined)
if (port === undefined) process.exit(0)

try {
  const answer = await fetch(`http://127.0.0.1:${port}/healthz`, {
    signal: AbortSignal.timeout(4000),
  })
  process.exit(answer.ok ? 0 : 1)
} catch {
  process.exit(1)
}
