/**
 * The static half of `npm start` as its own process, for the serving benchmark: the built site
 * in `argv[2]`, on `PORT`, printed as `LISTENING <port>` once it answers. With `METRICS_TOKEN`,
 * the operators' metrics are on (every answer counted), as `npm start` has them.
 */

import { createMetrics } from '../src/http/metrics'
import { createApp } from '../src/server/app'

const root = process.argv[2]
if (!root) throw new Error('usage: static-server.ts <dist>')
const token = process.env.METRICS_TOKEN
const app = await createApp({
  root,
  logLevel: 'silent',
  ...(token ? { metrics: { metrics: createMetrics('site'), token } } : {}),
})
const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' })
console.log(`LISTENING ${new URL(address).port}`)
process.once('SIGTERM', () => app.close().then(() => process.exit(0)))
