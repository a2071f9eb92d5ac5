/**
 * Where a build's time goes: named spans on one clock (milliseconds since the process started,
 * so the start-up before the build's first line is visible too), with the CPU time and the
 * main thread's busy share of the whole build. The build's steps run side by side (content
 * beside bundling, documents beside images), so a span's length is its wall time, not its
 * cost; the CPU figures say how much of the two cores the build used.
 *
 * `BUILD_PROFILE=file.json npm run build` writes it; the benchmark prints it per phase.
 */
import { writeFile } from 'node:fs/promises'
import { performance } from 'node:perf_hooks'

export interface Span {
  name: string
  /** Milliseconds since the process started. */
  start: number
  end: number
}

export interface Profile {
  spans: Span[]
  /** Wall time from the process's start to the end of the build, in milliseconds. */
  totalMs: number
  /** CPU time of every thread of the process (user and system), in milliseconds. */
  cpuMs: number
  /** The share of the build's wall time the main thread was busy running JavaScript. */
  mainThreadBusy: number
}

/** Measures named spans; `measure` is what build steps take, so they need not know the clock. */
export interface Timeline {
  measure<T>(name: string, work: () => Promise<T>): Promise<T>
  /** A span that ended now and began at `start` (from `performance.now()`). */
  record(name: string, start: number): void
  profile(): Profile
}

/** A timeline that measures nothing: the default of steps called outside a build. */
export const untimed: Pick<Timeline, 'measure'> = { measure: (_name, work) => work() }

export function createTimeline(): Timeline {
  const spans: Span[] = [{ name: 'start-up', start: 0, end: performance.now() }]
  const utilization = performance.eventLoopUtilization()
  const cpu = process.cpuUsage()
  const record = (name: string, start: number) => {
    spans.push({ name, start, end: performance.now() })
  }
  return {
    record,
    async measure(name, work) {
      const start = performance.now()
      try {
        return await work()
      } finally {
        record(name, start)
      }
    },
    profile() {
      const used = process.cpuUsage(cpu)
      return {
        spans: [...spans].sort((a, b) => a.start - b.start),
        totalMs: performance.now(),
        cpuMs: (used.user + used.system) / 1000,
        mainThreadBusy: performance.eventLoopUtilization(utilization).utilization,
      }
    },
  }
}

/** One line a span: start and end on the process's clock, and its length. */
export function formatProfile(profile: Profile): string {
  const ms = (value: number) => `${Math.round(value)}`.padStart(5)
  const width = Math.max(...profile.spans.map((span) => span.name.length))
  const lines = profile.spans.map(
    (span) =>
      `${span.name.padEnd(width)} ${ms(span.start)} → ${ms(span.end)} ms  (${ms(span.end - span.start)} ms)`,
  )
  lines.push(
    `${'total'.padEnd(width)} ${ms(profile.totalMs)} ms wall, ${ms(profile.cpuMs)} ms CPU, main thread busy ${Math.round(profile.mainThreadBusy * 100)} %`,
  )
  return lines.join('\n')
}

export async function writeProfile(file: string, profile: Profile): Promise<void> {
  await writeFile(file, `${JSON.stringify(profile, null, 2)}\n`)
}
