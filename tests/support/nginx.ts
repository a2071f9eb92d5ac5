/**
 * Debian's nginx serving a built site with the server block `npm run nginx-config` writes,
 * for the tests that check it answers as `npm start` does. nginx runs in the foreground with
 * its own prefix (configuration, logs, temporary files) in a scratch folder.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { nginxConfig } from '../../src/engine/site-files/nginx-block'
import { readSitePolicy } from '../../src/http/static-files'
import { removeFolder } from './temporary-folder'

export const NGINX_BINARY = process.env.NGINX_PATH ?? '/usr/sbin/nginx'
/** Debian's Brotli modules: twins (`brotli_static`) and compression per request (`brotli`). */
const BROTLI_MODULES = ['static', 'filter'].map(
  (kind) => `/usr/lib/nginx/modules/ngx_http_brotli_${kind}_module.so`,
)

/** nginx is installed (CI installs Debian's, with its Brotli module). */
export const nginxInstalled = () => existsSync(NGINX_BINARY)

export interface NginxServer {
  origin: string
  /** Its error log, for a failing test's message. */
  errors(): Promise<string>
  stop(): Promise<void>
}

export async function startNginx(options: {
  root: string
  port: number
  /** The forms service behind `/api/`: `host:port`. */
  api: string
  scratch: string
  /** A change to the generated block, for a test that must not wait nginx's minutes. */
  edit?: (block: string) => string
  /** A server block written elsewhere (another commit's `npm run nginx-config`), used as is. */
  block?: string
}): Promise<NginxServer> {
  const prefix = resolve(options.scratch)
  await removeFolder(prefix)
  await mkdir(join(prefix, 'logs'), { recursive: true })
  const brotli = BROTLI_MODULES.every((module) => existsSync(module))
  const site =
    options.block ??
    nginxConfig(await readSitePolicy(options.root, { required: true }), {
      root: resolve(options.root),
      listen: `127.0.0.1:${options.port}`,
      api: options.api,
      brotli,
    })
  await writeFile(join(prefix, 'site.conf'), options.edit ? options.edit(site) : site)
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((name) => `  ${name}_temp_path ${join(prefix, name)};`)
    .join('\n')
  await writeFile(
    join(prefix, 'nginx.conf'),
    `${brotli ? BROTLI_MODULES.map((module) => `load_module ${module};\n`).join('') : ''}${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
error_log ${join(prefix, 'logs', 'error.log')} warn;
pid ${join(prefix, 'nginx.pid')};
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
${temp}
  include ${join(prefix, 'site.conf')};
}
`,
  )
  const config = join(prefix, 'nginx.conf')
  const test = spawnSync(NGINX_BINARY, ['-t', '-p', prefix, '-c', config], { encoding: 'utf8' })
  if (test.status !== 0) throw new Error(`nginx refused the configuration:\n${test.stderr}`)
  const child: ChildProcess = spawn(
    NGINX_BINARY,
    ['-p', prefix, '-c', config, '-g', 'daemon off;'],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  )
  const origin = `http://127.0.0.1:${options.port}`
  for (let waited = 0; ; waited += 50) {
    try {
      await fetch(`${origin}/`)
      break
    } catch (error) {
      if (child.exitCode !== null || waited > 10_000) {
        throw new Error(`nginx did not start: ${String(error)}`)
      }
      await new Promise((done) => setTimeout(done, 50))
    }
  }
  return {
    origin,
    errors: () => readFile(join(prefix, 'logs', 'error.log'), 'utf8').catch(() => ''),
    async stop() {
      if (child.exitCode !== null) return
      const exited = new Promise((done) => child.once('exit', done))
      child.kill('SIGQUIT')
      await exited
    },
  }
}
