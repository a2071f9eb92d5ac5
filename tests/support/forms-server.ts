/**
 * The forms service as its own process, for the restart test: `serve()` (what `npm start`
 * runs) on the test fixture's forms, configured by the environment (PORT=0 picks a port,
 * printed as `LISTENING <port>`).
 */
import { serve } from '../../src/server/serve'
import { FIXTURE_CONTENT, SITE_URL } from './forms'

const app = await serve({
  root: process.cwd(),
  outDir: process.env.OUT_DIR ?? process.cwd(),
  contentDir: FIXTURE_CONTENT,
  siteUrl: SITE_URL,
})
const address = app.server.address()
console.log(`LISTENING ${typeof address === 'object' && address ? address.port : 0}`)
