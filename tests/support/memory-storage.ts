/**
 * An in-memory `Storage` for the runtime's unit tests; `failing` makes every read and write
 * throw, as disabled storage and private modes that refuse it do.
 */
export function memoryStorage(failing = false): Storage {
  const data = new Map<string, string>()
  const guard = () => {
    if (failing) throw new DOMException('denied', 'SecurityError')
  }
  return {
    get length() {
      return data.size
    },
    clear: () => data.clear(),
    key: (index) => [...data.keys()][index] ?? null,
    getItem(key) {
      guard()
      return data.get(key) ?? null
    },
    setItem(key, value) {
      guard()
      data.set(key, value)
    },
    removeItem(key) {
      guard()
      data.delete(key)
    },
  }
}
