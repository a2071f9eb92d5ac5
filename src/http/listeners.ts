/**
 * Where the services listen, as settings (`PORT` and `HOST`, `CMS_PORT` and `CMS_HOST`, the
 * metrics' `METRICS_PORT`, `CMS_METRICS_PORT` and their hosts): a port that is taken or may not
 * be bound, or a host that is not this machine's, is said as the setting's fault in one line,
 * before anything starts (`checkListeners`) and, should another process take the port
 * meanwhile, when the service listens (`listenFailure`).
 */
import { createServer, type Server } from 'node:net'
import { SettingError } from '../shared/settings-error'

export interface ListenerSetting {
  port: number
  /** The host, or `''` for every address (Node's default). */
  host: string
  /** The variables that set them (`PORT`, `HOST`). */
  portSetting: string
  hostSetting: string
}

/** What a failed `listen` on `listener` means, as its setting's error (or the error itself). */
export function listenFailure(error: unknown, listener: ListenerSetting): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  const { port, portSetting, hostSetting } = listener
  const host = listener.host || 'every address'
  switch (code) {
    case 'EADDRINUSE':
      return new SettingError(
        portSetting,
        `${port} is already in use on ${host}`,
        `stop what holds it or set ${portSetting} to a free port`,
      )
    case 'EACCES':
    case 'EPERM':
      return new SettingError(
        portSetting,
        `${port} may not be bound on ${host} by this user (${code})`,
        `set ${portSetting} to a port from 1024 up, or give the process the right to bind it (CAP_NET_BIND_SERVICE)`,
      )
    case 'EADDRNOTAVAIL':
      return new SettingError(
        hostSetting,
        `${host} is not an address of this machine (${code})`,
        `set ${hostSetting} to one of its addresses, to 0.0.0.0 for all of them, or to localhost`,
      )
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
    case 'EAI_NONAME':
      return new SettingError(
        hostSetting,
        `${host} is not a host name this machine can resolve (${code})`,
        `set ${hostSetting} to an address of this machine, to 0.0.0.0 for all of them, or to localhost`,
      )
    default:
      return error
  }
}

const listen = (server: Server, listener: ListenerSetting) =>
  new Promise<void>((done, fail) => {
    server.once('error', fail)
    server.listen(
      { port: listener.port, ...(listener.host ? { host: listener.host } : {}), exclusive: true },
      () => done(),
    )
  })

/**
 * Binds every listener and lets them go again, all held until the last is bound: a port taken
 * (by another process, or by two of these settings), one this user may not bind, or a host
 * that is not this machine's throws its setting's error before the caller starts anything.
 */
export async function checkListeners(listeners: readonly ListenerSetting[]): Promise<void> {
  const servers: Server[] = []
  try {
    const bound: ListenerSetting[] = []
    for (const listener of listeners) {
      // Port 0 takes any free one: bound all the same, for its host.
      const same = listener.port !== 0 && bound.find((other) => other.port === listener.port)
      if (same && (same.host === listener.host || [same.host, listener.host].includes('0.0.0.0'))) {
        throw new SettingError(
          listener.portSetting,
          `${listener.port} is ${same.portSetting} too`,
          `set ${listener.portSetting} to another port`,
        )
      }
      const server = createServer()
      servers.push(server)
      try {
        await listen(server, listener)
      } catch (error) {
        throw listenFailure(error, listener)
      }
      bound.push(listener)
    }
  } finally {
    await Promise.all(servers.map((server) => new Promise((done) => server.close(done))))
  }
}
