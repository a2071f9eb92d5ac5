/**
 * Runs short commands (git's plumbing) from a small helper process instead of this one.
 *
 * Node.js starts a process by forking itself first, and a fork costs in proportion to the
 * memory the forking process has mapped: about 4 ms from a bare Node.js, 20 ms from the
 * publishing service with its embedded database open (700 MB), 110 ms from 2 GB, most of it
 * system time. The service runs dozens of git commands for every save and publication; the
 * helper, a bare Node.js started once, forks them at the small price and hands back what they
 * wrote. Its messages carry the bytes as they are (structured clone, no text encoding).
 *
 * The helper does not keep this process running: it is let go whenever nothing is waiting on
 * it, and it ends itself when this process ends (its channel closes), however that happens.
 * Should it stop, the commands waiting on it fail like a command killed, and the next command
 * starts a new helper.
 */
import { type ChildProcess, spawn } from 'node:child_process'

/** What a command did: its exit code (or the signal that ended it) and its two outputs. */
export interface Finished {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: Buffer
  stderr: Buffer
}

export interface CommandOptions {
  /** The command's whole environment; its PATH finds the command. */
  env: NodeJS.ProcessEnv
  /** What the command reads on its standard input (nothing when left out). */
  input?: Buffer | string
}

interface Request {
  id: number
  command: string
  args: string[]
  env: NodeJS.ProcessEnv
  input: Uint8Array
}

type Answer =
  | {
      id: number
      code: number | null
      signal: NodeJS.Signals | null
      stdout: Uint8Array
      stderr: Uint8Array
    }
  | { id: number; error: string; errorCode?: string }

/** The helper's program: plain JavaScript for `node -e`, so it runs wherever this code does. */
const HELPER = `
const { spawn } = require('node:child_process')
process.on('disconnect', () => process.exit(0))
process.on('message', ({ id, command, args, env, input }) => {
  let answered = false
  const answer = (message) => {
    if (answered) return
    answered = true
    if (process.connected) process.send({ id, ...message }, () => {})
  }
  let child
  try {
    child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] })
  } catch (error) {
    answer({ error: String(error && error.message), errorCode: error && error.code })
    return
  }
  const out = []
  const err = []
  child.stdout.on('data', (chunk) => out.push(chunk))
  child.stderr.on('data', (chunk) => err.push(chunk))
  child.on('error', (error) => answer({ error: error.message, errorCode: error.code }))
  child.on('close', (code, signal) =>
    answer({ code, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err) }))
  child.stdin.on('error', () => {})
  child.stdin.end(Buffer.from(input))
})
`

interface Waiting {
  resolve(finished: Finished): void
  reject(error: Error): void
}

interface Helper {
  child: ChildProcess
  waiting: Map<number, Waiting>
}

let helper: Helper | undefined
let lastId = 0

const toBuffer = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)

/** Holds this process open while a command is under way, and lets it go when none is. */
function hold(current: Helper): void {
  const channel = current.child.channel
  if (!channel) return
  if (current.waiting.size > 0) channel.ref()
  else channel.unref()
}

function startHelper(): Helper {
  // Its own environment holds no options for Node.js (a loader, a debugger): it runs bare.
  const { NODE_OPTIONS: _options, ...env } = process.env
  const child = spawn(process.execPath, ['-e', HELPER], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    serialization: 'advanced',
    env,
  })
  const current: Helper = { child, waiting: new Map() }
  const stop = (reason: string) => {
    if (helper === current) helper = undefined
    const error = new Error(`the command did not finish: ${reason}`)
    for (const waiting of current.waiting.values()) waiting.reject(error)
    current.waiting.clear()
  }
  child.on('message', (answer: Answer) => {
    const waiting = current.waiting.get(answer.id)
    if (!waiting) return
    current.waiting.delete(answer.id)
    hold(current)
    if ('error' in answer) {
      const error = new Error(answer.error) as Error & { code?: string }
      error.code = answer.errorCode
      waiting.reject(error)
    } else {
      waiting.resolve({
        code: answer.code,
        signal: answer.signal,
        stdout: toBuffer(answer.stdout),
        stderr: toBuffer(answer.stderr),
      })
    }
  })
  child.on('error', (error) => stop(`the helper process failed (${error.message})`))
  child.on('exit', (code, signal) => stop(`the helper process ended (${signal ?? code})`))
  child.unref()
  hold(current)
  return current
}

/** Runs `command` with `args` through the helper; resolves when it has ended, whatever its code. */
export function runCommand(
  command: string,
  args: string[],
  options: CommandOptions,
): Promise<Finished> {
  if (!helper) helper = startHelper()
  const current = helper
  const id = ++lastId
  const input = options.input ?? ''
  const request: Request = {
    id,
    command,
    args,
    env: options.env,
    input: typeof input === 'string' ? Buffer.from(input, 'utf8') : input,
  }
  return new Promise<Finished>((resolve, reject) => {
    current.waiting.set(id, { resolve, reject })
    hold(current)
    current.child.send(request, (error) => {
      if (!error || !current.waiting.has(id)) return
      current.waiting.delete(id)
      hold(current)
      reject(new Error(`the command could not be handed to the helper process: ${error.message}`))
    })
  })
}

/** Ends the helper now (tests; a process that ends closes it by itself). */
export function stopHelper(): void {
  helper?.child.kill()
}
