/**
 * `npm run serve:api`: the forms service alone, without the static site (another server or a
 * CDN serves it): nothing is built, `/api/` answers as under `npm start`, `/healthz` and
 * `/readyz` report on the process and the database, and every other path answers 404. The
 * same settings as `npm start` (`DATABASE_URL`, `SMTP_URL`, `PORT`, `HOST`, …).
 */

import { ContentValidationError } from '../content/errors'
import { DataFolderError } from '../database/folder'
import { readBuildConfig } from '../engine/config'
import { serve } from '../server/serve'

const config = readBuildConfig()
serve({ root: config.root, contentDir: config.contentDir, siteUrl: config.siteUrl }).catch(
  (error: unknown) => {
    console.error(
      error instanceof ContentValidationError || error instanceof DataFolderError
        ? error.message
        : error,
    )
    process.exit(1)
  },
)
