/**
 * Ports for servers that must be told theirs before they start (nginx, a child process, a
 * service an identity provider must know the address of). A fixed one fails a second run
 * beside the first (`--repeat-each`, two workers) with EADDRINUSE.
 */
import { createServer, type Server } from 'node:net'

/** A port of 127.0.0.1 that nothing listens on now, from the kernel. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1)
  return port ?? 0
}

/** `count` such ports, all different: each is held until all are found. */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = []
  try {
    const ports: number[] = []
    for (let index = 0; index < count; index++) {
      const server = createServer()
      servers.push(server)
      await new Promise<void>((done, fail) => {
        server.once('error', fail)
        server.listen(0, '127.0.0.1', done)
      })
      const address = server.address()
      ports.push(typeof address === 'object' && address ? address.port : 0)
    }
    return ports
  } finally {
    await Promise.all(servers.map((server) => new Promise((done) => server.close(done))))
  }
}
