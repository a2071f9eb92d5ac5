/**
 * `npm run serve:api`: the forms service alone, without the static site (another server or a
 * CDN serves it): nothing is built, `/api/` answers as under `npm start`, `/healthz` and
 * `/readyz` report on the process and the database, an address the live site moved answers 301
 * to the page's (the editors' current release's `_redirects.json`, else `dist/`'s, read afresh
 * as releases switch: nginx asks here for an address it has no file for), and every other path
 * answers 404. The same settings as `npm start` (`DATABASE_URL`, `SMTP_URL`, `PORT`, `HOST`, …).
 */

import { contentProblems } from '../content/errors'
import { checkContentDir, readBuildConfig } from '../engine/config'
import { releasesDirOf } from '../publishing/settings'
import { serve } from '../server/serve'
import { runProgram } from '../shared/settings-error'

runProgram(async () => {
  const config = readBuildConfig()
  await checkContentDir(config)
  // Its settings are read and its ports checked before the forms service opens (serve()).
  await serve({
    root: config.root,
    outDir: config.outDir,
    releasesDir: releasesDirOf(config.root),
    movesOnly: true,
    contentDir: config.contentDir,
    siteUrl: config.siteUrl,
  })
}, contentProblems)
