/**
 * The process that bundles the editor's code (`bundle.ts`) once per version of the code, and
 * ends: Vite and Rolldown take their memory with them. Compiled beside the programs by
 * `scripts/run.mjs`.
 */
import { answerOnce } from '../../engine/child/process'
import { bundleEditor } from './bundle'

answerOnce(bundleEditor)
