import { describe, expect, it } from 'vitest'
import { createScrollStore } from '../../../../src/runtime/navigation/scroll'
import { SCROLL_STORAGE_KEY } from '../../../../src/shared/constants'
import { memoryStorage } from '../../../support/memory-storage'

describe('scroll store', () => {
  it('keeps a position per history entry', () => {
    const storage = memoryStorage()
    const store = createScrollStore(() => storage)
    store.save('a', { x: 0, y: 120 })
    store.save('b', { x: 5, y: 900.6 })
    expect(store.get('a')).toEqual({ x: 0, y: 120 })
    expect(store.get('b')).toEqual({ x: 5, y: 901 })
    expect(store.get('c')).toBeUndefined()
  })

  it('survives a new store over the same storage (a reload)', () => {
    const storage = memoryStorage()
    createScrollStore(() => storage).save('a', { x: 0, y: 300 })
    expect(createScrollStore(() => storage).get('a')).toEqual({ x: 0, y: 300 })
  })

  it('overwrites the position of an entry', () => {
    const storage = memoryStorage()
    const store = createScrollStore(() => storage)
    store.save('a', { x: 0, y: 1 })
    store.save('a', { x: 0, y: 2 })
    expect(store.get('a')).toEqual({ x: 0, y: 2 })
  })

  it('keeps at most 100 entries, dropping the oldest', () => {
    const storage = memoryStorage()
    const store = createScrollStore(() => storage)
    for (let i = 0; i < 130; i += 1) store.save(`k${i}`, { x: 0, y: i })
    expect(store.get('k0')).toBeUndefined()
    expect(store.get('k29')).toBeUndefined()
    expect(store.get('k30')).toEqual({ x: 0, y: 30 })
    expect(store.get('k129')).toEqual({ x: 0, y: 129 })
  })

  it('never throws when storage is missing, forbidden or holds garbage', () => {
    expect(() => createScrollStore(() => undefined).save('a', { x: 0, y: 1 })).not.toThrow()
    const forbidden = createScrollStore(() => memoryStorage(true))
    expect(() => forbidden.save('a', { x: 0, y: 1 })).not.toThrow()
    expect(forbidden.get('a')).toBeUndefined()
    const garbage = memoryStorage()
    garbage.setItem(SCROLL_STORAGE_KEY, '{not json')
    expect(createScrollStore(() => garbage).get('a')).toBeUndefined()
    garbage.setItem(SCROLL_STORAGE_KEY, JSON.stringify({ a: { x: 'left', y: null } }))
    expect(createScrollStore(() => garbage).get('a')).toBeUndefined()
  })
})
