/**
 * The process of one build (`./build.ts`): builds the site its settings name, answers with the
 * report or the error, and ends. Compiled beside the programs by `scripts/run.mjs`.
 */
import { buildSite } from '../build'
import { answerOnce } from './process'

answerOnce(buildSite)
