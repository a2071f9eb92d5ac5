import type { BuildReport } from '../../src/engine/build'

/** What a stand-in build (one that writes a page or two itself) reports: nothing built. */
export function standInReport(): BuildReport {
  return {
    pages: 0,
    pagesReused: 0,
    buildHash: 'stand-in',
    bundlesReused: false,
    precached: 0,
    timings: {},
    profile: { spans: [], totalMs: 0, cpuMs: 0, mainThreadBusy: 0 },
    pagesOfFiles: {},
    cacheSaved: Promise.resolve(),
  }
}
