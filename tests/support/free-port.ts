/**
 * A port for a server that must be told its port before it starts (nginx, a child process, a
 * service an identity provider must know the address of). A fixed one fails a second run
 * beside the first (`--repeat-each`, two workers) with EADDRINUSE.
 */
import { createServer } from 'node:net'

/** A port of 127.0.0.1 that nothing listens on now, from the kernel. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer()
    server.once('error', fail)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => done(typeof address === 'object' && address ? address.port : 0))
    })
  })
}
