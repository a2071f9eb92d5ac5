/**
 * The log's format: lines a person reads on a terminal, JSON anywhere else (a log collector,
 * CI, a test reading the output), either forced by `LOG_FORMAT`, any other value refused.
 */
import { describe, expect, it } from 'vitest'
import { logFormatOf, logStreamFor } from '../../../src/http/logger'

describe('the log format', () => {
  it('follows the terminal unless LOG_FORMAT says otherwise', () => {
    expect(logFormatOf({}, true)).toBe('pretty')
    expect(logFormatOf({}, false)).toBe('json')
    expect(logFormatOf({ LOG_FORMAT: '' }, true)).toBe('pretty')
    expect(logFormatOf({ LOG_FORMAT: 'json' }, true)).toBe('json')
    expect(logFormatOf({ LOG_FORMAT: 'pretty' }, false)).toBe('pretty')
  })

  it('refuses any other value, naming the setting and what it takes', () => {
    for (const value of ['xml', 'JSON', 'pretty ']) {
      expect(() => logFormatOf({ LOG_FORMAT: value }, true)).toThrow(
        `LOG_FORMAT: must be json or pretty; got "${value}"`,
      )
    }
  })

  it('leaves JSON to pino (stdout) and writes pretty lines through a stream', () => {
    expect(logStreamFor('json')).toBeUndefined()
    expect(typeof logStreamFor('pretty')?.write).toBe('function')
  })
})
