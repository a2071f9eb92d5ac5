/**
 * The visitor's connection as the Network Information API describes it, and whether it lets
 * the site fetch ahead of need: the runtime's link prefetch and the rate pages' history
 * prefetch ask the same question.
 */

/** The parts of the Network Information API the guards read. */
export interface ConnectionFacts {
  saveData?: boolean
  effectiveType?: string
}

/** False when the visitor's connection asks us to save data. */
export function connectionAllowsPrefetch(connection: ConnectionFacts | undefined): boolean {
  if (!connection) return true
  if (connection.saveData) return false
  return !(connection.effectiveType ?? '').includes('2g')
}

/** The browser's connection facts, where it has them (Chromium). */
export function currentConnection(): ConnectionFacts | undefined {
  return (navigator as Navigator & { connection?: ConnectionFacts }).connection
}
