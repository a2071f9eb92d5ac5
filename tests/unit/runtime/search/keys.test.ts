import { describe, expect, it } from 'vitest'
import { isSearchShortcut } from '../../../../src/runtime/search/keys'

const keys = { ctrlKey: false, metaKey: false, altKey: false, shiftKey: false }

describe('the keys that open the search', () => {
  it.each([
    [{ ...keys, key: '/' }, true],
    // Shift+7 on a German keyboard.
    [{ ...keys, key: '/', shiftKey: true }, true],
    [{ ...keys, key: 'k', ctrlKey: true }, true],
    [{ ...keys, key: 'k', metaKey: true }, true],
    [{ ...keys, key: 'K', ctrlKey: true }, true],
    [{ ...keys, key: 'k' }, false],
    [{ ...keys, key: 'k', ctrlKey: true, shiftKey: true }, false],
    [{ ...keys, key: 'k', ctrlKey: true, altKey: true }, false],
    [{ ...keys, key: '/', ctrlKey: true }, false],
    [{ ...keys, key: 'Enter' }, false],
  ])('%o: %s', (event, expected) => {
    expect(isSearchShortcut(event)).toBe(expected)
  })
})
