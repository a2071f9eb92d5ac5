/**
 * `npm run nginx-config -- [--root DIR] [--listen PORT] [--api HOST:PORT] [--server-name NAME]
 * [--no-brotli] [--out FILE]`: the nginx server block for the built site, with the headers it
 * was built for: the editors' current release (`RELEASES_DIR/current`) when there is one, else
 * `dist/` (`OUT_DIR`). Without `--out` it goes to standard output.
 */
import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { readBuildConfig } from '../engine/config'
import {
  DEFAULT_FORMS_SERVICE,
  nginxConfig,
  trustProxyNote,
} from '../engine/site-files/nginx-block'
import { readSitePolicy } from '../http/static-files'
import { releasesDirOf } from '../publishing/settings'
import { CURRENT } from '../shared/release-layout'
import { runProgram } from '../shared/settings-error'

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      root: { type: 'string' },
      listen: { type: 'string' },
      api: { type: 'string' },
      'server-name': { type: 'string' },
      'no-brotli': { type: 'boolean' },
      out: { type: 'string' },
    },
  })
  // The editors' current release when there is one (nginx follows the link on every request,
  // so a switch takes effect at once), else the checkout's build.
  const config = readBuildConfig()
  const current = join(releasesDirOf(config.root), CURRENT)
  const root = resolve(values.root ?? (existsSync(current) ? current : config.outDir))
  const policy = await readSitePolicy(root, { required: true })
  const text = nginxConfig(policy, {
    root,
    ...(values.listen ? { listen: values.listen } : {}),
    ...(values.api ? { api: values.api } : {}),
    ...(values['server-name'] ? { serverName: values['server-name'] } : {}),
    brotli: !values['no-brotli'],
  })
  if (values.out) await writeFile(values.out, text)
  else process.stdout.write(text)
  // Said where a person reads it, not only in the file (the block carries it as a comment).
  console.error(trustProxyNote(values.api ?? DEFAULT_FORMS_SERVICE).replace('\n', ' '))
}

// Its own refusals (no site built there, an option it does not take) are said in a line.
runProgram(main, (error) => (error instanceof Error ? error.message : undefined))
