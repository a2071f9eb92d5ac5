/**
 * A TCP proxy between the forms service and PostgreSQL, so a test can make the database
 * unreachable and bring it back: `cut` stops listening and drops every connection (clients
 * then get "connection refused", as with a stopped server), `restore` listens again on the
 * same port.
 */
import { connect, createServer, type Server, type Socket } from 'node:net'

export interface TcpProxy {
  port: number
  cut(): Promise<void>
  restore(): Promise<void>
  close(): Promise<void>
}

export async function startProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>()
  let port = 0
  let server: Server | undefined
  const listen = async () => {
    const created = createServer((client) => {
      const upstream = connect(target.port, target.host)
      for (const socket of [client, upstream]) {
        sockets.add(socket)
        socket.on('close', () => sockets.delete(socket))
        socket.on('error', () => {
          client.destroy()
          upstream.destroy()
        })
      }
      client.pipe(upstream).pipe(client)
    })
    await new Promise<void>((done, fail) => {
      created.once('error', fail)
      created.listen(port, '127.0.0.1', () => {
        created.off('error', fail)
        done()
      })
    })
    const address = created.address()
    port = typeof address === 'object' && address ? address.port : 0
    server = created
  }
  const cut = async () => {
    const closing = server
    server = undefined
    for (const socket of sockets) socket.destroy()
    if (closing) await new Promise<void>((done) => closing.close(() => done()))
  }
  await listen()
  return {
    get port() {
      return port
    },
    cut,
    restore: listen,
    close: cut,
  }
}
