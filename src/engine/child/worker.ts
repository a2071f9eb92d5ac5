/**
 * The process of one build (`./build.ts`): builds the site its settings name, answers with the
 * report or the error, and ends. Compiled beside the programs by `scripts/run.mjs`.
 */
import { buildSite } from '../build'
import type { BuildConfig } from '../config'
import { answerOnce } from './process'

// A promise does not cross to the parent: the report goes once the caches are written.
answerOnce(async (config: BuildConfig) => {
  const { cacheSaved, ...report } = await buildSite(config)
  await cacheSaved
  return report
})
