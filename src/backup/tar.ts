/**
 * The backup's container: a tar archive (POSIX ustar, with pax extended headers for long or
 * non-ASCII names), written and read as a stream, so that `tar tf` and `tar xf` open it too.
 * Only what a backup holds: regular files, directories, symbolic links, and hard links to a
 * file earlier in the archive (the releases share their unchanged pages that way).
 */
import { createHash } from 'node:crypto'
import { once } from 'node:events'
import { createReadStream } from 'node:fs'
import type { Writable } from 'node:stream'

const BLOCK = 512
/** The largest size the header's octal field holds (8 GiB - 1); larger ones go in a pax header. */
const MAX_OCTAL_SIZE = 0o77777777777

export type TarEntry =
  | { type: 'file'; path: string; size: number; mode: number; mtime: number }
  | { type: 'directory'; path: string; mode: number; mtime: number }
  | { type: 'symlink'; path: string; target: string; mode: number; mtime: number }
  | { type: 'link'; path: string; target: string; mode: number; mtime: number }

/** The archive is not one this module wrote, or it is damaged: where, and what. */
export class TarError extends Error {}

const TYPE_FLAGS = { file: '0', link: '1', symlink: '2', directory: '5' } as const

function octal(value: number, width: number): string {
  return `${Math.floor(value)
    .toString(8)
    .padStart(width - 1, '0')}\0`
}

/** A pax record `<length> <key>=<value>\n`, whose length counts itself. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`
  const bytes = Buffer.byteLength(body)
  let length = bytes + String(bytes).length
  if (String(length).length !== String(bytes).length) length = bytes + String(length).length
  return `${length}${body}`
}

const fitsUstar = (text: string) => Buffer.byteLength(text) <= 100 && /^[\x20-\x7e]*$/.test(text)

function header(entry: TarEntry, size: number, name = entry.path, typeFlag?: string): Buffer {
  const block = Buffer.alloc(BLOCK)
  block.write(name.slice(0, 100), 0, 100, 'utf8')
  block.write(octal(entry.mode & 0o7777, 8), 100, 8, 'ascii')
  block.write(octal(0, 8), 108, 8, 'ascii')
  block.write(octal(0, 8), 116, 8, 'ascii')
  block.write(octal(Math.min(size, MAX_OCTAL_SIZE), 12), 124, 12, 'ascii')
  block.write(octal(Math.max(0, entry.mtime), 12), 136, 12, 'ascii')
  block.write(' '.repeat(8), 148, 8, 'ascii')
  block.write(typeFlag ?? TYPE_FLAGS[entry.type], 156, 1, 'ascii')
  if (entry.type === 'symlink' || entry.type === 'link') {
    block.write(entry.target.slice(0, 100), 157, 100, 'utf8')
  }
  block.write('ustar\0', 257, 6, 'ascii')
  block.write('00', 263, 2, 'ascii')
  let sum = 0
  for (const byte of block) sum += byte
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii')
  return block
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK)

/**
 * Writes entries to `out` one after the other; `end` adds the two empty blocks that close the
 * archive. Each file's SHA-256 is computed as it is written.
 */
export class TarWriter {
  /** Bytes written so far. */
  written = 0

  constructor(private readonly out: Writable) {}

  private async put(chunk: Buffer): Promise<void> {
    if (this.out.destroyed) throw new Error('the archive could not be written')
    this.written += chunk.length
    if (!this.out.write(chunk)) await once(this.out, 'drain')
  }

  private async headers(entry: TarEntry, size: number): Promise<void> {
    const pax: string[] = []
    if (!fitsUstar(entry.path)) pax.push(paxRecord('path', entry.path))
    if ((entry.type === 'symlink' || entry.type === 'link') && !fitsUstar(entry.target)) {
      pax.push(paxRecord('linkpath', entry.target))
    }
    if (size > MAX_OCTAL_SIZE) pax.push(paxRecord('size', String(size)))
    if (pax.length > 0) {
      const body = Buffer.from(pax.join(''))
      const name = `PaxHeader/${entry.path.replace(/[^\x20-\x7e]/g, '_').slice(-80)}`
      await this.put(header(entry, body.length, name, 'x'))
      await this.put(body)
      await this.put(padding(body.length))
    }
    await this.put(header(entry, size))
  }

  /** A file from memory. */
  async buffer(
    path: string,
    data: Buffer,
    { mode = 0o644, mtime = Date.now() / 1000 } = {},
  ): Promise<{ size: number; sha256: string }> {
    await this.headers({ type: 'file', path, size: data.length, mode, mtime }, data.length)
    await this.put(data)
    await this.put(padding(data.length))
    return { size: data.length, sha256: createHash('sha256').update(data).digest('hex') }
  }

  /**
   * A file from disk, of the `size` it had when listed: one that changed size while it was read
   * fails the archive (`source` names it).
   */
  async file(
    path: string,
    source: string,
    { size, mode, mtime }: { size: number; mode: number; mtime: number },
  ): Promise<{ size: number; sha256: string }> {
    await this.headers({ type: 'file', path, size, mode, mtime }, size)
    const hash = createHash('sha256')
    let read = 0
    if (size > 0) {
      for await (const chunk of createReadStream(source, { start: 0, end: size - 1 })) {
        const bytes = chunk as Buffer
        read += bytes.length
        hash.update(bytes)
        await this.put(bytes)
      }
    }
    if (read !== size) {
      throw new Error(`${source} changed while it was read (${read} bytes of ${size})`)
    }
    await this.put(padding(size))
    return { size, sha256: hash.digest('hex') }
  }

  async directory(path: string, { mode = 0o755, mtime = Date.now() / 1000 } = {}): Promise<void> {
    await this.headers({ type: 'directory', path, mode, mtime }, 0)
  }

  async symlink(path: string, target: string, { mtime = Date.now() / 1000 } = {}): Promise<void> {
    await this.headers({ type: 'symlink', path, target, mode: 0o777, mtime }, 0)
  }

  /** A hard link to `target`, a file earlier in the archive. */
  async link(path: string, target: string, { mode = 0o644, mtime = Date.now() / 1000 } = {}) {
    await this.headers({ type: 'link', path, target, mode, mtime }, 0)
  }

  async end(): Promise<void> {
    await this.put(Buffer.alloc(2 * BLOCK))
  }
}

/** What receives a file's content, chunk by chunk, as the archive is read. */
export interface TarSink {
  data(chunk: Buffer): void
  end(): void
}

const text = (block: Buffer, start: number, length: number) => {
  const field = block.subarray(start, start + length)
  const nul = field.indexOf(0)
  return field.subarray(0, nul === -1 ? length : nul).toString('utf8')
}

const number = (block: Buffer, start: number, length: number, at: number) => {
  const field = text(block, start, length).trim()
  if (!/^[0-7]*$/.test(field)) throw new TarError(`a damaged header at byte ${at}`)
  return field ? Number.parseInt(field, 8) : 0
}

/**
 * Reads an archive pushed to it chunk by chunk (`write`, then `end`): each entry is handed to
 * `onEntry`, whose sink (if any) receives a file's content. Throws `TarError` on a damaged
 * header, an entry of a kind a backup never holds, or an archive cut short.
 */
export class TarReader {
  private pending: Buffer[] = []
  private available = 0
  /** Bytes of the archive consumed so far. */
  private offset = 0
  private state: 'header' | 'body' | 'pax' | 'done' = 'header'
  private remaining = 0
  private pad = 0
  private sink: TarSink | undefined
  private paxBody: Buffer[] = []
  private pax: Record<string, string> = {}
  private zeroBlocks = 0

  constructor(private readonly onEntry: (entry: TarEntry) => TarSink | undefined) {}

  private take(length: number): Buffer {
    if (length === 0) return Buffer.alloc(0)
    const whole = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending)
    const taken = (whole as Buffer).subarray(0, length)
    const rest = (whole as Buffer).subarray(length)
    this.pending = rest.length > 0 ? [rest] : []
    this.available -= length
    this.offset += length
    return taken
  }

  write(chunk: Buffer): void {
    if (this.state === 'done') return
    this.pending.push(chunk)
    this.available += chunk.length
    for (;;) {
      if (this.finished()) {
        this.pending = []
        this.available = 0
        return
      }
      if (this.state === 'header') {
        if (this.available < BLOCK) return
        this.readHeader(this.take(BLOCK))
        continue
      }
      if (this.remaining > 0) {
        if (this.available === 0) return
        const part = this.take(Math.min(this.remaining, this.available))
        this.remaining -= part.length
        if (this.state === 'pax') this.paxBody.push(Buffer.from(part))
        else this.sink?.data(part)
        if (this.remaining > 0) return
      }
      if (this.available < this.pad) {
        this.pad -= this.available
        this.take(this.available)
        return
      }
      this.take(this.pad)
      this.pad = 0
      if (this.state === 'pax') this.pax = this.parsePax(Buffer.concat(this.paxBody))
      else {
        this.sink?.end()
        this.sink = undefined
      }
      this.state = 'header'
    }
  }

  /** Whether the two empty blocks that close the archive were read. */
  finished(): boolean {
    return this.state === 'done'
  }

  end(): void {
    if (!this.finished()) {
      throw new TarError(`the archive ends early, at byte ${this.offset + this.available}`)
    }
  }

  private parsePax(body: Buffer): Record<string, string> {
    const records: Record<string, string> = {}
    let at = 0
    while (at < body.length) {
      const space = body.indexOf(0x20, at)
      const length = Number(body.subarray(at, space).toString('ascii'))
      if (space === -1 || !Number.isInteger(length) || length <= 0) {
        throw new TarError(`a damaged pax header before byte ${this.offset}`)
      }
      const record = body.subarray(space + 1, at + length - 1).toString('utf8')
      const equals = record.indexOf('=')
      records[record.slice(0, equals)] = record.slice(equals + 1)
      at += length
    }
    return records
  }

  private readHeader(block: Buffer): void {
    const at = this.offset - BLOCK
    if (block.every((byte) => byte === 0)) {
      this.zeroBlocks++
      if (this.zeroBlocks === 2) this.state = 'done'
      return
    }
    if (this.zeroBlocks > 0) throw new TarError(`an empty block inside the archive at byte ${at}`)
    let sum = 0
    for (let index = 0; index < BLOCK; index++) {
      sum += index >= 148 && index < 156 ? 0x20 : (block[index] as number)
    }
    if (sum !== number(block, 148, 8, at)) {
      throw new TarError(
        `not a tar archive, or a damaged one: a header's checksum fails at byte ${at}`,
      )
    }
    const flag = String.fromCharCode(block[156] as number)
    const size = number(block, 124, 12, at)
    const prefix = text(block, 345, 155)
    const pax = this.pax
    this.pax = {}
    const path = pax.path ?? (prefix ? `${prefix}/${text(block, 0, 100)}` : text(block, 0, 100))
    const entrySize = pax.size ? Number(pax.size) : size
    const mode = number(block, 100, 8, at)
    const mtime = number(block, 136, 12, at)
    const target = pax.linkpath ?? text(block, 157, 100)
    this.remaining = entrySize
    this.pad = (BLOCK - (entrySize % BLOCK)) % BLOCK
    if (flag === 'x') {
      this.state = 'pax'
      this.paxBody = []
      return
    }
    let entry: TarEntry
    if (flag === '0' || flag === '\0') entry = { type: 'file', path, size: entrySize, mode, mtime }
    else if (flag === '5') entry = { type: 'directory', path, mode, mtime }
    else if (flag === '2') entry = { type: 'symlink', path, target, mode, mtime }
    else if (flag === '1') entry = { type: 'link', path, target, mode, mtime }
    else
      throw new TarError(`an entry of a kind a backup never holds (${flag}) at byte ${at}: ${path}`)
    this.state = 'body'
    this.sink = this.onEntry(entry)
    if (entrySize === 0 && this.pad === 0) {
      this.sink?.end()
      this.sink = undefined
      this.state = 'header'
    }
  }
}
