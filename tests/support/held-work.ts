import { expect, vi } from 'vitest'

/**
 * Work a ticker does (a check, a checkpoint), held open until `release`: for the tests that a
 * ticker's stop waits for the work under way before the service closes its database.
 */
export function heldWork() {
  let started = false
  let release: () => void = () => {}
  return {
    /** Stands in front of the work: marks it started and waits for `release`. */
    async hold(): Promise<void> {
      started = true
      await new Promise<void>((resolve) => {
        release = resolve
      })
    },
    /** Once the ticker has started the work: `stop` does not settle while it is held. */
    async expectStopToWait(stop: () => Promise<void>): Promise<void> {
      await vi.waitFor(() => expect(started).toBe(true))
      let stopped = false
      const stopping = stop().then(() => {
        stopped = true
      })
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(stopped).toBe(false)
      release()
      await stopping
    },
  }
}
